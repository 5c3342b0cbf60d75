// swift-tools-version:6.1
// Benchmarks for StreakCal, kept in their own package so that the main package does not depend on
// the benchmark tooling. Run from this folder: swift package --disable-sandbox benchmark
import PackageDescription

let package = Package(
    name: "StreakCalBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "StreakCal", path: ".."),
        // Only the malloc interposer trait: the default traits also pull in a runtime interposer
        // package that this toolchain's package mirror does not carry.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "LayoutBenchmarks",
            dependencies: [
                .product(name: "StreakCal", package: "StreakCal"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LayoutBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LayoutQueryLoop",
            dependencies: [.product(name: "StreakCal", package: "StreakCal")]
        ),
    ]
)
