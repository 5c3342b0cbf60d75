@testable import ICalendar
import Streaks
import Testing

/// A seeded generator, so that a failure names the input it came from.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Random text of `length` characters: ASCII (with the characters TEXT escapes), two-, three- and
/// four-byte UTF-8 and combining marks, never a space at either end (TEXT values are trimmed).
private func randomText(length: Int, using generator: inout SplitMix64) -> String {
    let pools: [[Unicode.Scalar]] = [
        Array("abcXYZ0189-_.:/@".unicodeScalars), Array(";,\\\"".unicodeScalars),
        Array("éßøÅ€ĳ".unicodeScalars), Array("日本語中文한국".unicodeScalars),
        ["\u{1F600}", "\u{1F3B9}", "\u{10348}"], ["\u{0301}", "\u{200D}"],
    ]
    var scalars = String.UnicodeScalarView()
    for index in 0..<length {
        let pool = pools[Int.random(in: 0..<pools.count, using: &generator)]
        var scalar = pool[Int.random(in: 0..<pool.count, using: &generator)]
        if index == 0, scalar == "\u{0301}" || scalar == "\u{200D}" { scalar = "a" }
        scalars.append(scalar)
    }
    return String(scalars)
}

/// The content lines of written text, as StreakCal's scanner reads them back.
private func reread(_ text: String) -> [ContentLine] {
    var scanner = ContentLineScanner(bytes: Array(text.utf8))
    var lines: [ContentLine] = []
    while let line = scanner.next() { lines.append(line) }
    return lines
}

private func write(_ lines: [String], adding events: [AllDayEvent] = []) -> CalendarWriter.Output {
    let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    return try! CalendarWriter(ownedPropertyPrefix: "X-STREAKCAL-", annotationMarker: "X-STREAKCAL-ANNOTATION")
        .write([CalendarSource.bytes(Array(text.utf8), name: "input.ics")], adding: events, timestamp: 0)
}

@Suite("Writing calendars")
struct CalendarWriterTests {
    @Test("annotate-fold-73.ics: values of every length from 0 to 400, in random UTF-8, come back the same, and so do the lines after them", arguments: [1, 2, 3])
    func foldingRoundTrip(seed: UInt64) {
        var generator = SplitMix64(state: seed)
        for length in 0...400 {
            let summary = randomText(length: length, using: &generator)
            let uid = randomText(length: max(1, length), using: &generator)
            let lines = [
                "BEGIN:VEVENT", "UID:" + LineCheck.escapedText(uid), "SUMMARY:" + LineCheck.escapedText(summary),
                "DTSTART:20240305T180000Z", "SEQUENCE:3", "RECURRENCE-ID:20240305T180000Z", "END:VEVENT",
            ]
            let output = write(lines)
            let written = Array(output.text.utf8)
            // Every physical line is CRLF-ended, at most 75 octets, and valid UTF-8 on its own.
            var lineStart = 0
            for index in written.indices where written[index] == 0x0A {
                #expect(index > 0 && written[index - 1] == 0x0D)
                let line = Array(written[lineStart..<(index - 1)])
                #expect(line.count <= 75)
                #expect(String(validating: line, as: UTF8.self) != nil, "length \(length): a fold splits a character")
                lineStart = index + 1
            }
            let back = reread(output.text)
            func value(_ name: String) -> String? { back.first { $0.name == name }.map { TextValue.decode($0.value) } }
            #expect(value("UID") == uid.trimmingSpaces, "length \(length)")
            #expect(value("SUMMARY") == summary.trimmingSpaces, "length \(length)")
            #expect(value("DTSTART") == "20240305T180000Z", "length \(length)")
            #expect(value("SEQUENCE") == "3", "length \(length)")
            #expect(value("RECURRENCE-ID") == "20240305T180000Z", "length \(length)")
            // An empty SUMMARY is valid TEXT (RFC 5545 3.3.11) and is kept; libical's reader drops it with an X-LIC-ERROR.
            #expect(Libical.parseErrors(in: output.text).filter { !(length == 0 && $0.hasPrefix("No value for SUMMARY")) } == [])
        }
    }

