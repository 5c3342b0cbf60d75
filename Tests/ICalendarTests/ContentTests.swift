import ICalendar
import Streaks
import Testing
import FixedClock

@Suite("Encodings and line endings")
struct EncodingTests {
    @Test("UTF-8 with BOM, UTF-16 LE and BE with BOM: the same session, no diagnostic", arguments: [
        "encoding-utf8-bom.ics", "encoding-utf16le-bom.ics", "encoding-utf16be-bom.ics",
    ])
    func unicode(_ name: String) throws {
        let result = try importFixture(name)
        #expect(result.sessions.map(\.summary) == ["Café crème – naïve résumé"])
        #expect(result.sessions.map(\.points) == [100])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("Latin-1: read byte for character, with one warning on the first such line")
    func latin1() throws {
        let result = try importFixture("encoding-latin1.ics")
        #expect(result.sessions.first?.summary.hasPrefix("Café crème") == true)
        #expect(result.sessions.first?.summary.hasSuffix("naïve résumé") == true)
        #expect(result.diagnosticSummary == ["8:warning:encoding"])
    }

    @Test("LF and CR line endings", arguments: ["line-endings-lf.ics", "line-endings-cr.ics"])
    func lineEndings(_ name: String) throws {
        let result = try importFixture(name)
        #expect(result.sessions.map(\.id) == ["enc-1"])
        #expect(result.sessions.first?.source?.line == 4)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("Mixed line endings count physical lines right")
    func mixedEndings() {
        let text = "BEGIN:VCALENDAR\rBEGIN:VEVENT\nUID:x\r\nDTSTART:2024\r\n 0301T090000Z\rX-POINTS:zz\nEND:VEVENT\r\nEND:VCALENDAR"
        let result = SessionImporter(expansion: testExpansion).importText(text, name: "mixed.ics")
        #expect(result.sessions.first?.source?.line == 2)
        #expect(result.diagnosticSummary == ["6:warning:points"])
    }

    @Test("NUL bytes are removed with a warning")
    func nulBytes() {
        let bytes = Array("BEGIN:VEVENT\r\nUID:n\u{0}ul\r\nDTSTART:20240301T090000Z\r\nX-POINTS:5\r\nEND:VEVENT\r\n".utf8)
        let result = SessionImporter(expansion: testExpansion).importBytes(bytes, name: "nul.ics")
        #expect(result.sessions.map(\.id) == ["nul"])
        #expect(result.diagnostics.map(\.code) == [.structure, .encoding])
    }
}

@Suite("Unfolding")
struct UnfoldingTests {
    @Test("Space and tab folds, a fold inside a UTF-8 character, a fold without its space")
    func folds() throws {
        let result = try importFixture("folding.ics")
        let session = try #require(result.sessions.first)
        #expect(session.start == .instant(secondsSince1970: utc(2024, 3, 1, 9)))
        #expect(session.end == .instant(secondsSince1970: utc(2024, 3, 1, 10)))
        #expect(session.summary == "Évènement très long 🏃 qui est plié")
        #expect(session.points == 100)
        #expect(result.diagnosticSummary == ["13:warning:malformed-line"])
    }

    @Test("A continuation line with nothing before it is reported and ignored")
    func orphanContinuation() {
        let result = importLines([" orphan", "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z", "X-POINTS:1", "END:VEVENT"])
        #expect(result.sessions.count == 1)
        #expect(result.diagnosticSummary == ["1:warning:malformed-line", "2:note:structure"])
    }
}

@Suite("Structure")
struct StructureTests {
    @Test("Several VCALENDARs in one file are all read")
    func severalCalendars() throws {
        let result = try importFixture("several-vcalendars.ics")
        #expect(result.sessions.map(\.id) == ["cal1-a", "cal2-a", "cal2-b"])
        #expect(result.diagnosticSummary == ["12:note:structure"])
    }

    @Test("A bare VEVENT without VCALENDAR")
    func bareEvent() throws {
        let result = try importFixture("bare-vevent.ics")
        #expect(result.sessions.map(\.points) == [45])
        #expect(result.diagnosticSummary == ["1:note:structure"])
    }

    @Test("Missing END lines: every event is kept, each gap reported where it is")
    func missingEnds() throws {
        let result = try importFixture("missing-end-lines.ics")
        #expect(result.sessions.map(\.id) == ["missing-end-1", "missing-end-2", "missing-end-3"])
        #expect(result.sessions.map(\.points) == [10, 20, 30])
        #expect(result.diagnosticSummary == [
            "4:warning:structure", "15:warning:structure", "16:warning:structure", "19:warning:structure",
        ])
    }

