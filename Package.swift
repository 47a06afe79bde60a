// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "TimerKit",
    products: [
        .library(name: "TimerKit", targets: ["TimerKit"]),
        .executable(name: "timerkit-demo", targets: ["timerkit-demo"]),
    ],
    targets: [
        .target(name: "TimerKit"),
        .executableTarget(name: "timerkit-demo", dependencies: ["TimerKit"]),
        .testTarget(name: "TimerKitTests", dependencies: ["TimerKit"]),
    ]
)
