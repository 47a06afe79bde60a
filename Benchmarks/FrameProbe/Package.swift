// swift-tools-version:6.1
// A release probe of frame-subscription costs with 10,000 subscribers, under virtual time:
//   swift run -c release --package-path Benchmarks/FrameProbe
// Set TIMERKIT_PATH to another checkout of TimerKit to measure it instead (for a before/after pair on one
// machine in one sitting).
import Foundation
import PackageDescription

let root =
    Context.environment["TIMERKIT_PATH"]
    ?? URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent().path
let identity = URL(fileURLWithPath: root).lastPathComponent

let package = Package(
    name: "FrameProbe",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: root)],
    targets: [
        .executableTarget(
            name: "frame-probe",
            dependencies: [
                .product(name: "TimerKit", package: identity),
                .product(name: "TimerKitTesting", package: identity),
            ]
        )
    ]
)
