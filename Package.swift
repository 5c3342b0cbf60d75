// swift-tools-version:6.1
import PackageDescription

/// Every module imports internally by default (a module's public API says which imports it shows)
/// and sees only the members of the modules it imports.
let strictImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "StreakCal",
    products: [
        // One library per layer, so that a client takes only what it needs (layouts without libical).
        .library(name: "CalendarDays", targets: ["CalendarDays"]),
        .library(name: "Streaks", targets: ["Streaks"]),
        .library(name: "CalendarLayout", targets: ["CalendarLayout"]),
        .library(name: "CalendarDiagnostics", targets: ["CalendarDiagnostics"]),
        .library(name: "ICalendar", targets: ["ICalendar"]),
        .library(name: "StreakExport", targets: ["StreakExport"]),
        .library(name: "StreakCal", targets: ["StreakCal"]),
        // Calendars at addresses (https, webcal, CalDAV), apart: the umbrella reads no network.
        .library(name: "StreakCalRemote", targets: ["StreakCalRemote"]),
        .executable(name: "streakcal", targets: ["streakcal"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (scripts/check-docs); nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        // C: libcurl, loaded with dlopen when a URL is first read (see Sources/CCurl/include/CCurl.h);
        // its headers come from libcurl4-openssl-dev, which scripts/bootstrap installs.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // C: the allocator's settings for the command (jemalloc's options, when build-release links it in).
        .target(name: "CAllocatorSettings"),
        // Pure Swift: days, weekdays and wall-clock times, as integers.
        .target(name: "CalendarDays", swiftSettings: strictImports),
        // Pure Swift: sessions, zones, goals, day totals, streaks.
        .target(name: "Streaks", dependencies: ["CalendarDays", "CalendarDiagnostics"], swiftSettings: strictImports),
        // Pure Swift: located diagnostics (file, line, column, code, message), which the import gives
        // and the renderers show; below ICalendar, so that renderers need not import it.
        .target(name: "CalendarDiagnostics", swiftSettings: strictImports),
        // Pure Swift: month grids and their geometry.
        .target(name: "CalendarLayout", dependencies: ["CalendarDays"], swiftSettings: strictImports),
        // The libical adapter: iCalendar text into sessions, and annotated calendars back out.
        .target(name: "ICalendar", dependencies: ["CLibical", "CalendarDiagnostics", "Streaks"], swiftSettings: strictImports),
        // Reports (text, JSON, CSV, Markdown, SVG, HTML), presentation rules, annotations.
        .target(name: "StreakExport", dependencies: ["Streaks", "CalendarDiagnostics", "ICalendar", "CalendarLayout"], swiftSettings: strictImports),
        // The application layer, and the umbrella: settings, scoring, batches, files.
        .target(
            name: "StreakCal", dependencies: ["CalendarDays", "Streaks", "CalendarDiagnostics", "ICalendar", "StreakExport", "CalendarLayout"],
            swiftSettings: strictImports),
        // Calendars at addresses: subscriptions (https, webcal) and CalDAV, through libcurl (CCurl),
        // into the cache; the only module that reaches a network.
        .target(
            name: "StreakCalRemote", dependencies: ["StreakCal", "CalendarDays", "CalendarDiagnostics", "ICalendar", "CCurl"],
            swiftSettings: strictImports),
        .executableTarget(
            name: "streakcal",
            dependencies: [
                "StreakCal",
                "StreakCalRemote",
                "CAllocatorSettings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictImports
        ),
        .executableTarget(
            name: "streak-summary",
            dependencies: ["StreakCal"],
            path: "Examples/StreakSummary",
            swiftSettings: strictImports
        ),
        .target(name: "SnapshotSupport", path: "Tests/SnapshotSupport"),
        // The tests' fixed "now" (`testNow`) and recurrence window: one definition for every test target.
        .target(name: "FixedClock", dependencies: ["ICalendar", "CalendarDays"], path: "Tests/FixedClock"),
        .testTarget(name: "CalendarDaysTests", dependencies: ["CalendarDays", "Streaks"]),
        .testTarget(name: "StreaksTests", dependencies: ["Streaks", "CalendarDays", "CalendarDiagnostics"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "Streaks", "CalendarDays", "FixedClock"]),
        .testTarget(name: "CalendarLayoutTests", dependencies: ["CalendarLayout", "CalendarDays", "Streaks"]),
        .testTarget(
            name: "StreakExportTests",
            dependencies: ["StreakExport", "Streaks", "ICalendar", "CalendarDays", "SnapshotSupport", "FixedClock"],
            exclude: ["Snapshots"]
        ),
        .testTarget(name: "StreakCalTests", dependencies: ["StreakCal", "StreakCalRemote", "FixedClock"]),
        .testTarget(
            name: "StreakCalCLITests",
            dependencies: ["StreakCal", "StreakCalRemote", "streakcal", "CalendarLayout", "SnapshotSupport"],
            exclude: ["Snapshots"]
        ),
        // Runs the snippets (`Snippets/*.swift`, which `swift build` builds beside the tests) and checks
        // what they print, the README's examples and the documents' links.
        .testTarget(name: "DocumentationTests"),
    ],
    swiftLanguageModes: [.v6]
)

// CI's sanitizer steps (scripts/test) build only the test targets they run: they name them in
// STREAKCAL_TEST_TARGETS (comma-separated), and the other test targets, with what only those need
// (for ThreadSanitizer, the command and ArgumentParser), are not built with the instrumentation.
// Unset, every test target is part of the package.
if let wanted = Context.environment["STREAKCAL_TEST_TARGETS"].map({ Set($0.split(separator: ",").map(String.init)) }) {
    package.targets.removeAll { $0.type == .test && !wanted.contains($0.name) }
}
