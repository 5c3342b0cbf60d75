import Foundation
@testable import ICalendar
import Testing

/// The session path (`ComponentParsing.parseSessionEvent`): events read from the cutter's bytes,
/// with plain values made into libical properties from their values alone, must read exactly as
/// the general path reads them through libical's parser.
@Suite("Session path")
struct SessionEventParsingTests {
    private static let fixturesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    private static var files: [String] {
        let fixtures = ((try? FileManager.default.contentsOfDirectory(atPath: fixturesFolder.path)) ?? [])
            .filter { $0.hasSuffix(".ics") }.sorted().map { fixturesFolder.appendingPathComponent($0).path }
        let corpus = fixturesFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let corpusFiles = (sharedCorpusWanted ? FileManager.default.enumerator(atPath: corpus.path)?.compactMap { $0 as? String } ?? [] : [])
            .filter { $0.hasSuffix(".ics") }.sorted().map { corpus.appendingPathComponent($0).path }
        return fixtures + corpusFiles
    }

    /// Everything a record says, lines included, as text to compare.
    private static func describe(_ record: EventRecord) -> String {
        func line(_ line: ContentLine?) -> String { line.map { "\($0.line)|\($0.name)|\($0.valueColumn ?? -1)|\($0.text)" } ?? "-" }
        return [
            "uid \(record.uid ?? "-")", "start \(String(describing: record.start))", "end \(String(describing: record.end))",
            "duration \(String(describing: record.duration))", "cancelled \(record.isCancelled)", "summary \(record.summary)",
            "categories \(record.categories)", "points \(record.points?.text ?? "-") \(line(record.points?.line))",
            "rules \(record.recurrenceRules) \(record.exceptionRules)", "rdates \(record.recurrenceDates.count)",
            "exdates \(record.exceptionDates)", "recurrence-id \(String(describing: record.recurrenceID)) \(record.isThisAndFuture)",
            "annotation \(record.isAnnotation)", "begin \(line(record.begin))", "start line \(line(record.startLine))",
            "end line \(line(record.endLine))", "duration line \(line(record.durationLine))",
            "recurrence line \(line(record.recurrenceLine))",
        ].joined(separator: "\n")
    }

    /// Reads every VEVENT of `bytes` both ways; returns how many took the session path.
    @discardableResult
    private static func compareBothWays(_ bytes: [UInt8], file: String, pointsProperty: String = "X-POINTS") -> (events: Int, sessionPath: Int) {
        var cutter = ComponentCutter(
            scanner: ContentLineScanner(bytes: bytes),
            eventProperties: ComponentParsing.sessionProperties(pointsProperty: pointsProperty), sinksPropertyLines: true)
        var events = 0
        var sessionPath = 0
        while let item = cutter.next() {
            guard case .component(let lines, _) = item, lines.name == "VEVENT" else { continue }
            events += 1
            var general = ComponentReader(pointsProperty: pointsProperty)
            let expected = ComponentParsing.parse(lines.materialized, reader: &general, reading: .sessionProperties)
            var own = ComponentReader(pointsProperty: pointsProperty)
            guard let record = ComponentParsing.parseSessionEvent(lines, reader: &own) else { continue }
            sessionPath += 1
            let place = "\(file):\(lines.begin.line)"
            guard case .event(let reference) = expected else {
                Issue.record("\(place): the session path read no event where the general path did")
                continue
            }
            #expect(describe(record) == describe(reference), "\(place)")
            #expect(own.diagnostics == general.diagnostics, "\(place)")
        }
        return (events, sessionPath)
    }

    @Test("Every fixture and corpus event the session path takes reads as through libical's parser")
    func fixturesAndCorpus() throws {
        var events = 0
        var sessionPath = 0
        for path in Self.files {
            guard let bytes = try? CalendarSource.file(path).read() else { continue }  // (Data(contentsOf:) leaks on Linux)
            let counts = Self.compareBothWays(bytes, file: path)
            events += counts.events
            sessionPath += counts.sessionPath
        }
        #expect(events > (sharedCorpusWanted ? 1_000 : 50))
        #expect(sessionPath > events / 2)
    }