    @Test("The 73-character Apple UID of the reproducer keeps its DTSTART")
    func appleUID() {
        let uid = "97199ED3-78FF-43FD-A77D-A524A668853F-0D0ECF56-3A6B-459A-B908-4D534E88799A"
        let output = write(["BEGIN:VEVENT", "UID:" + uid, "DTSTART:20240305T180000Z", "DTEND:20240305T184000Z", "X-POINTS:100", "END:VEVENT"])
        #expect(output.text.contains("UID:97199ED3-78FF-43FD-A77D-A524A668853F-0D0ECF56-3A6B-459A-B908-4D534E8879\r\n 9A\r\nDTSTART:20240305T180000Z\r\n"))
        let sessions = SessionImporter(expansion: RecurrenceExpansion(through: day("2024-12-31")))
            .importText(output.text).sessions
        #expect(sessions.map(\.id) == [uid])
        #expect(sessions.map(\.start) == [.instant(secondsSince1970: utc(2024, 3, 5, 18))])
    }

    @Test("rdate-over-500-values-dropped.ics: every RDATE value is written, and read back")
    func longValueList() {
        let values = (0..<1_200).map { hour in
            SessionResolver.recurrenceIDText(LocalDateTime(secondsSince1970: utc(2000, 1, 1) + Int64(hour) * 3600), isDate: false, isUTC: true)
        }
        let output = write(["BEGIN:VEVENT", "UID:a", "DTSTART:20000101T000000Z", "DURATION:PT1M", "RDATE:" + values.joined(separator: ","),
                            "X-POINTS:10", "END:VEVENT"])
        let written = reread(output.text).filter { $0.name == "RDATE" }.flatMap { $0.value.split(separator: ",").map(String.init) }
        #expect(written == values)
        let sessions = SessionImporter(expansion: RecurrenceExpansion(from: day("2000-01-01"), through: day("2000-03-31")))
            .importText(output.text).sessions
        #expect(sessions.count == 1_200)
        #expect(output.diagnostics.isEmpty)
    }

    @Test("X- and unknown components are kept, at any level, with their properties")
    func unknownComponents() {
        let output = write([
            "BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z", "BEGIN:X-FOO", "X-A:1", "END:X-FOO",
            "BEGIN:VLOCATION", "NAME:Hall", "END:VLOCATION", "END:VEVENT", "BEGIN:X-TOP", "X-B:2", "END:X-TOP",
        ])
        #expect(output.text.contains("BEGIN:X-FOO\r\nX-A:1\r\nEND:X-FOO\r\nBEGIN:VLOCATION\r\nNAME:Hall\r\nEND:VLOCATION\r\nEND:VEVENT\r\n"))
        #expect(output.text.contains("BEGIN:X-TOP\r\nX-B:2\r\nEND:X-TOP\r\n"))
    }

    @Test("A long text line is copied whole without libical; a long line of another kind is left out with a warning")
    func longLines() {
        let description = String(repeating: "Ab, ", count: 40_000)
        let rule = "RRULE:FREQ=DAILY;BYSECOND=" + Array(repeating: "1", count: 40_000).joined(separator: ",")
        let output = write(["BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z", "DESCRIPTION;LANGUAGE=en:" + description, rule, "END:VEVENT"])
        let back = reread(output.text)
        #expect(back.first { $0.name == "DESCRIPTION" }.map { TextValue.decode($0.value) } == description.trimmingSpaces)
        #expect(back.first { $0.name == "DESCRIPTION" }?.text.hasPrefix("DESCRIPTION;LANGUAGE=en:Ab\\, ") == true)
        #expect(!back.contains { $0.name == "RRULE" })
        #expect(output.diagnostics.map(\.message) == ["the RRULE line is \(rule.utf8.count) octets long; not copied"])
    }

    @Test("An event whose DTSTART, DTEND or RECURRENCE-ID names no real date is left out whole: written without the line, it would count")
    func impossibleEvent() {
        let output = write(["BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z", "DTEND:20240230T100000Z", "X-POINTS:5", "END:VEVENT",
                            "BEGIN:VEVENT", "UID:b", "DTSTART:20240102T090000Z", "X-POINTS:7", "END:VEVENT"])
        #expect(!output.text.contains("UID:a"))
        #expect(output.text.contains("UID:b"))
        #expect(output.diagnostics.map(\.message) == ["DTEND names a date or time that does not exist, so the event counts for nothing; it is not copied"])
    }

    @Test("malformed-datetime-accepted.ics: a DTSTART libical would read as something else leaves its event out, as the import skips it")
    func malformedStart() {
        let output = write(["BEGIN:VEVENT", "UID:a", "DTSTART:20240701T02000Z", "X-POINTS:5", "END:VEVENT",
                            "BEGIN:VEVENT", "UID:b", "DTSTART:20240702T090000Z", "X-POINTS:7", "END:VEVENT"])
        #expect(!output.text.contains("UID:a"))
        #expect(output.text.contains("UID:b"))
        #expect(output.diagnostics.map(\.message) == ["DTSTART names a date or time that does not exist, so the event counts for nothing; it is not copied"])
    }

