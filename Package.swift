// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "StreakCal",
    products: [
        .library(name: "StreakCal", targets: ["StreakCal"]),
        .executable(name: "streakcal", targets: ["streakcal"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        .target(name: "Streaks"),
        .target(name: "ICalendar", dependencies: ["CLibical", "Streaks"]),
        .target(name: "CalendarLayout", dependencies: ["Streaks"]),
        .target(name: "StreakExport", dependencies: ["Streaks", "ICalendar", "CalendarLayout"]),
        .target(name: "StreakCal", dependencies: ["Streaks", "ICalendar", "StreakExport", "CalendarLayout"]),
        .executableTarget(
            name: "streakcal",
            dependencies: [
                "StreakCal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "streak-summary",
            dependencies: ["StreakCal"],
            path: "Examples/StreakSummary"
        ),
        .target(name: "SnapshotSupport", path: "Tests/SnapshotSupport"),
        .testTarget(name: "StreaksTests", dependencies: ["Streaks"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "Streaks"]),
        .testTarget(name: "CalendarLayoutTests", dependencies: ["CalendarLayout", "Streaks"]),
        .testTarget(
            name: "StreakExportTests",
            dependencies: ["StreakExport", "Streaks", "ICalendar", "SnapshotSupport"],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "StreakCalCLITests",
            dependencies: ["StreakCal", "streakcal", "SnapshotSupport"],
            exclude: ["Snapshots"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