    @Test("Stray END lines and content outside components are reported, not fatal")
    func strayLines() {
        let result = importLines([
            "PRODID:outside", "END:VTODO", "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z",
            "X-POINTS:1", "END:VALARM", "END:VEVENT", "END:VCALENDAR", "END:VCALENDAR",
        ])
        #expect(result.sessions.map(\.id) == ["a"])
        #expect(result.diagnosticSummary == [
            "1:warning:structure", "2:warning:structure", "8:warning:structure", "11:warning:structure",
        ])
    }

    @Test("An empty or blank input gives no sessions and one warning; an empty VCALENDAR is no problem")
    func empty() {
        for text in ["", "\r\n\r\n", "\n"] {
            let result = SessionImporter(expansion: testExpansion).importText(text, name: "empty.ics")
            #expect(result.sessions.isEmpty)
            #expect(result.diagnostics.map(\.description) == ["empty.ics:1:1: warning: the input is empty: it holds no calendar"])
            #expect(result.diagnostics.map(\.code) == [.emptyInput])
        }
        #expect(SessionImporter(expansion: testExpansion).importText("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n").diagnostics.isEmpty)
    }

    @Test("Among several inputs each empty one is named, whole or streamed; the others are read")
    func emptyAmongSeveral() async throws {
        let sources: [CalendarSource] = [
            .string("", name: "a.ics"),
            .string("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20240301T090000Z\r\nX-POINTS:5\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", name: "b.ics"),
            .string("\r\n", name: "c.ics"),
        ]
        let expected = ["a.ics:1:1: warning: the input is empty: it holds no calendar", "c.ics:1:1: warning: the input is empty: it holds no calendar"]
        let whole = try await SessionImporter(expansion: testExpansion).importSessions(from: sources)
        #expect(whole.sessions.map(\.id) == ["x"])
        #expect(whole.diagnostics.map(\.description) == expected)
        var streamed: [Diagnostic] = []
        for try await batch in SessionImporter(expansion: testExpansion).sessionBatches(from: sources) { streamed += batch.diagnostics }
        #expect(streamed.map(\.description) == expected)
        let allEmpty = try await SessionImporter(expansion: testExpansion).importSessions(from: [.string("", name: "a.ics"), .string("", name: "b.ics")])
        #expect(allEmpty.diagnostics.map(\.description) == [
            "a.ics:1:1: warning: the input is empty: it holds no calendar", "b.ics:1:1: warning: the input is empty: it holds no calendar",
        ])
    }
}

@Suite("Diagnostics")
struct DiagnosticTests {
    @Test("libical's X-LIC-ERRORs and our own checks carry the right line and column")
    func locations() throws {
        let result = try importFixture("bad-properties.ics")
        let expected = [
            "7:7:warning:libical", "8:1:warning:libical", "9:10:warning:points", "10:7:warning:libical",
            "15:10:warning:points", "22:1:error:missing-start",
        ]
        #expect(result.diagnostics.map {
            "\($0.location.line):\($0.location.column):\($0.severity.rawValue):\($0.code)"
        } == expected)
        #expect(result.diagnostics.first?.sourceLine == "DTEND:2024060")
        #expect(result.sessions.map(\.id) == ["errors-1", "errors-2", "errors-3"])
    }

    @Test("Printed like a compiler: file:line:column: severity: message, the line and a caret")
    func printedForm() {
        let diagnostic = Diagnostic(
            .warning, .points, at: SourceLocation(file: "work.ics", line: 12, column: 10),
            "X-POINTS value \"lots\" is not a non-negative integer", sourceLine: "X-POINTS:lots")
        #expect(diagnostic.description == """
            work.ics:12:10: warning: X-POINTS value "lots" is not a non-negative integer
             12 | X-POINTS:lots
                |          ^
            """)
    }

    @Test("Lines of a folded property: the physical line where the logical line starts")
    func foldedLocation() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:a", "DESCRIPTION:one", " two", " three", "DTSTART:20240301T090000Z", "X-POINTS:", " x",
            "END:VEVENT",
        ])
        #expect(result.diagnostics.filter { $0.code == .points }.map(\.location.line) == [7])
    }

    @Test("An unreadable path is an error, not a diagnostic")
    func unreadable() {
        #expect(throws: CalendarReadError.self) {
            try SessionImporter(expansion: testExpansion).importSessions(from: .file("/nonexistent/calendar.ics"))
        }
        do {
            _ = try SessionImporter(expansion: testExpansion).importSessions(from: .file("/nonexistent/calendar.ics"))
        } catch {
            #expect(error.description == "cannot read /nonexistent/calendar.ics: no such file")
        }
    }
}