    @Test("Plain and other forms of the date, duration and status lines read as through libical's parser", arguments: [
        "DTSTART:20250301T090000Z\nDTEND:20250301T100000Z",
        "DTSTART;TZID=Europe/Berlin:20250301T090000\nDURATION:PT45M",
        "dtstart;tzid=America/New_York:20250301T090000\ndtend;tzid=America/New_York:20250301T093000",
        "DTSTART;VALUE=DATE:20250301\nDTEND;VALUE=DATE:20250302",
        "DTSTART:20250301\nDURATION:P1D",
        "DTSTART;VALUE=DATE:20250301T090000\nDURATION:PT1H",
        "DTSTART;TZID=\"Europe/Berlin\":20250301T090000\nDURATION:PT1H",
        "DTSTART;TZID=W. Europe Standard Time:20250301T090000\nDURATION:PT1H",
        "DTSTART;TZID=Europe/Berlin;TZID=Asia/Tokyo:20250301T090000\nDURATION:PT1H",
        "DTSTART;X-FOO=bar:20250301T090000Z\nDURATION:PT1H",
        "DTSTART:2025030\nDURATION:PT1H",
        "DTSTART:20250301T250000Z\nDTEND:20250301T100000Z",
        "DTSTART:20250301T090000Z\nDURATION:PT",
        "DTSTART:20250301T090000Z\nDURATION:-P1W2DT3H",
        "DTSTART:20250301T090000Z\nDURATION:1H",
        "DTSTART:20250301T090000Z\nDURATION:PT1H\nSTATUS:cancelled",
        "DTSTART:20250301T090000Z\nDURATION:PT1H\nSTATUS:TENTATIVE-ISH",
        "DTSTART:20250301T090000Z\nDTSTART:20250302T090000Z\nDURATION:PT1H",
        "DTSTART:20250301T090000Z\nDURATION:PT1H\nRRULE:FREQ=DAILY;COUNT=3\nEXDATE:20250302T090000Z,20250303T090000Z",
        "DTSTART:20250301T090000Z\nDURATION:PT1H\nRECURRENCE-ID;RANGE=THISANDFUTURE:20250301T090000Z",
        "DTSTART:20250301T090000Z\nDURATION:PT1H\nRDATE;VALUE=PERIOD:20250305T090000Z/PT2H",
        "DTSTART:20250301T090000Z \nDURATION:PT1H",
        "DTSTART;TZID=\"W. Europe Standard Time\":20250301T090000\nDTEND;TZID=\"W. Europe Standard Time\":20250301T100000",
        "DTSTART;TZID=Pacific Standard Time:20250301T090000\nDTEND;TZID=Pacific Standard Time:20250301T100000",
        "DTSTART;TZID=\" Europe/Berlin\":20250301T090000\nDURATION:PT1H",
        "DTSTART;TZID=Europe/Berlin :20250301T090000\nDURATION:PT1H",
        "DTSTART;TZID=\"Office (UTC-03:00)\":20250301T090000\nDURATION:PT1H",
        "DTSTART;TZID=\"(UTC-05:00) Eastern Time (US & Canada)\":20250301T090000\nDTEND;TZID=\"(UTC-05:00) Eastern Time (US & Canada)\":20250301T100000",
        "DTSTART;TZID=\"A:B\";VALUE=DATE:20250301\nRECURRENCE-ID;TZID=\"A:B\":20250301T090000",
        "DTSTART;TZID=\"A,B:C\":20250301T090000\nDURATION:PT1H",
        "DTSTART;TZID=\":\":20250301T090000\nDURATION:PT1H",
        "DTSTART;TZID=\"Eu\"rope:20250301T090000\nDURATION:PT1H",
        "DTSTART;TZID=\"A;B\":20250301T090000\nDURATION:PT1H",
        "DTSTART;TZID=\"Europe/Berlin\";VALUE=DATE:20250301\nDURATION:P1D",
        "DTSTART;VALUE=\"DATE\":20250301\nDURATION:P1D",
        "DTSTART:20250301T090000Z\nRRULE:FREQ=WEEKLY;UNTIL=20250502T090000Z;INTERVAL=2;BYDAY=TH,FR;WKST=SU",
        "DTSTART:20250301T090000Z\nRRULE:FREQ=WEEKLY;BYDAY=XX",
        "DTSTART:20250301T090000Z\nRRULE:FREQ=WEEKLY;FOO=1",
        "DTSTART:20250301T090000Z\nRRULE:freq=daily;count=3",
        "DTSTART:20250301T090000Z\nRRULE:FREQ=MONTHLY;BYDAY=-1SU;BYSETPOS=+1",
        "DTSTART:20250301T090000Z\nRRULE;X-FOO=1:FREQ=DAILY;COUNT=2",
        "DTSTART:20250301T090000Z\nRRULE:FREQ=DAILY;COUNT=3\nEXRULE:FREQ=WEEKLY;COUNT=2",
        "DTSTART:20250301T090000Z\nRRULE:FREQ=DAILY;COUNT=3\nRRULE:FREQ=WEEKLY;COUNT=5",
        "DTSTART;TZID=Europe/Berlin:20250302T090000\nRECURRENCE-ID;TZID=Europe/Berlin:20250301T090000",
        "DTSTART;VALUE=DATE:20250302\nRECURRENCE-ID;VALUE=DATE:20250301",
        "DTSTART:20250302T090000Z\nRECURRENCE-ID:20250301T090000Z",
        "DTSTART:20250302T090000Z\nRECURRENCE-ID;TZID=\"W. Europe Standard Time\":20250301T090000",
        "DTSTART:20250302T090000Z\nRECURRENCE-ID:20250231T090000Z",
        "DTSTART:20250302T090000Z\nRECURRENCE-ID:2025-03-01",
        "DTSTART:20241231T235960Z\nDTEND:20250101T000060",
        "DTSTART:20230229T090000\nDURATION:PT1H",
        "DTSTART;VALUE=DATE:20240229\nDTEND;VALUE=DATE:20230229",
        "DTSTART:20250301T090000z\nDURATION:PT1H",
        "DTSTART;TZID=Europe/Berlin:20250301T090000Z\nDTEND;TZID=Europe/Berlin:20250301\nRECURRENCE-ID;TZID=Europe/Berlin:20250301T080000",
        "DTSTART:00000000T000000\nDURATION:PT1H",
        "DTSTART:2025030+T090000\nDURATION:PT1H",
        "DTSTART:+0250301T090000\nDURATION:PT1H",
        "DTSTART:20250301T24000\nDURATION:PT1H",
        "DTSTART:20250301T240000\nDTSTART:20250302T090000",
        "DTSTART:20250301T090000Z\nDURATION:+PT15M\nSTATUS:CANCELLED",
        "DTSTART:20250301T090000Z\nDURATION:-P1W\nSTATUS:Cancelled",
        "DTSTART:20250301T090000Z\nDURATION:P1W2D\nSTATUS:DELETED",
        "DTSTART:20250301T090000Z\nDURATION:PT1M1H\nSTATUS:CONFIRMED\nSTATUS:CANCELLED",
        "DTSTART:20250301T090000Z\nDURATION:P0D",
        "DTSTART:20250301T090000Z\nDURATION:P2DT",
        "DTSTART:20250301T090000Z\nDURATION:P999999999D",
        "DTSTART:20250301T090000Z\nDURATION:P1000000000D",
        "DTSTART:20250301T090000Z\nDURATION:P15DT5H0M20S\nDURATION:PT1H",
        "DTSTART:20250301T090000Z\nDURATION:pt1h",
    ])
    func lineForms(_ properties: String) throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:form@example.com
            SUMMARY:Scales\\, slowly
            X-POINTS:12
            \(properties)
            END:VEVENT
            END:VCALENDAR

