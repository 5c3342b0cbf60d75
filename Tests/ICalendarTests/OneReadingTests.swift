import Foundation
@testable import ICalendar
import Streaks
import Testing

/// One reading of iCalendar: the session path (`report`: unread lines stepped over, plain values
/// and text read without libical) and the general path (`SessionImporter.readsThroughLibical`:
/// every line kept, every property a session uses read by libical's parser) give the same
/// sessions and diagnostics. Each input is a finding of the fuzz target `reading`
/// (`Fuzz/ReadingFuzz/OneReading.swift`), kept in `Fuzz/regressions/`, which every fuzz run
/// replays; these tests hold what the right reading is.
@Suite("One reading: the session path and the general path agree")
struct OneReadingTests {
    private static let regressions = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz").appendingPathComponent("regressions")

    /// The fuzz target's settings: LOCATION and GEO kept for habits, the points from X-POINTS.
    private static func importer(throughLibical: Bool, kept: Set<String> = ["LOCATION", "GEO"]) -> SessionImporter {
        var importer = SessionImporter(
            pointsRule: .xPoints,
            expansion: RecurrenceExpansion(
                from: try! Day(year: 2023, month: 1, day: 1), through: try! Day(year: 2025, month: 12, day: 31), maximumInstancesPerRule: 64))
        importer.parallelism = 1
        importer.keptProperties = kept
        importer.readsThroughLibical = throughLibical
        return importer
    }

    /// A regression input read both ways; both readings must be the same, which is returned.
    private static func read(_ name: String) throws -> CalendarImport {
        try read(bytes: [UInt8](Data(contentsOf: regressions.appendingPathComponent(name))))
    }

    /// Bytes read both ways; both readings must be the same, which is returned.
    private static func read(bytes: [UInt8], kept: Set<String> = ["LOCATION", "GEO"]) throws -> CalendarImport {
        let session = try importer(throughLibical: false, kept: kept).importSessions(from: .bytes(bytes, name: "input.ics"))
        let general = try importer(throughLibical: true, kept: kept).importSessions(from: .bytes(bytes, name: "input.ics"))
        #expect(session.sessions == general.sessions)
        #expect(session.sessionsWithPointsProperty == general.sessionsWithPointsProperty)
        #expect(session.diagnostics.map(\.description) == general.diagnostics.map(\.description))
        return session
    }

    private static func said(_ result: CalendarImport) -> [String] {
        result.diagnostics.map { "\($0.location.line):\($0.severity):\($0.code)" }
    }

    @Test("an empty TEXT value is a value (RFC 5545 3.3.11): LOCATION is kept as \"\", with no note")
    func emptyTextValue() throws {
        let result = try Self.read("reading-empty-text-value-is-a-value.ics")
        let session = try #require(result.sessions.first)
        #expect(result.sessions.count == 1)
        #expect(session.properties == ["LOCATION": ""])
        #expect(session.summary == "")
        #expect(session.points == 10)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("a line that is no content line is kept and said in both readings, among lines stepped over")
    func damagedLine() throws {
        let result = try Self.read("reading-damaged-line-kept-both-ways.ics")
        #expect(Self.said(result) == ["6:warning:libical"])
        #expect(result.diagnostics.first?.message == "Parse error in property name: EQ=HOURLY")
        #expect(result.sessions.map(\.points) == [10])
    }

    @Test("a lowercase name is the name (RFC 5545 3.1): x-points:50 gives 50 points both ways")
    func lowercaseName() throws {
        let result = try Self.read("reading-lowercase-points-name.ics")
        #expect(result.sessions.map(\.points) == [50])
        #expect(Self.said(result) == ["1:note:structure"])
    }

    @Test("a text line whose parameters libical rejects: its value is read, and libical's warning said both ways")
    func textLineWithBadParameter() throws {
        let result = try Self.read("reading-text-line-with-bad-parameter.ics")
        #expect(result.sessions.map(\.summary) == ["Run"])
        #expect(Self.said(result) == ["5:warning:libical"])
        #expect(result.diagnostics.first?.message == "Can't parse parameter name: VAVL")
    }

    @Test("TEXT escapes as RFC 5545 3.3.11 reads them: an escaped comma inside one CATEGORIES value, a backslash kept")
    func textEscapes() throws {
        let result = try Self.read("reading-text-escapes-as-rfc-5545.ics")
        // `run\` and `run` are two UIDs: two sessions, not one (libical read `run\` as `run`).
        #expect(result.sessions.map(\.id) == [#"run\"#, "run"])
        #expect(result.sessions.first?.summary == #"q\x"#)
        #expect(result.sessions.first?.categories == ["Meeting, John", "Work"])
        #expect(result.sessions.map(\.points) == [10, 20])
    }

    @Test("an input that ends inside lines stepped over: the missing ENDs are said at its last line both ways")
    func inputEndsInSkippedLines() throws {
        let result = try Self.read("reading-input-ends-in-skipped-lines.ics")
        #expect(result.diagnostics.map(\.message) == [
            "END:VEVENT is missing; the component is closed where the input ends (line 11)",
            "END:VCALENDAR is missing at the end of the input",
        ])
        #expect(Self.said(result) == ["7:warning:structure", "11:warning:structure"])
        #expect(result.sessions.map(\.points) == [10, 20])
    }

    @Test("a kept property libical reads as other than TEXT: its value as written both ways, and libical's warning when it rejects it", arguments: [
        ("GEO:abc", ["5:warning:libical"]), ("GEO:37.5;-122.1", []), ("GEO;LANGUAGE=en:37.5;-122.1", []), ("PRIORITY:high", []),
    ])
    func keptTypedProperty(line: String, said: [String]) throws {
        let text = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z", line, "X-POINTS:10", "END:VEVENT", "END:VCALENDAR"]
        let result = try Self.read(bytes: Array((text.joined(separator: "\r\n") + "\r\n").utf8), kept: ["GEO", "PRIORITY"])
        let name = String(line.prefix { $0 != ":" && $0 != ";" })
        #expect(result.sessions.map(\.properties) == [[name: String(line.split(separator: ":")[1])]])
        #expect(Self.said(result) == said)
    }

    @Test("a CATEGORIES line libical splits at commas, with escaped commas in its values, keeps the lines after it in place: a second DTSTART is said at its own line both ways")
    func escapedCommaInSplitCategories() throws {
        let result = try Self.read("reading-escaped-comma-in-split-categories.ics")
        #expect(Self.said(result) == ["10:warning:structure", "12:warning:missing-start", "4:warning:points"])
        let second = try #require(result.diagnostics.first { $0.code == .missingStart })
        #expect(second.message == "a second DTSTART in one event; the first, on line 7, is used")
        #expect(result.sessions.count == 1)
        #expect(result.sessions.first?.categories == ["Meeting, John", "Work, Sarah", "Project", "Meeting, John", "Work, Sarah", "Project"])
    }
}
