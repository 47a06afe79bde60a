// snippet-module: PackageDescription
// One target of a package manifest that also has the target "MyApp" and depends on TimerKit.
import PackageDescription

let package = Package(
    name: "MyApp",
    dependencies: [.package(path: "../TimerKit")],
    targets: [
        .target(name: "MyApp", dependencies: [.product(name: "TimerKit", package: "TimerKit")]),
        SNIPPET,
    ]
)
