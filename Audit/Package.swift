// swift-tools-version:6.1
// timerkit-audit: a static checker for the timer retain cycles TimerKit exists to avoid. It lives in its own
// package so that library users never build swift-syntax or swift-argument-parser.
//   swift run --package-path Audit timerkit-audit Sources/
//   swift package --package-path Audit timerkit-audit          (the command plugin, on this package's targets)
import PackageDescription

let package = Package(
    name: "TimerKitAudit",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "timerkit-audit", targets: ["timerkit-audit"]),
        .library(name: "AuditCore", targets: ["AuditCore"]),
        // `swift package timerkit-audit` in a package that depends on this one (see the README).
        .plugin(name: "TimerKitAuditPlugin", targets: ["TimerKitAuditPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "AuditCore",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .executableTarget(
            name: "timerkit-audit",
            dependencies: [
                "AuditCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .plugin(
            name: "TimerKitAuditPlugin",
            capability: .command(
                intent: .custom(
                    verb: "timerkit-audit",
                    description: "Scan the package's targets for timer retain cycles with timerkit-audit.")
            ),
            dependencies: ["timerkit-audit"]
        ),
        .testTarget(
            name: "AuditCoreTests",
            // The executable is a dependency so that `swift test` builds it for the end-to-end tests.
            dependencies: ["AuditCore", "timerkit-audit"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