    @Test("A flood of bad lines is cut to 100 of each kind per input, with a count of the rest")
    func diagnosticFlood() {
        let lines = ["BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z"] + Array(repeating: "DTSTAMP:20240230T100000Z", count: 500) + ["END:VEVENT"]
        let output = write(lines)
        #expect(output.diagnostics.count == 101)
        #expect(output.diagnostics.last?.message == "400 more libical diagnostics in this file are not shown (500 in all)")
    }

    @Test("segv-nested-valarm-60k.ics: components nested deeper than 32 are skipped with one error; the rest is written")
    func deepNesting() {
        let depth = 60_000
        let lines = ["BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z", "X-POINTS:100"]
            + Array(repeating: "BEGIN:VALARM", count: depth) + Array(repeating: "END:VALARM", count: depth)
            + ["END:VEVENT", "BEGIN:VEVENT", "UID:b", "DTSTART:20240102T090000Z", "END:VEVENT"]
        let output = write(lines)
        #expect(output.text.components(separatedBy: "BEGIN:VALARM").count - 1 == ComponentCutter.maximumDepth - 1)
        #expect(output.text.contains("UID:b\r\n"))
        #expect(output.diagnostics.map(\.message) == ["BEGIN:VALARM is nested deeper than 32 components; it and what it holds are skipped"])
        let unclosed = write(["BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z"] + Array(repeating: "BEGIN:VALARM", count: 100_000)
                             + ["BEGIN:VEVENT", "UID:b", "DTSTART:20240102T090000Z", "END:VEVENT"])
        #expect(unclosed.text.contains("UID:b\r\n"))
        let sessions = SessionImporter(expansion: RecurrenceExpansion(through: day("2024-12-31")))
            .importText((["BEGIN:VCALENDAR"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n")).sessions
        #expect(sessions.map(\.id) == ["a", "b"])
    }

    /// TEXT values with every kind of backslash (RFC 5545 3.3.11 allows `\\`, `\;`, `\,`, `\n`, `\N`),
    /// spaces, commas and non-ASCII text, as written in an input.
    static let trickyTextValues = [
        "run\\", "q\\x", "s\\x\\qz", "a\\:b", "a\\\"b", "a\\ b", "tab\\\tz", "a\\\\b", "a\\;b\\,c", "a\\nb\\Nc",
        "  spaced  ", "a,b", "a\\,b", "a\\,b,c", "\\\\\\", "é\\é", "日本\\語", "end\\\\", "x\\\\\\", "1\\x", "Meeting\\, John,Work",
        " a , b ", "\\\\n",
    ]

    @Test("annotate-rewrites-bad-escapes.sh: every TEXT value reads in the copy as StreakCal reads it in the input", arguments: trickyTextValues)
    func textReadsAsInInput(_ value: String) throws {
        let properties = ["UID", "SUMMARY", "COMMENT", "X-POINTS", "X-NOTE", "CATEGORIES"]
        let output = write(["BEGIN:VEVENT", "DTSTART:20240305T180000Z"] + properties.map { $0 + ":" + value } + ["END:VEVENT"])
        let back = reread(output.text)
        for name in properties {
            let written = back.filter { $0.name == name }
            if name == "CATEGORIES" {
                #expect(written.flatMap { TextValue.decodeList($0.value) }.filter { !$0.isEmpty }
                        == TextValue.decodeList(Substring(value)).filter { !$0.isEmpty }, "\(name) of \(value)")
            } else {
                #expect(written.count == 1, "\(name) of \(value)")
                #expect(written.first.map { TextValue.decode($0.value) } == TextValue.decode(Substring(value)), "\(name) of \(value)")
            }
        }
        #expect(Libical.parseErrors(in: output.text) == [])
        // Each bad escape is said once per line, where it is.
        let backslash = value.unicodeScalars.firstIndex(of: "\\")
        let bad = value.unicodeScalars.indices.contains { index in
            guard value.unicodeScalars[index] == "\\" else { return false }
            let before = value.unicodeScalars[..<index].reversed().prefix { $0 == "\\" }.count
            guard before % 2 == 0 else { return false }
            let next = value.unicodeScalars.index(after: index)
            return next == value.unicodeScalars.endIndex || !"\\;,nN".unicodeScalars.contains(value.unicodeScalars[next])
        }
        let escapeWarnings = output.diagnostics.filter { $0.message.contains("RFC 5545 (3.3.11)") }
        #expect(escapeWarnings.count == (bad ? properties.count : 0), "\(value): \(escapeWarnings.map(\.message))")
        if bad, let backslash, let uid = escapeWarnings.first(where: { $0.message.hasPrefix("UID") }) {
            #expect(uid.location.line == 6)
            #expect(uid.location.column >= 5 + value.unicodeScalars.distance(from: value.unicodeScalars.startIndex, to: backslash))
        }
    }

    @Test("The reproducer's bad escapes: written escaped, said with what was done")
    func reproducerEscapes() {
        let output = write([
            "BEGIN:VEVENT", "UID:run\\", "DTSTART:20240701T060000Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:q\\x", "DTSTART:20240703T060000Z", "SUMMARY:s\\x\\qz", "END:VEVENT",
        ])
        #expect(output.text.contains("UID:run\\\\\r\n"))
        #expect(output.text.contains("UID:q\\\\x\r\n"))
        #expect(output.text.contains("SUMMARY:s\\\\x\\\\qz\r\n"))
        #expect(output.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" } == [
            "5:8: UID ends in a lone backslash, which RFC 5545 (3.3.11) does not allow: StreakCal reads it as a backslash, and the copy is written to read so (\\\\)",
            "9:6: UID has \\x, which is no escape of RFC 5545 (3.3.11): StreakCal reads it as a backslash and x, and the copy is written to read so (\\\\x)",
            "11:10: SUMMARY has \\x, which is no escape of RFC 5545 (3.3.11): StreakCal reads it as a backslash and x, and the copy is written to read so (\\\\x)",
        ])
    }

