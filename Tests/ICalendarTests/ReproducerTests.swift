import Foundation
@testable import ICalendar
import Streaks
import Testing

/// An event's lines inside a VCALENDAR, CRLF.
private func calendar(_ lines: [String]) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
}

private func importText(_ text: String, from: String = "2024-01-01", through: String = "2024-12-31", cap: Int = 200_000,
                        chunkSize: Int? = nil) -> CalendarImport {
    var importer = SessionImporter(expansion: RecurrenceExpansion(from: day(from), through: day(through), maximumInstancesPerRule: cap))
    if let chunkSize { importer.readChunkSize = chunkSize }
    return importer.importText(text, name: "repro.ics")
}

/// Regression tests built from `../shared/repro` (each named after its reproducer): what the
/// import does with the inputs that once lost data, hung or crashed.
@Suite("Reproducers: import")
struct ReproducerImportTests {
    @Test("invalid-date-feb30.ics and kin: an impossible date or time is a located error and no session", arguments: [
        ("DTSTART:20240230T100000Z", "DTSTART 20240230T100000Z is not a real date and time; the event is skipped"),
        ("DTSTART:20240132T090000Z", "DTSTART 20240132T090000Z is not a real date and time; the event is skipped"),
        ("DTSTART:20240101T250000Z", "DTSTART 20240101T250000Z is not a real date and time; the event is skipped"),
        ("DTSTART:20240101T096000Z", "DTSTART 20240101T096000Z is not a real date and time; the event is skipped"),
        ("DTSTART;VALUE=DATE:20230229", "DTSTART 20230229 is not a real date and time; the event is skipped"),
    ])
    func impossibleDates(start: String, message: String) {
        let result = importText(calendar(["BEGIN:VEVENT", "UID:bad", start, "X-POINTS:100", "END:VEVENT",
                                          "BEGIN:VEVENT", "UID:good", "DTSTART:20240301T100000Z", "X-POINTS:7", "END:VEVENT"]))
        #expect(result.sessions.map(\.id) == ["good"])
        #expect(result.diagnostics.map { "\($0.location.line):\($0.location.column):\($0.severity):\($0.message)" }
                == ["5:\(start.firstIndex(of: ":")!.utf16Offset(in: start) + 2):error:\(message)"])
    }

    @Test("An impossible DTEND or RECURRENCE-ID also skips its event, and an impossible override does not become a master")
    func impossibleEndAndOverride() {
        let result = importText(calendar([
            "BEGIN:VEVENT", "UID:end", "DTSTART:20240301T100000Z", "DTEND:20240230T110000Z", "X-POINTS:1", "END:VEVENT",
            "BEGIN:VEVENT", "UID:series", "DTSTART:20240301T100000Z", "RRULE:FREQ=DAILY;COUNT=2", "X-POINTS:2", "END:VEVENT",
            "BEGIN:VEVENT", "UID:series", "RECURRENCE-ID:20240231T100000Z", "DTSTART:20240305T100000Z", "X-POINTS:50", "END:VEVENT",
        ]))
        #expect(result.sessions.map(\.id) == ["series/20240301T100000Z", "series/20240302T100000Z"])
        #expect(result.diagnostics.map(\.severity) == [.error, .error])
        #expect(result.diagnostics.map(\.location.line) == [6, 17])
    }

    @Test("A second DTSTART is a warning that says the first is used")
    func secondStart() {
        let result = importText(calendar([
            "BEGIN:VEVENT", "UID:twice", "DTSTART:20240301T100000Z", "DTSTART:20240302T100000Z", "X-POINTS:1", "END:VEVENT",
        ]))
        #expect(result.sessions.map(\.start) == [.instant(secondsSince1970: utc(2024, 3, 1, 10))])
        #expect(result.diagnostics.map(\.message) == ["a second DTSTART in one event; the first, on line 5, is used"])
        #expect(result.diagnostics.map(\.location.line) == [6])
    }

    @Test("duration-wraps-32bit.ics: a DURATION past 32 bits is read exactly (libical reads PT4294967356S as a minute)")
    func durationPast32Bits() {
        var importer = SessionImporter(pointsRule: .minutes, expansion: RecurrenceExpansion(through: day("2024-12-31")))
        importer.parallelism = 1
        let result = importer.importText(calendar([
            "BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z", "DURATION:PT4294967356S", "END:VEVENT",
            "BEGIN:VEVENT", "UID:b", "DTSTART:20240101T090000Z", "DURATION:P99999999999999999999W", "END:VEVENT",
        ]), name: "repro.ics")
        #expect(result.sessions.map(\.end) == [
            .instant(secondsSince1970: utc(2024, 1, 1, 9) + 4_294_967_356), .instant(secondsSince1970: utc(2024, 1, 1, 9)),
        ])
        #expect(result.sessions.map(\.points) == [4_294_967_356 / 60, 0])
        #expect(result.diagnostics.map(\.message) == ["DURATION P99999999999999999999W is too long to count; the session is kept without a length"])
    }

    @Test("Durations read as RFC 5545 writes them", arguments: [
        ("P1W", ICalDuration.Reading.duration(.init(isNegative: false, days: 7, seconds: 0))),
        ("-PT15M", .duration(.init(isNegative: true, days: 0, seconds: 900))),
        ("P1DT2H3M4S", .duration(.init(isNegative: false, days: 1, seconds: 7384))),
        ("+PT4294967356S", .duration(.init(isNegative: false, days: 0, seconds: 4_294_967_356))),
        ("PT", .malformed), ("P1H", .malformed), ("1D", .malformed), ("P99999999999999999999D", .tooLong),
    ])
    func durations(text: String, expected: ICalDuration.Reading) {
        #expect(ICalDuration.reading(text) == expected)
    }

    @Test("max-instances-window.ics: --max-instances N gives N instances inside the window, not in its margin days")
    func capInsideWindow() {
        let result = importText(calendar([
            "BEGIN:VEVENT", "UID:daily@example.com", "DTSTART:20240101T100000Z", "RRULE:FREQ=DAILY", "X-POINTS:100", "END:VEVENT",
        ]), from: "2024-01-10", through: "2024-01-20", cap: 3)
        let inWindow = result.sessions.filter { (day("2024-01-10")...day("2024-01-20")).contains($0.day(in: .utc, dayStart: .midnight)) }
        #expect(inWindow.map(\.id) == ["daily@example.com/20240110T100000Z", "daily@example.com/20240111T100000Z", "daily@example.com/20240112T100000Z"])
        #expect(result.diagnostics.map(\.code) == [.recurrence])
    }

    @Test("hang-*.ics, slow-rrule-secondly-rare.ics: rules that never or rarely match end at once, with a warning naming the rule", arguments: [
        ("RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30", 1, "RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30 has no instances (BYMONTHDAY=30 is in no month of BYMONTH=2); only DTSTART counts"),
        ("RRULE:FREQ=MINUTELY;BYDAY=2SA", 1, "RRULE:FREQ=MINUTELY;BYDAY=2SA cannot be read (BYDAY=2SA: a weekday with an ordinal is only allowed with FREQ=MONTHLY, or YEARLY without BYWEEKNO (RFC 5545 3.3.10)); it adds nothing"),
        ("RRULE:FREQ=HOURLY;BYDAY=5SA", 1, "RRULE:FREQ=HOURLY;BYDAY=5SA cannot be read (BYDAY=5SA: a weekday with an ordinal is only allowed with FREQ=MONTHLY, or YEARLY without BYWEEKNO (RFC 5545 3.3.10)); it adds nothing"),
        ("RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYHOUR=3;BYMINUTE=0;BYSECOND=0", 2, ""),
    ])
    func hangingRules(rule: String, sessions: Int, message: String) {
        let result = importText(calendar(["BEGIN:VEVENT", "UID:a", "DTSTART:20240101T000000Z", rule, "X-POINTS:1", "END:VEVENT"]))
        #expect(result.sessions.count == sessions)
        #expect(result.diagnostics.map(\.message) == (message.isEmpty ? [] : [message]))
    }

    @Test("hang-vtimezone-rrule.ics: a VTIMEZONE rule that never matches is said once, where the zone is, and the zone still works")
    func hangingZoneRule() {
        let result = importText(calendar([
            "BEGIN:VTIMEZONE", "TZID:Bad", "BEGIN:STANDARD", "DTSTART:20000101T000000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0100",
            "RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30", "END:STANDARD", "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:a", "DTSTART;TZID=Bad:20240101T090000", "X-POINTS:1", "END:VEVENT",
        ]))
        #expect(result.sessions.map(\.start) == [.instant(secondsSince1970: utc(2024, 1, 1, 8))])
        #expect(result.diagnostics.map { "\($0.location.line):\($0.message)" } == [
            "3:VTIMEZONE Bad: the STANDARD rule FREQ=SECONDLY;BYMONTHDAY=30;BYMONTH=2 has no onsets (BYMONTHDAY=30 is in no month of BYMONTH=2)",
        ])
    }

    @Test("gen-vtz-many.py: VTIMEZONEs no time names are not read; the one that is used is")
    func unusedZones() {
        var lines: [String] = []
        for index in 0..<2_000 {
            lines += ["BEGIN:VTIMEZONE", "TZID:Z\(index)", "BEGIN:STANDARD", "DTSTART:16011028T030000", "TZOFFSETFROM:+0200",
                      "TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
                      // Broken on purpose: only a zone that is read can be diagnosed.
                      "BEGIN:DAYLIGHT", "END:DAYLIGHT", "END:VTIMEZONE"]
        }
        lines += ["BEGIN:VEVENT", "UID:a", "DTSTART;TZID=Z5:20240101T090000", "X-POINTS:1", "END:VEVENT"]
        let result = importText(calendar(lines))
        #expect(result.sessions.map(\.start) == [.instant(secondsSince1970: utc(2024, 1, 1, 8))])
        #expect(result.diagnostics.map { "\($0.location.line):\($0.message)" } == [
            "58:VTIMEZONE Z5: a DAYLIGHT without DTSTART or TZOFFSETTO is ignored",
        ])
        let outline = InputOutline.scan(InputBytes(bytes: Array(calendar(lines).utf8)))
        #expect(outline.referencedTimeZoneIDs == ["Z5"])
        #expect(!outline.hasUncertainReferences)
    }

    @Test("TZID parameters are read as the reader reads them (quotes dropped, decoded); those with an escape make every VTIMEZONE count", arguments: [
        ("DTSTART;TZID=\"Z5\":20240101T090000", false, ["Z5"]),
        ("DTSTART;VALUE=DATE-TIME;TZID=Z5:20240101T090000", false, ["Z5"]),
        ("dtend;tzid=Z6:20240101T090000", false, ["Z6"]),
        ("EXDATE;TZID=Zürich:20240101T090000", false, ["Zürich"]),
        ("DTSTART;TZID=\"(UTC-05:00) Eastern Time (US & Canada)\":20240101T090000", false, ["(UTC-05:00) Eastern Time (US & Canada)"]),
        ("DTSTART;TZID=Z\\,5:20240101T090000", true, []),
    ])
    func referenceReading(line: String, uncertain: Bool, references: [String]) {
        let text = calendar(["BEGIN:VEVENT", "UID:a", line, "END:VEVENT"])
        let outline = InputOutline.scan(InputBytes(bytes: Array(text.utf8)))
        #expect(outline.hasUncertainReferences == uncertain)
        #expect(outline.referencedTimeZoneIDs == references)
    }

    @Test("gen-vtz-secondly.py: one STANDARD with thousands of RRULEs reads 16 and says so")
    func manyZoneRules() {
        let result = importText(calendar(
            ["BEGIN:VTIMEZONE", "TZID:Sec", "BEGIN:STANDARD", "DTSTART:20000101T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100"]
                + Array(repeating: "RRULE:FREQ=SECONDLY", count: 2_000)
                + ["END:STANDARD", "END:VTIMEZONE", "BEGIN:VEVENT", "UID:a", "DTSTART;TZID=Sec:20240101T090000", "X-POINTS:1", "END:VEVENT"]))
        #expect(result.sessions.count == 1)
        #expect(result.diagnostics.map(\.message).first == "VTIMEZONE Sec: 1984 RRULEs beyond 16 in one STANDARD or DAYLIGHT are ignored")
        #expect(result.diagnostics.allSatisfy { $0.code == .badTimeZone && $0.location.line == 3 })
    }

    @Test("An event with thousands of rules costs one budget of steps, and says how many rules were left")
    func manyEventRules() {
        let rules = (0..<5_000).map { "RRULE:FREQ=SECONDLY;INTERVAL=\($0 + 2);BYSECOND=1" }
        let result = importText(calendar(["BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z"] + rules + ["X-POINTS:1", "END:VEVENT"]))
        #expect(result.sessions.count >= 1)
        #expect(result.diagnostics.last?.message.hasSuffix("more RRULE and EXRULE lines of this event are not expanded: its rules used up their budget of 2000000 steps") == true)
    }

    @Test("gen-long-line.py: a long unread line is stepped over, whatever the chunk size, and the event is read", arguments: [1, 7, 4096, 1 << 20])
    func longLine(chunkSize: Int) throws {
        let description = String(repeating: "A", count: 3 << 20)
        let text = calendar(["BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z", "DURATION:PT30M", "X-POINTS:100",
                             "DESCRIPTION:" + description, " folded on", "X-AFTER:1", "SUMMARY:kept", "END:VEVENT"])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("long-line-\(chunkSize).ics").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var importer = SessionImporter(expansion: RecurrenceExpansion(from: day("2024-01-01"), through: day("2024-01-31")))
        importer.readChunkSize = chunkSize
        let result = try importer.importSessions(from: .file(path))
        #expect(result.sessions.map(\.summary) == ["kept"])
        #expect(result.sessions.map(\.points) == [100])
        #expect(result.diagnostics.isEmpty)
    }
}

