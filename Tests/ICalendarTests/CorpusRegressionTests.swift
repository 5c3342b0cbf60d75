import ICalendar
import Streaks
import Testing

/// Cases the corpus sweep (`scripts/corpus-sweep`) found; each once crashed or lost data.
@Suite("Corpus regressions")
struct CorpusRegressionTests {
    @Test("Subcomponents libical does not know (VLOCATION, garbage names) neither crash nor drop the event", arguments: [
        "VLOCATION", "STANDAR@", "VALARL", "S",
    ])
    func unknownSubcomponent(_ name: String) {
        let result = importLines([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z", "X-POINTS:5",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "BEGIN:\(name)", "UID:inner", "END:\(name)", "END:VALARM",
            "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(result.sessions.map(\.points) == [5])
    }

    @Test("A fold right after the property name (RFC 5545 allows it) is a fold, not a stray line")
    func foldAfterName() {
        let result = importLines([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DESCRIPTION:some text", "DTSTART", " :20020402T114500Z",
            "STATUS", " :CONFIRMED", "X-POINTS", " :7", "END:VEVENT",
            "BEGIN:VEVENT", "UID:b", "DESCRIPTION:more", "DTSTART", " :20020403T114500Z", "STATUS", " :CANCELLED",
            "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(result.sessions.map(\.id) == ["a"])
        #expect(result.sessions.first?.start == .instant(secondsSince1970: utc(2002, 4, 2, 11, 45)))
        #expect(result.sessions.first?.points == 7)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("An X-LIC-ERROR about a property libical keeps points at that property's line")
    func errorAfterKeptProperty() throws {
        let result = importLines([
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z",
            "STATUS;VALUE=URI:http://example.com/room", "PRIORITY:2", "X-POINTS:50", "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(result.sessions.map(\.points) == [50])
        let libical = try #require(result.diagnostics.first { $0.code == .libical })
        #expect(libical.location.line == 5)
        #expect(libical.sourceLine?.hasPrefix("STATUS") == true)
    }

    @Test("Points survive however the error lines fall around them")
    func pointsNeverLostToLocation() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z", "DTEND:2", "X-POINTS:50", "COMMENT:2", "RELATED-TO:2",
            "CATEGORIES:x,y", "CATEGORIES:z", "END:VEVENT",
        ])
        #expect(result.sessions.map(\.points) == [50])
        #expect(result.sessions.first?.categories == ["x", "y", "z"])
        #expect(result.diagnostics.filter { $0.code == .libical }.map(\.location.line) == [4])
        #expect(!result.diagnostics.contains { $0.code == .points })
    }

    @Test("iTIP: METHOD:CANCEL and REPLY events are not sessions, with a note, not an error")
    func itip() {
        let cancel = importLines([
            "BEGIN:VCALENDAR", "METHOD:CANCEL", "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z", "X-POINTS:5",
            "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(cancel.sessions.isEmpty)
        #expect(cancel.diagnostics.map(\.severity) == [.note])
        let reply = importLines([
            "BEGIN:VCALENDAR", "METHOD:REPLY", "BEGIN:VEVENT", "UID:a", "ATTENDEE:mailto:a@example.com",
            "END:VEVENT", "END:VCALENDAR",
        ])
        #expect(reply.sessions.isEmpty)
        #expect(reply.diagnostics.map { "\($0.severity):\($0.code):\($0.message)" }
                == ["note:structure:this VCALENDAR is an iTIP message (METHOD:REPLY): its events are not sessions"])
        let publish = importLines(["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "END:VEVENT", "END:VCALENDAR"])
        #expect(publish.diagnostics.map { "\($0.severity):\($0.code)" } == ["error:missing-start"])
    }

    @Test("A flood of diagnostics is cut to 100 of each kind per file, with a count of the rest")
    func flood() {
        let lines = ["BEGIN:VCALENDAR"] + Array(repeating: "END:VTODO", count: 250) + [
            "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z", "X-POINTS:5", "END:VEVENT", "END:VCALENDAR",
        ]
        let result = importLines(lines)
        #expect(result.sessions.map(\.points) == [5])
        #expect(result.diagnostics.count == 101)
        #expect(result.diagnostics.last?.message == "150 more structure diagnostics in this file are not shown (250 in all)")
    }
}

@Suite("Corpus regressions: errors at the edges of a component")
struct ErrorAtEdgeTests {
    @Test("An X-LIC-ERROR on a component's last line, or its only line")
    func lastLine() {
        let last = importLines(["BEGIN:VEVENT", "UID:a", "X-POINTS:5", "DTSTART:20240301T090000Z", "DTEND:2", "END:VEVENT"])
        #expect(last.sessions.map(\.points) == [5])
        #expect(last.diagnostics.filter { $0.code == .libical }.map(\.location.line) == [5])
        let kept = importLines(["BEGIN:VEVENT", "UID:a", "X-POINTS:5", "DTSTART:20240301T090000Z", "STATUS;VALUE=URI:x:y", "END:VEVENT"])
        #expect(kept.diagnostics.filter { $0.code == .libical }.map(\.location.line) == [5])
        let only = importLines(["BEGIN:VEVENT", "DTEND:2", "END:VEVENT"])
        #expect(only.diagnostics.filter { $0.code == .libical }.map(\.location.line) == [2])
    }
}
