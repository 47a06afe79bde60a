// swift-tools-version:6.1
// The bad-input exit tests, built against TimerKit in the release configuration (-O) by
// scripts/release-messages.sh: the messages must survive optimisation. The test files are the root
// package's own (symbolic links into Tests/), so the suite is written once and also runs in the debug
// `swift test`; this package exists so that a release build compiles those two files and not the whole
// test suite.
import PackageDescription

let package = Package(
    name: "ReleaseMessages",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [.package(name: "TimerKit", path: "../..")],
    targets: [
        .testTarget(
            name: "ReleaseMessageTests",
            dependencies: [
                .product(name: "TimerKit", package: "TimerKit"),
                .product(name: "TimerKitMigration", package: "TimerKit"),
            ])
    ]
)
