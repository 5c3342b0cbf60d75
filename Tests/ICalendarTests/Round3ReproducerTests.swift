import Foundation
@testable import ICalendar
import Streaks
import Testing

/// Regression tests built from `../shared/repro/round3` (each named after its reproducer): the
/// import reads iCalendar as RFC 5545 writes it, however it is folded, and its costs stay bounded.
@Suite("Reproducers, round 3: import")
struct Round3ReproducerTests {
    private static func calendar(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    private static func imported(_ text: String, from: String = "2024-01-01", through: String = "2024-12-31", cap: Int = 200_000) -> CalendarImport {
        let importer = SessionImporter(expansion: RecurrenceExpansion(from: day(from), through: day(through), maximumInstancesPerRule: cap))
        return importer.importText(text, name: "repro.ics")
    }

    /// Points per day, in UTC.
    private static func points(_ result: CalendarImport) -> [String: Int] {
        result.sessions.reduce(into: [:]) { totals, session in
            totals["\(session.day(in: .utc, dayStart: .midnight))", default: 0] += session.points
        }
    }

    @Test("folded-property-names.ics: a fold inside a property name reads as the unfolded line", arguments: [
        ["RR", " ULE:FREQ=DAILY;COUNT=3"], ["R", " R", " ULE:FREQ=DAILY;COUNT=3"], ["RRULE", " :FREQ=DAILY;COUNT=3"],
    ])
    func foldedNames(rule: [String]) {
        let folded = Self.imported(Self.calendar([
            "BEGIN:VEVENT", "UID:r", "DTSTART:20240701T090000Z"] + rule + ["X-P", " OINTS:10", "END:VEVENT",
            "BEGIN:VEVENT", "UID:x", "DTSTART:20240701T100000Z", "RRULE:FREQ=DAILY;COUNT=3", "EXDA", " TE:20240702T100000Z",
            "X-POINTS:1", "END:VEVENT",
            "BEGIN:VEVENT", "UID:s", "DTSTART:20240701T110000Z", "STAT", " US:CANCELLED", "X-POINTS:100", "END:VEVENT",
            "BEGIN:VEVENT", "UID:d", "DTST", " ART:20240705T110000Z", "X-POINTS:60", "END:VEVENT",
            "BEG", " IN:VEVENT", "UID:b", "DTSTART:20240706T110000Z", "X-POINTS:5", "E", " ND:VEVENT",
        ]))
        #expect(Self.points(folded) == ["2024-07-01": 11, "2024-07-02": 10, "2024-07-03": 11, "2024-07-05": 60, "2024-07-06": 5])
        #expect(folded.diagnostics.isEmpty)
    }

    @Test("folded-long-line-buffered.sh: a folded DESCRIPTION no session reads is stepped over, never kept whole")
    func foldedLongLine() throws {
        // 4 MB of DESCRIPTION folded every 74 octets, read 64 KB at a time: the scanner's buffer
        // holds a chunk and a line, not the description.
        var text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240101T090000Z\r\nX-POINTS:100\r\nDESCRIPTION:"
        text += String(repeating: String(repeating: "A", count: 74) + "\r\n ", count: 4 << 20 / 77) + "end\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let bytes = Array(text.utf8)
        let input = InputBytes(bytes: bytes)
        var cutter = ComponentCutter(
            scanner: ContentLineScanner(input: input), eventProperties: ComponentParsing.sessionProperties(pointsProperty: "X-POINTS"),
            sinksPropertyLines: true)
        var components = 0
        while let item = cutter.next() {
            guard case .component(let lines, _) = item else { continue }
            components += 1
            #expect(lines.raw.byteCount < 200, "the DESCRIPTION is not among the lines kept")
        }
        #expect(components == 1)
        let result = Self.imported(text)
        #expect(result.sessions.map(\.points) == [100])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("unreadable-rrule-hides-next-rrule.ics: a readable RRULE after an unreadable one counts, in either order", arguments: [false, true])
    func unreadableRuleFirst(swapped: Bool) {
        let rules = ["RRULE:FREQ=WEEKLY;BYDAY=XX", "RRULE:FREQ=WEEKLY;COUNT=3"]
        let result = Self.imported(Self.calendar([
            "BEGIN:VEVENT", "UID:u", "DTSTART:20240108T090000Z", "X-POINTS:2"] + (swapped ? rules.reversed() : rules) + ["END:VEVENT",
        ]))
        #expect(result.sessions.map(\.id) == ["u/20240108T090000Z", "u/20240115T090000Z", "u/20240122T090000Z"])
        #expect(result.diagnostics.map(\.location.line) == [swapped ? 8 : 7])
    }

    @Test("until-before-dtstart-drops-session.ics: DTSTART is the first instance even after UNTIL, with a warning")
    func untilBeforeStart() {
        let result = Self.imported(Self.calendar([
            "BEGIN:VEVENT", "UID:u", "DTSTART;TZID=America/Los_Angeles:20240101T180000", "DURATION:PT1H",
            "RRULE:FREQ=DAILY;UNTIL=20240101T235959Z", "X-POINTS:100", "END:VEVENT",
        ]))
        #expect(result.sessions.map(\.start) == [.instant(secondsSince1970: utc(2024, 1, 2, 2))])
        #expect(result.diagnostics.map(\.message) == [
            "RRULE:FREQ=DAILY;UNTIL=20240101T235959Z has no instances (UNTIL is before DTSTART); only DTSTART counts",
        ])
    }

