import Foundation

/// The repository's `Fixtures/` folder.
let fixtureFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// The names of the calendar fixtures, sorted; in the sanitizer runs (`STREAKCAL_TESTS_SANITIZED=1`,
/// set by `scripts/test`) all but the one whose rules spend their whole step budget: minutes of
/// instrumented work with nothing concurrent in it that the other recurring fixtures lack (the
/// plain run reads it).
func calendarFixtureNames() -> [String] {
    let sanitized = ProcessInfo.processInfo.environment["STREAKCAL_TESTS_SANITIZED"] == "1"
    return ((try? FileManager.default.contentsOfDirectory(atPath: fixtureFolder.path)) ?? [])
        .filter { $0.hasSuffix(".ics") && !(sanitized && $0 == "recurring-endless-and-impossible.ics") }
        .sorted()
}
