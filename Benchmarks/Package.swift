// swift-tools-version:6.1
// TimerKit's instruments, kept in their own package so that library users never build their
// dependencies. Three executables:
//   - TimerKitBenchmarks: package-benchmark suite with committed thresholds
//     (`swift package --package-path Benchmarks benchmark`);
//   - timerkit-bench: the side-by-side report against the raw primitives
//     (`swift run -c release --package-path Benchmarks timerkit-bench`);
//   - timerkit-soak: ten minutes of churn over 10,000 tickers, then a check that everything was released
//     (`swift run -c release --package-path Benchmarks timerkit-soak --duration 10m`).
import PackageDescription

let package = Package(
    name: "TimerKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "TimerKit", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "TimerKitBenchmarks",
            dependencies: [
                .product(name: "TimerKit", package: "TimerKit"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/TimerKitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .target(name: "BenchSupport", path: "Sources/BenchSupport"),
        .executableTarget(
            name: "timerkit-bench",
            dependencies: [
                .product(name: "TimerKit", package: "TimerKit"),
                .product(name: "TimerKitTesting", package: "TimerKit"),
                "BenchSupport",
            ],
            path: "Sources/timerkit-bench"
        ),
        .executableTarget(
            name: "timerkit-soak",
            dependencies: [
                .product(name: "TimerKit", package: "TimerKit"),
                "BenchSupport",
            ],
            path: "Sources/timerkit-soak"
        ),
    ]
)