            """
        let counts = Self.compareBothWays(Array(text.utf8), file: "forms.ics")
        #expect(counts.events == 1)
    }

    @Test("The plain forms take the session path; a parameter it does not know or a bad value does not")
    func plainFormsTakeTheSessionPath() {
        func takesSessionPath(_ properties: String) -> Bool {
            let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\n\(properties)\nEND:VEVENT\nEND:VCALENDAR\n"
            return Self.compareBothWays(Array(text.utf8), file: "forms.ics").sessionPath == 1
        }
        #expect(takesSessionPath("DTSTART;TZID=Europe/Berlin:20250301T090000\nDURATION:PT45M\nSTATUS:CONFIRMED"))
        #expect(takesSessionPath("DTSTART;VALUE=DATE:20250301\nDTEND;VALUE=DATE:20250302"))
        #expect(takesSessionPath("DTSTART:20250301T090000Z\nRRULE:FREQ=DAILY;COUNT=3"))  // through the parser
        #expect(!takesSessionPath("DTSTART:2025030\nDURATION:PT1H"))  // libical rejects it: the general path says where
        #expect(takesSessionPath("DTSTART:20250301T090000Z\nEXDATE:20250302T090000Z,20250303T090000Z"))  // read by StreakCal
    }

    @Test("Strict durations are the forms libical accepts as written", arguments: [
        ("PT45M", true), ("P1D", true), ("P1W", true), ("-PT15M", true), ("+PT15M", true), ("P0D", true), ("PT0S", true),
        ("P1DT2H3M4S", true), ("P15DT5H0M20S", true), ("P999999999D", true), ("-P1W", true),
        ("P1W2D", false), ("PT1M1H", false), ("PT", false), ("P", false), ("P2DT", false), ("P1H", false), ("PT1D", false),
        ("pt1h", false), ("P1000000000D", false), ("P1WT1H", false), ("PT1H2H", false), ("P1D1D", false), ("", false),
    ])
    func strictDurations(_ text: String, _ strict: Bool) {
        #expect(Array(text.utf8).withUnsafeBufferPointer(ComponentParsing.isStrictDuration) == strict)
    }

    @Test("Plain lines are made from their values alone: times with one TZID (spaced or quoted) or VALUE=DATE, rules without parameters")
    func plainLines() {
        let roles = ComponentParsing.sessionLineRoles(pointsProperty: "X-POINTS")
        let plain = [
            "DTSTART:20250301T090000Z", "DTEND;TZID=Europe/Berlin:20250301T100000", "DTSTART;VALUE=DATE:20250301",
            "DTSTART;TZID=W. Europe Standard Time:20250301T090000", "DTEND;TZID=\"Pacific Standard Time\":20250301T100000",
            "DTSTART;TZID=\"Office (UTC-03:00)\":20250301T090000", "DTEND;TZID=\"(UTC-05:00) Eastern Time (US & Canada)\":20250301T100000",
            "RECURRENCE-ID;TZID=\"W. Europe Standard Time\":20250301T090000", "RECURRENCE-ID;VALUE=DATE:20250301",
            "RRULE:FREQ=WEEKLY;UNTIL=20250502T090000Z;INTERVAL=2;BYDAY=TH,FR;WKST=SU", "EXRULE:FREQ=DAILY;COUNT=2",
            "DURATION:PT45M", "STATUS:CONFIRMED",
        ]
        let general = [
            "DTSTART;TZID=\" Europe/Berlin\":20250301T090000", "DTSTART;TZID=Europe/Berlin :20250301T090000",
            "DTSTART;TZID=Office (UTC-03:00):20250301T090000", "DTSTART;TZID=\"Eu\"rope:20250301T090000",
            "DTSTART;TZID=\"A;B\":20250301T090000", "DTSTART;TZID=\"A,B\":20250301T090000",
            "DTSTART;TZID=\"\":20250301T090000", "DTSTART;VALUE=\"DATE\":20250301", "DTSTART;X-FOO=bar:20250301T090000Z",
            "RECURRENCE-ID;RANGE=THISANDFUTURE:20250301T090000Z", "RRULE;X-FOO=1:FREQ=DAILY", "RRULE:FREQ=DAILY; COUNT=2",
            "RDATE:20250301T090000Z", "SUMMARY:Scales",
        ]
        for line in plain { #expect(ComponentParsing.hasPlainForm(line, roles: roles), "\(line)") }
        for line in general { #expect(!ComponentParsing.hasPlainForm(line, roles: roles), "\(line)") }
    }
}

@Suite("Raw lines")
struct RawLinesTests {
    @Test("A line is taken as printable ASCII exactly when every byte is 0x20 to 0x7E, wherever the other one stands")
    func printableASCII() {
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 31] {
            for position in 0..<max(length, 1) {
                for odd: UInt8 in [0x00, 0x09, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, 0x20, 0x7E, 0x41] {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    if length > 0 { bytes[position] = odd }
                    let expected = bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
                    #expect(bytes.withUnsafeBufferPointer(RawLines.isPrintableASCII) == expected, "\(length) \(position) \(odd)")
                }
            }
        }
    }

    @Test("Lines appended come back with their bytes, numbers and encodings")
    func lines() {
        var lines = RawLines()
        #expect(Array("SUMMARY:Scales".utf8).withUnsafeBufferPointer { lines.appendIfPrintableASCII($0, line: 7) })
        #expect(!Array("SUMMARY:Übung".utf8).withUnsafeBufferPointer { lines.appendIfPrintableASCII($0, line: 8) })
        lines.append(Array("SUMMARY:Übung".utf8), line: 70_000, isLatin1: false)
        lines.append([0x53, 0x3A, 0xE9], line: 1 << 24, isLatin1: true)
        let read = lines.withLines { $0.map { (String(decoding: $0.bytes, as: UTF8.self), $0.line, $0.isLatin1) } }
        #expect(read.map(\.0) == ["SUMMARY:Scales", "SUMMARY:Übung", "S:\u{FFFD}"])
        #expect(read.map(\.1) == [7, 70_000, 1 << 24])
        #expect(read.map(\.2) == [false, false, true])
    }

    @Test("Lines come back whole however the buffer grows: many short ones, empty ones, one over 64 KiB", arguments: [nil, 0, 1_000, 1 << 20])
    func linesAcrossGrowth(roomHint: Int?) {
        var lines = roomHint.map { RawLines(roomHint: $0) } ?? RawLines()
        var expected: [(text: [UInt8], line: Int)] = []
        for index in 0..<500 {
            // Lengths 0 to 96 cross the first room (320 bytes) and every doubling after it.
            let text = [UInt8](repeating: UInt8(0x41 + index % 26), count: index % 97)
            lines.append(text, line: index + 1, isLatin1: false)
            expected.append((text, index + 1))
            if index == 250 {
                let long = (0..<70_000).map { UInt8(0x30 + $0 % 10) }
                lines.append(long, line: 9_999, isLatin1: true)
                expected.append((long, 9_999))
            }
        }
        #expect(!lines.isEmpty)
        #expect(RawLines().isEmpty)
        let read = lines.withLines { $0.map { (Array($0.bytes), $0.line, $0.isLatin1) } }
        #expect(read.count == expected.count)
        #expect(read.map(\.0) == expected.map(\.text))
        #expect(read.map(\.1) == expected.map(\.line))
        #expect(read.map(\.2) == expected.map { $0.line == 9_999 })
        // The bytes the lines take: each line's and a header of nine bytes.
        #expect(lines.byteCount == expected.reduce(0) { $0 + $1.text.count + 9 })
        // A copy keeps its lines when the original goes on growing.
        let copy = lines
        lines.append(Array("X:1".utf8), line: 1, isLatin1: false)
        #expect(copy.withLines { Array($0).count } == expected.count)
        #expect(lines.withLines { Array($0).count } == expected.count + 1)
    }
}

@Suite("Recent strings")
struct RecentStringsTests {
    /// `string(for:)` of `text`'s bytes, counting the strings `make` made.
    private func string(_ text: String, in recent: inout ComponentParsing.RecentStrings, made: inout Int) -> String {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            recent.string(for: bytes) { made += 1; return TextValue.decode(bytes: $0) }
        }
    }

    @Test("A string is made once for the same bytes, while it is among the last kept")
    func reuse() {
        var recent = ComponentParsing.RecentStrings(capacity: 2)
        var made = 0
        let a = "series-0000001@recurring.example", b = "series-0000002@recurring.example", c = "America/New_York"
        #expect(string(a, in: &recent, made: &made) == a)
        #expect(string(a, in: &recent, made: &made) == a)
        #expect(made == 1)
        #expect(string(b, in: &recent, made: &made) == b)
        #expect(string(c, in: &recent, made: &made) == c)
        #expect(made == 3)
        #expect(string(a, in: &recent, made: &made) == a)  // the oldest went when c came
        #expect(made == 4)
        #expect(string(c, in: &recent, made: &made) == c)
        #expect(made == 4)
    }

    @Test("Strings other than their bytes, and short ones, are made every time")
    func notKept() {
        var recent = ComponentParsing.RecentStrings(capacity: 4)
        var made = 0
        for text in ["uid\\,with-escapes@example.org", "  uid-with-spaces@example.org ", "Europe/Berlin"] {
            let expected = Array(text.utf8).withUnsafeBufferPointer { TextValue.decode(bytes: $0) }
            #expect(string(text, in: &recent, made: &made) == expected)
            #expect(string(text, in: &recent, made: &made) == expected)
        }
        #expect(made == 6)
    }
}

@Suite("Date list parameters")
struct DateListParameterTests {
    @Test("The TZID read from the bytes is the one the parameters give", arguments: [
        "EXDATE;TZID=Europe/Berlin:20240101T090000", "EXDATE;tzid=Europe/Berlin:20240101T090000",
        "RDATE;VALUE=DATE-TIME;TZID=\"America/New_York\":20240101T090000", "EXDATE:20240101T090000Z",
        "EXDATE;TZID=\"A;B:C\";X-Y=1:20240101T090000", "EXDATE;X-TZID=1;TZID=Asia/Tokyo:20240101T090000",
        "EXDATE;TZID=:20240101T090000", "EXDATE;TZID:20240101T090000", "EXDATE;TZIDX=Asia/Tokyo:20240101T090000",
        "EXDATE;TZID=Europe/Berlin;TZID=Asia/Tokyo:20240101T090000", "EXDATE;TZİD=Asia/Tokyo:20240101T090000",
        "EXDATE;tzıd=Asia/Tokyo:20240101T090000", "EXDATE;TZID=Zürich:20240101T090000", "EXDATE;;TZID=UTC;:2024",
    ])
    func timeZoneID(text: String) throws {
        let colon = try #require(text.utf8.lastIndex(of: UInt8(ascii: ":")))
        let column = text.utf8.distance(from: text.utf8.startIndex, to: colon) + 2
        let name = String(text.prefix { $0 != ";" && $0 != ":" })
        let line = ContentLine(text: text, line: 1, name: name, valueColumn: column)
        #expect(DateListValue.timeZoneID(of: line) == DateListValue.parameters(of: line).first { $0.name == "TZID" }?.value)
    }
}

@Suite("Property name table")
struct PropertyNameTableTests {
    @Test("Name bytes are the ASCII letters and digits and -, nothing else of the 256")
    func nameBytes() {
        let expected = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-".utf8))
        let named = (0...255).map(UInt8.init).filter(ContentLineScanner.isNameByte)
        #expect(Set(named) == expected)
        #expect(named.count == 63)
    }

    @Test("Names match in any case, short and long; nothing else matches")
    func names() {
        let table = PropertyNameTable(
            ["DTSTART", "dtstamp", "X-POINTS", "SUMMARY", "X-STREAKCAL-ANNOTATION", "X-16-BYTES-NAME1", "A"].enumerated().map { ($1, $0) })
        func value(_ name: String) -> Int? {
            let bytes = Array(name.utf8)
            return bytes.withUnsafeBufferPointer { table.value(of: $0, in: 0..<$0.count) }
        }
        #expect(value("DTSTART") == 0)
        #expect(value("dtStart") == 0)
        #expect(value("DTSTAMP") == 1)
        #expect(value("x-points") == 2)
        #expect(value("X-POINTs") == 2)
        #expect(value("Summary") == 3)
        #expect(value("x-streakcal-annotation") == 4)
        #expect(value("X-16-BYTES-NAME1") == 5)
        #expect(value("x-16-bytes-name1") == 5)
        #expect(value("a") == 6)
        for other in ["DTSTARS", "DTSTART ", "X_POINTS", "X-POINTS:", "SUMMARX", "", "B", "X-16-BYTES-NAME2", "x-streakcal-annotatioN2"] {
            #expect(value(other) == nil, "\(other)")
        }
        // Only letters have a case: `@` is not a capital back quote.
        let odd = PropertyNameTable([("X@Y", 1)])
        let backQuote = Array("X`Y".utf8)
        #expect(backQuote.withUnsafeBufferPointer { odd.value(of: $0, in: 0..<$0.count) } == nil)
        let atSign = Array("x@y".utf8)
        #expect(atSign.withUnsafeBufferPointer { odd.value(of: $0, in: 0..<$0.count) } == 1)
    }

    @Test("A name inside a longer line matches as one that is the whole buffer does")
    func namesInLines() {
        let names = ["A", "UID", "DTSTART", "DTSTAMP", "X-POINTS", "DESCRIPTION", "X-16-BYTES-NAME1", "X-MICROSOFT-CDO-BUSYSTATUS"]
        let table = PropertyNameTable(names.enumerated().map { ($1, $0) })
        // Every name, in three cases, then each one changed at one byte, at the start, in the middle
        // and near the end of a line that goes on past the 16 bytes a key loads.
        var candidates: [String] = []
        for name in names {
            candidates += [name, name.lowercased(), String(name.enumerated().map { $0.offset.isMultiple(of: 2) ? Character($0.element.lowercased()) : $0.element })]
            for position in name.indices {
                for replacement in ["@", "`", "{", "_", "\u{E9}"] {
                    var changed = name
                    changed.replaceSubrange(position...position, with: replacement)
                    candidates.append(changed)
                }
            }
            candidates += [String(name.dropLast()), name + "S"]
        }
        for candidate in candidates {
            let expected = names.firstIndex { $0 == candidate.uppercased() && candidate.utf8.allSatisfy { $0 < 0x80 } }
            for (prefix, suffix) in [("", ""), ("", ";TZID=Europe/Berlin:20240101T090000"), ("BEGIN:VEVENT\r\n", ":x"), ("\r\n", String(repeating: "y", count: 40))] {
                let line = Array((prefix + candidate + suffix).utf8)
                let start = prefix.utf8.count
                let found = line.withUnsafeBufferPointer { table.value(of: $0, in: start..<(start + candidate.utf8.count)) }
                #expect(found == expected, "\(prefix.debugDescription) \(candidate) \(suffix.prefix(10))")
            }
        }
    }
}
