// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "TimerKit",
    // `Duration` and `Clock` need these. `.ci/run` builds and tests on Linux; Apple platforms are not verified
    // yet (see the README's Platforms section).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "TimerKit", targets: ["TimerKit"]),
        .library(name: "TimerKitTesting", targets: ["TimerKitTesting"]),
        // Opt in: `Foundation.Timer` look-alikes that return a `Ticker`, for migrating code one argument
        // at a time. Without it, `Timer.scheduledTimer` in an app means Foundation's alone.
        .library(name: "TimerKitMigration", targets: ["TimerKitMigration"]),
        .executable(name: "timerkit-demo", targets: ["timerkit-demo"]),
    ],
    targets: [
        // A small C target (thread timer slack, scheduler slice and names for the precise context, the
        // virtual time counters, prefetch hints on the engine's own memory); not a product.
        .target(name: "CTimerKit"),
        .target(name: "TimerKit", dependencies: ["CTimerKit"]),
        .target(name: "TimerKitTesting", dependencies: ["TimerKit"]),
        .target(name: "TimerKitMigration", dependencies: ["TimerKit"]),
        .executableTarget(name: "timerkit-demo", dependencies: ["TimerKit", "TimerKitMigration"]),
        // What the test targets share (a capture of TimerKit's diagnostics, a main run-loop spinner); not a
        // product. One module, so one capture for the whole test process.
        .target(name: "TimerKitTestSupport", dependencies: ["TimerKit"], path: "Tests/TimerKitTestSupport"),
        .testTarget(name: "TimerKitTests", dependencies: ["TimerKit", "TimerKitTestSupport"]),
        .testTarget(
            name: "TimerKitMigrationTests", dependencies: ["TimerKit", "TimerKitMigration", "TimerKitTestSupport"]),
        .testTarget(
            name: "TimerKitTestingTests", dependencies: ["TimerKit", "TimerKitTesting", "TimerKitTestSupport"]),
    ]
)