    @Test("malformed-datetime-accepted.ics: a DATE-TIME that is not written as RFC 5545 writes one is an error, not a guess", arguments: [
        "20240701T02000Z", "20240702T06000\u{4}Z", "2024-07-01T020000Z", "20240701T0200000Z", "240701",
    ])
    func malformedTimes(value: String) {
        let result = Self.imported(Self.calendar([
            "BEGIN:VEVENT", "UID:bad", "DTSTART:\(value)", "X-POINTS:100", "END:VEVENT",
            "BEGIN:VEVENT", "UID:good", "DTSTART:20240703T090000Z", "X-POINTS:7", "END:VEVENT",
        ]))
        #expect(result.sessions.map(\.id) == ["good"])
        #expect(result.diagnostics.contains { $0.severity == .error && $0.code == .missingStart })
        // The two forms libical would read as something else are said at their own line.
        if value.hasPrefix("2024070"), value.count < 17 {
            #expect(result.diagnostics.map { "\($0.location.line):\($0.severity):\($0.code)" } == ["5:error:missing-start"])
        }
    }

    @Test("vtimezone-onset-cap-reads-later-zones-as-utc.sh: 300 Outlook VTIMEZONEs, all used, all read as themselves")
    func manyOutlookZones() {
        var lines: [String] = []
        for index in 0..<300 {
            let offset = String(format: "%+03d00", index % 24 - 12)
            let summer = String(format: "%+03d00", index % 24 - 11)
            lines += ["BEGIN:VTIMEZONE", "TZID:Zone \(index)",
                      "BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:\(summer)", "TZOFFSETTO:\(offset)",
                      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
                      "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(summer)",
                      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE"]
        }
        for index in 0..<300 {
            lines += ["BEGIN:VEVENT", "UID:e\(index)", "DTSTART;TZID=Zone \(index):20240701T120000", "X-POINTS:1", "END:VEVENT"]
        }
        let result = Self.imported(Self.calendar(lines))
        #expect(result.diagnostics.isEmpty)
        let expected = (0..<300).map { index -> SessionTime in
            .instant(secondsSince1970: utc(2024, 7, 1, 12) - Int64(index % 24 - 11) * 3_600)
        }
        #expect(result.sessions.map(\.start) == expected)
    }

    @Test("dense-yearly-rule-given-up.ics: a YEARLY rule that matches every second of 90 days gives instances up to the cap")
    func denseYearlyRule() {
        let result = Self.imported(Self.calendar([
            "BEGIN:VEVENT", "UID:d", "DTSTART:20240101T000000Z",
            "RRULE:FREQ=YEARLY;BYYEARDAY=1,2,3,4,5;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;"
                + "BYMINUTE=0,10,20,30,40,50;BYSECOND=0,30",
            "X-POINTS:1", "END:VEVENT",
        ]), cap: 1_000)
        // DTSTART and the cap's instances, as the same rule written FREQ=SECONDLY gives.
        #expect(result.sessions.count == 1_001)
        #expect(result.diagnostics.map(\.message).first?.contains("gives more than 1000 instances") == true)
    }

    @Test("many-tzids-memory-time.sh: beyond 1,000 distinct TZIDs, times are read as floating, said once")
    func manyTimeZoneIDs() {
        var lines: [String] = []
        for index in 0..<1_005 {
            lines += ["BEGIN:VEVENT", "UID:e\(index)", "DTSTART;TZID=Made/Up \(index):20240701T120000", "X-POINTS:1", "END:VEVENT"]
        }
        let result = Self.imported(Self.calendar(lines))
        #expect(result.sessions.count == 1_005)
        #expect(result.sessions.allSatisfy { $0.start == .floating(wallClock(2024, 7, 1, 12)) })
        let warnings = result.diagnostics.filter { $0.code == .unknownTimeZone }
        // One warning for each of the first TZIDs, 100 shown; one for those beyond the limit.
        #expect(warnings.filter { $0.severity == .warning }.count == 100)
        #expect(result.diagnostics.filter { $0.code == .limit }.map(\.message) == [
            "the input names more than 1000 time zones; times in \"Made/Up 1000\" and the other zones beyond them are read in the report's time zone",
        ])
        #expect(result.diagnostics.last?.message == "900 more unknown-time-zone diagnostics in this file are not shown (1000 in all)")
    }

    @Test("recurrence-id-storm-memory.sh: RANGE=THISANDFUTURE overrides are met in order, not searched for each instance")
    func thisAndFutureStorm() {
        var lines = ["BEGIN:VEVENT", "UID:s", "DTSTART:20240101T000000Z", "RRULE:FREQ=HOURLY;COUNT=720", "X-POINTS:1", "END:VEVENT"]
        for hour in stride(from: 0, to: 720, by: 2) {
            let day = 1 + hour / 24
            let time = String(format: "202401%02dT%02d0000Z", day, hour % 24)
            let moved = String(format: "202401%02dT%02d3000Z", day, hour % 24)
            lines += ["BEGIN:VEVENT", "UID:s", "RECURRENCE-ID;RANGE=THISANDFUTURE:\(time)", "DTSTART:\(moved)", "X-POINTS:2", "END:VEVENT"]
        }
        let result = Self.imported(Self.calendar(lines), through: "2024-12-31")
        #expect(result.sessions.count == 720)
        // Every instance is moved by its latest RANGE=THISANDFUTURE override: half an hour later, two points.
        #expect(result.sessions.allSatisfy { $0.points == 2 })
        #expect(result.sessions.allSatisfy { session in
            guard case .instant(let seconds) = session.start else { return false }
            return seconds % 3_600 == 1_800
        })
    }

    @Test("recurrence-id-storm-memory.sh: more than 20,000 VEVENTs of one UID are left out with one warning")
    func overrideStorm() {
        var lines = ["BEGIN:VEVENT", "UID:s", "DTSTART:20240101T000000Z", "RRULE:FREQ=MINUTELY;COUNT=30000", "X-POINTS:1", "END:VEVENT"]
        for minute in 0..<20_005 {
            let time = String(format: "202401%02dT%02d%02d00Z", 1 + minute / 1_440, minute / 60 % 24, minute % 60)
            lines += ["BEGIN:VEVENT", "UID:s", "RECURRENCE-ID:\(time)", "DTSTART:\(time)", "X-POINTS:2", "END:VEVENT"]
        }
        let result = Self.imported(Self.calendar(lines))
        #expect(result.sessions.count == 30_000)
        #expect(result.sessions.filter { $0.points == 2 }.count == 19_999)  // the master and 19,999 overrides are held
        #expect(result.diagnostics.map { "\($0.code) \($0.message)" } == ["limit more than 20000 VEVENTs share the UID s; this one and the later ones are left out"])
    }
}