/// Copies of one event in several VCALENDARs or iTIP messages count once (RFC 5545 3.8.7.4,
/// RFC 5546 2.1.5).
@Suite("Duplicate events")
struct DuplicateEventTests {
    private func event(_ uid: String, sequence: Int? = nil, stamp: String = "20240101T000000Z", start: String,
                       points: Int, extra: [String] = []) -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:\(stamp)"] + (sequence.map { ["SEQUENCE:\($0)"] } ?? [])
            + ["DTSTART:\(start)", "X-POINTS:\(points)"] + extra + ["END:VEVENT"]
    }

    private func calendars(_ blocks: [(method: String?, events: [[String]])]) -> String {
        var lines: [String] = []
        for block in blocks {
            lines += ["BEGIN:VCALENDAR", "VERSION:2.0"]
            if let method = block.method { lines.append("METHOD:\(method)") }
            lines += block.events.joined()
            lines.append("END:VCALENDAR")
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    @Test("The highest SEQUENCE wins, then the latest DTSTAMP, then the last copy; a note says how many merged", arguments: [
        ([(0, "20240101T000000Z", 10), (2, "20240101T000000Z", 30), (1, "20240105T000000Z", 20)], 30),
        ([(1, "20240101T000000Z", 10), (1, "20240103T000000Z", 30), (1, "20240102T000000Z", 20)], 30),
        ([(1, "20240101T000000Z", 10), (1, "20240101T000000Z", 30)], 30),
    ])
    func latestCopyWins(copies: [(Int, String, Int)], points: Int) {
        let text = calendars(copies.map { (nil, [event("e", sequence: $0.0, stamp: $0.1, start: "20240301T090000Z", points: $0.2)]) })
        let result = importText(text)
        #expect(result.sessions.map(\.points) == [points])
        let notes = result.diagnostics.filter { $0.code == .duplicate }
        #expect(notes.count == 1)
        #expect(notes.first?.message.hasPrefix("\(copies.count) copies of the event UID e count once") == true)
    }

    @Test("Copies in one VCALENDAR, of an override, and of a recurring event count once; other events are not touched")
    func copiesEverywhere() {
        let text = calendars([
            (nil, [event("series", sequence: 0, start: "20240301T090000Z", points: 1, extra: ["RRULE:FREQ=DAILY;COUNT=3"]),
                   event("single", start: "20240310T090000Z", points: 7),
                   event("series", sequence: 1, start: "20240302T100000Z", points: 50, extra: ["RECURRENCE-ID:20240302T090000Z"])]),
            (nil, [event("series", sequence: 1, start: "20240301T090000Z", points: 2, extra: ["RRULE:FREQ=DAILY;COUNT=3"]),
                   event("series", sequence: 1, start: "20240302T110000Z", points: 60, extra: ["RECURRENCE-ID:20240302T090000Z"])]),
        ])
        let result = importText(text)
        #expect(result.sessions.map(\.points).sorted() == [2, 2, 7, 60])
        #expect(result.diagnostics.filter { $0.code == .duplicate }.count == 2)
    }

    @Test("Copies whose VALARMs have UIDs of their own count once: only the VEVENT's own UID and RECURRENCE-ID name it")
    func copiesWithAlarmUIDs() {
        func alarm(_ uid: String, extra: [String] = []) -> [String] {
            ["BEGIN:VALARM", "UID:\(uid)", "ACTION:DISPLAY", "TRIGGER:-PT15M"] + extra + ["END:VALARM"]
        }
        let text = calendars([(nil, [
            event("apple", sequence: 0, start: "20240105T090000Z", points: 10, extra: alarm("alarm-a")),
            event("apple", sequence: 1, start: "20240105T100000Z", points: 20, extra: alarm("alarm-b")),
            event("plain", start: "20240106T090000Z", points: 7, extra: alarm("alarm-c", extra: ["RECURRENCE-ID:20240106T090000Z"])),
        ])])
        let result = importText(text)
        #expect(result.sessions.map(\.points) == [20, 7])
        #expect(result.diagnostics.filter { $0.code == .duplicate }.map(\.location.line) == [15])
        let outline = InputOutline.scan(InputBytes(bytes: Array(text.utf8)))
        #expect(outline.mayRepeat("apple"))
        #expect(!outline.mayRepeat("alarm-a"))
        #expect(!outline.mayHaveOverrides("plain"))
    }

    @Test("A METHOD:CANCEL at least as recent removes the event, or with RECURRENCE-ID its instance; an older one does not")
    func cancellations() {
        let cancelled = importText(calendars([
            ("REQUEST", [event("m", sequence: 1, start: "20240301T090000Z", points: 5)]),
            ("CANCEL", [event("m", sequence: 1, start: "20240301T090000Z", points: 0)]),
        ]))
        #expect(cancelled.sessions.isEmpty)
        #expect(cancelled.diagnostics.contains { $0.message.hasPrefix("the event UID m is cancelled by the METHOD:CANCEL on line") })
        let stale = importText(calendars([
            ("REQUEST", [event("m", sequence: 2, start: "20240301T090000Z", points: 5)]),
            ("CANCEL", [event("m", sequence: 1, start: "20240301T090000Z", points: 0)]),
        ]))
        #expect(stale.sessions.map(\.points) == [5])
        let instance = importText(calendars([
            ("REQUEST", [event("s", sequence: 0, start: "20240301T090000Z", points: 5, extra: ["RRULE:FREQ=DAILY;COUNT=3"])]),
            ("CANCEL", [event("s", sequence: 1, start: "20240302T090000Z", points: 0, extra: ["RECURRENCE-ID:20240302T090000Z"])]),
        ]))
        #expect(instance.sessions.map(\.id) == ["s/20240301T090000Z", "s/20240303T090000Z"])
    }

    @Test("REPLY, COUNTER and other iTIP messages are not sessions, even with a DTSTART")
    func messages() {
        let result = importText(calendars([
            ("REQUEST", [event("m", start: "20240301T090000Z", points: 5)]),
            ("REPLY", [event("m", start: "20240301T090000Z", points: 5)]),
            ("COUNTER", [event("m", start: "20240302T090000Z", points: 5)]),
        ]))
        #expect(result.sessions.map(\.points) == [5])
        #expect(result.diagnostics.filter { $0.message.contains("iTIP message") }.count == 2)
    }

    @Test("Several inputs are read as one: a copy in another input counts once, a cancellation in another removes; every location names its own input and line")
    func severalInputs() throws {
        let first = CalendarSource.string(calendars([(nil, [
            event("x", sequence: 0, start: "20240301T090000Z", points: 10), event("gone", sequence: 0, start: "20240305T090000Z", points: 4),
        ])]), name: "old.ics")
        let second = CalendarSource.string(calendars([(nil, [
            event("x", sequence: 1, start: "20240302T090000Z", points: 30),
            ["BEGIN:VEVENT", "DTSTART:20240303T090000Z", "DTEND:20240230T100000Z", "END:VEVENT"],
            ["BEGIN:VEVENT", "DTSTART:20240304T090000Z", "X-POINTS:5", "END:VEVENT"],
        ])]) + calendars([("CANCEL", [event("gone", sequence: 0, start: "20240305T090000Z", points: 0)])]), name: "new.ics")
        let result = try SessionImporter(expansion: RecurrenceExpansion(from: day("2024-03-01"), through: day("2024-03-31")))
            .importSessions(from: [first, second])
        #expect(result.sessions.map(\.points) == [30, 5])
        #expect(result.sessions.map(\.id) == ["x", "new.ics:14"])
        #expect(result.sessions.map(\.source) == [SourceLocation(file: "new.ics", line: 3), SourceLocation(file: "new.ics", line: 14)])
        let said = result.diagnostics.map { "\($0.location.file):\($0.location.line): \($0.message)" }
        #expect(said.contains("new.ics:3: 2 copies of the event UID x count once: this one (SEQUENCE 1) is the latest; the others, on line old.ics:3, are left out"))
        #expect(said.contains("new.ics:12: DTEND 20240230T100000Z is not a real date and time; the event is skipped"))
        #expect(said.contains("new.ics:14: VEVENT has no UID; its session id is new.ics:14"))
        #expect(said.contains { $0.hasPrefix("old.ics:10: the event UID gone is cancelled by the METHOD:CANCEL on line new.ics:") })
        #expect(!said.contains { $0.contains("several VCALENDARs") || $0.contains("\u{1}") })
    }

    @Test("The first pass finds every repeated UID, whatever the filter's size, across the stretches of a split file")
    func filter() {
        var filter = UIDFilter(expectedUIDs: 1)
        let hashes = (0..<500).map { UIDFilter.hash("uid-\($0)") }
        #expect(hashes.filter { filter.insert($0) }.count < 5)  // few false repeats in a small filter
        #expect(hashes.allSatisfy { filter.insert($0) })  // every real one
        #expect(hashes.allSatisfy(filter.contains))
    }

    @Test("A UID hashes alike as a String, as bytes and as a slice; a backslash or a byte above ASCII at any place is found")
    func uidHashes() {
        let uids = ["", "a", "1234567", "12345678", "123456789", "series-0000000-f3c64af7@recurring.bench.streakcal.example", "caf\u{E9}"]
        var seen: Set<UInt64> = []
        for uid in uids {
            let bytes = Array(uid.utf8)
            let hash = UIDFilter.hash(uid)
            #expect(UIDFilter.hash(bytes: bytes) == hash)
            #expect(UIDFilter.hash(bytes: ([0x20] + bytes + [0x20])[1..<(bytes.count + 1)]) == hash)
            #expect(UIDFilter.hash(bytes: bytes.lazy.map { $0 }) == hash)  // not contiguous: copied first
            #expect(bytes.withUnsafeBytes { UIDFilter.hash(buffer: $0) } == hash)
            seen.insert(hash)
        }
        #expect(seen.count == uids.count)
        // Same bytes but for a zero at the end: the length is in the seed.
        #expect(UIDFilter.hash(bytes: [0x61]) != UIDFilter.hash(bytes: [0x61, 0]))
        for length in 0...20 {
            let plain = [UInt8](repeating: 0x61, count: length)
            #expect(!plain.withUnsafeBytes(UIDFilter.hasEscapeOrNonASCII))
            for place in 0..<length {
                for byte: UInt8 in [0x5C, 0x80, 0xC3, 0xFF] {
                    var marked = plain
                    marked[place] = byte
                    #expect(marked.withUnsafeBytes(UIDFilter.hasEscapeOrNonASCII), "\(length) \(place) \(byte)")
                }
                for byte: UInt8 in [0x00, 0x5B, 0x5D, 0x7F, 0x1C, 0x7C, 0x4C] {
                    var other = plain
                    other[place] = byte
                    #expect(!other.withUnsafeBytes(UIDFilter.hasEscapeOrNonASCII), "\(length) \(place) \(byte)")
                }
            }
        }
    }

    @Test("The filter grows with the events an input holds, up to 8 MB: a 1 GB line costs no more (gen-long-line.py)")
    func filterSize() {
        #expect(UIDFilter(expectedUIDs: 0).bitCount == UIDFilter.minimumBits)
        #expect(UIDFilter(expectedUIDs: 10_000).bitCount == 160_000)
        #expect(UIDFilter(expectedUIDs: 10_000_000).bitCount == UIDFilter.maximumBits)
        #expect(UIDFilter(expectedUIDs: .max).bitCount == UIDFilter.maximumBits)
        #expect(UIDFilter.maximumBits / 8 == 8 << 20)
        func expected(_ text: String, size: Int) -> Int {
            Array(text.utf8).withUnsafeBufferPointer { UIDFilter.expectedUIDs(inputSize: size, sample: $0) }
        }
        let events = "BEGIN:VCALENDAR\r\n" + (0..<100).map { "BEGIN:VEVENT\r\nUID:e\($0)\r\nEND:VEVENT\r\n" }.joined()
        #expect(expected(events, size: events.utf8.count) == 100)  // the whole input: counted
        #expect(expected(events, size: events.utf8.count * 1_000) == 125_000)  // a sample: in proportion, and a quarter more
        let series = (0..<10).map { "BEGIN:VEVENT\r\nUID:s\($0 / 5)\r\nEND:VEVENT\r\n" }.joined()
        #expect(expected(series, size: series.utf8.count * 10_000) == 25_000)  // a series and its overrides: one UID
        #expect(expected("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDESCRIPTION:" + String(repeating: "x", count: 1 << 16), size: 1 << 30)
            == (1 << 30) / 2_048)  // one long line: one UID per 2 KiB
        let lines = "X-UID:a\r\nuid:b\r\n UID:c\r\nUID;X-A=1:d\r\nUID:d\r\nUID:d\r\nUID:e"
        #expect(expected(lines, size: lines.utf8.count) == 3)  // "X-A=1:d", "d", "e": a rough count is enough
        // A `U` anywhere else is passed over, whatever comes before it; old Mac line ends count as LF does.
        let mixed = "UID:first\rSTATUS:TENTATIVE\rDURATION:PT1H\r\nRRULE:FREQ=WEEKLY;BYDAY=TU\nXUID:x\nUUID:y\rUID:second\rUID;A=U:third\nUID"
        #expect(expected(mixed, size: mixed.utf8.count) == 3)
        #expect(expected("UID:", size: 4) == 0 && expected("UID:x", size: 5) == 1 && expected("", size: 0) == 0)
        // Half a million distinct UIDs in a filter sized for them: about one in 2,000 taken for a
        // repeat; in the largest filter, next to none (at 1.75 million, about one in 10,000).
        for (expectedUIDs, limit) in [(500_000, 500), (10_000_000, 50)] {
            var filter = UIDFilter(expectedUIDs: expectedUIDs)
            var mistaken = 0
            for index in 0..<500_000 where filter.insert(UIDFilter.hash("uid-\(index)")) { mistaken += 1 }
            #expect(mistaken < limit, "\(expectedUIDs)")
        }
    }
}
