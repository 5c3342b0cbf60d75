import Foundation
import ICalendar
import Streaks
import FixedClock

/// The repository's `Fixtures/` folder.
let fixturesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// Imports a fixture by file name.
func importFixture(_ name: String, points: PointsRule = .xPoints) throws -> CalendarImport {
    try SessionImporter(pointsRule: points, expansion: testExpansion).importSessions(from: .file(fixturesDirectory.appendingPathComponent(name).path))
}

/// Imports iCalendar text whose lines are joined with CRLF.
func importLines(
    _ lines: [String], points: PointsRule = .xPoints, file: String = "test.ics", expansion: RecurrenceExpansion = testExpansion
) -> CalendarImport {
    // Bytes in memory are always readable: only files throw CalendarReadError.
    try! SessionImporter(pointsRule: points, expansion: expansion)
        .importSessions(from: .string(lines.joined(separator: "\r\n") + "\r\n", name: file))
}

extension CalendarImport {
    /// The session with `id`.
    func session(_ id: String) -> Session? {
        sessions.first { $0.id == id }
    }

    /// Diagnostics as `line:severity:code`, compact for assertions.
    var diagnosticSummary: [String] {
        diagnostics.map { "\($0.location.line):\($0.severity.rawValue):\($0.code)" }
    }
}

/// Seconds since 1970 of a UTC date and time.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
    LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)!.secondsSince1970
}

func wallClock(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> LocalDateTime {
    LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)!
}

func day(_ text: String) -> Day {
    Day(text) ?? Day(daysSince1970: Int.min / 2)
}

extension SessionImporter {
    /// Imports text in memory. Bytes in memory are always readable (only files throw
    /// ``CalendarReadError``), so the tests need no `try` for them.
    func importText(_ text: String, name: String = "<string>") -> CalendarImport {
        try! importSessions(from: .string(text, name: name))
    }

    /// Imports bytes in memory.
    func importBytes(_ bytes: [UInt8], name: String) -> CalendarImport {
        try! importSessions(from: .bytes(bytes, name: name))
    }
}

/// Whether the tests that read every file of `../shared/corpus` read it: not when
/// `STREAKCAL_TESTS_SKIP_CORPUS=1`, which `scripts/test` sets for the sanitizer runs (the plain run
/// reads the corpus, the fuzzer replays it under AddressSanitizer, and the sweep runs every file).
let sharedCorpusWanted = ProcessInfo.processInfo.environment["STREAKCAL_TESTS_SKIP_CORPUS"] != "1"

/// Whether the fixture whose rules spend their whole step budget is compared in the tests run on
/// every fixture: not when `STREAKCAL_TESTS_SANITIZED=1`, which `scripts/test` sets for the
/// sanitizer runs (minutes of instrumented work there; the plain run compares it).
func fixtureWanted(_ path: String) -> Bool {
    ProcessInfo.processInfo.environment["STREAKCAL_TESTS_SANITIZED"] != "1" || !path.hasSuffix("recurring-endless-and-impossible.ics")
}