    @Test("Valid escapes libical reads as StreakCal does are written as libical writes them; CATEGORIES keep their escaped commas")
    func validEscapes() {
        let output = write([
            "BEGIN:VEVENT", "UID:a", "DTSTART:20240701T060000Z", "SUMMARY:a\\;b\\,c\\Nd", "CATEGORIES:d,e", "CATEGORIES:Meeting\\, John,Work",
            "X-FLOAT;VALUE=FLOAT:10.35", "END:VEVENT",
        ])
        #expect(output.text.contains("SUMMARY:a\\;b\\,c\\nd\r\nCATEGORIES:d\r\nCATEGORIES:e\r\nCATEGORIES:Meeting\\, John,Work\r\n"))
        // A value libical reads as another type than TEXT is written as libical writes it.
        #expect(output.text.contains("X-FLOAT;VALUE=FLOAT:10.350000\r\n"))
        #expect(output.diagnostics.isEmpty)
    }

    @Test("A long line: TEXT written from StreakCal's reading, value by value for CATEGORIES; an X- value as written")
    func longTextForms() {
        let many = String(repeating: "a\\,b,", count: 20_000)
        let note = String(repeating: "x\\y;", count: 20_000)
        let output = write(["BEGIN:VEVENT", "UID:a", "DTSTART:20240701T060000Z", "CATEGORIES:" + many + "q\\", "X-NOTE:" + note + "\u{01}", "END:VEVENT"])
        let back = reread(output.text)
        let categories = back.first { $0.name == "CATEGORIES" }
        #expect(categories.map { TextValue.decodeList($0.value) } == Array(repeating: "a,b", count: 20_000) + ["q\\"])
        #expect(back.first { $0.name == "X-NOTE" }?.value == Substring(note + "\u{FFFD}"))
        #expect(output.diagnostics.map(\.message) == [
            "CATEGORIES ends in a lone backslash, which RFC 5545 (3.3.11) does not allow: StreakCal reads it as a backslash, and the copy is written to read so (\\\\)",
            "X-NOTE has control characters, which iCalendar does not allow; they are written as U+FFFD",
        ])
    }

    @Test("Folding counts octets and never splits a character", arguments: [
        (String(repeating: "a", count: 75), [75]),
        (String(repeating: "a", count: 76), [75, 2]),
        ("S:" + String(repeating: "é", count: 40), [74, 9]),
        (String(repeating: "😀", count: 19), [72, 5]),
    ])
    func folding(line: String, lengths: [Int]) {
        var text = FoldedText()
        text.append(line: line)
        #expect(text.text.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast().map(\.utf8.count) == lengths)
    }
}
