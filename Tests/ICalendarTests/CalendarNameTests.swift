import Foundation
import ICalendar
import Streaks
import Testing
import FixedClock

@Suite("Calendar names: X-WR-CALNAME, else the file's name")
struct CalendarNameTests {
    static let event = ["BEGIN:VEVENT", "UID:a", "DTSTART:20240220T080000Z", "DTEND:20240220T090000Z", "X-POINTS:100", "END:VEVENT"]

    static func calendar(_ properties: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0"] + properties + event + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    @Test("A calendar's X-WR-CALNAME names it, unescaped; without one, its file does", arguments: [
        (["X-WR-CALNAME:Piano practice"], "exports/basic.ics", "Piano practice"),
        (["X-WR-CALNAME:Piano\\, scales \\; arpeggios"], "a.ics", "Piano, scales ; arpeggios"),
        (["X-WR-CALNAME:Two\\nlines"], "a.ics", "Two lines"),
        (["X-WR-CALNAME:   "], "exports/Running.ICS", "Running"),
        ([], "/home/ada/piano.ics", "piano"),
        ([], "notes.txt", "notes.txt"),
        ([], ".ics", ".ics"),
        (["X-WR-CALNAME:First", "X-WR-CALNAME:Second"], "a.ics", "First"),
    ])
    func names(properties: [String], file: String, expected: String) {
        let result = SessionImporter(expansion: testExpansion).importText(Self.calendar(properties), name: file)
        #expect(result.sources.map(\.file) == [file])
        #expect(result.sources.map(\.name) == [expected])
        #expect(result.sessions.count == 1)
    }

    @Test("A name declared after the events still names the calendar")
    func nameAfterEvents() {
        let text = (["BEGIN:VCALENDAR"] + Self.event + ["X-WR-CALNAME:Late", "END:VCALENDAR"]).joined(separator: "\r\n")
        #expect(SessionImporter(expansion: testExpansion).importText(text, name: "x.ics").sources.map(\.name) == ["Late"])
    }

    @Test("Several inputs read as one: each is named by its own X-WR-CALNAME or file, in order")
    func severalInputs() throws {
        let sources: [CalendarSource] = [
            .string(Self.calendar(["X-WR-CALNAME:Piano"]), name: "one.ics"),
            .string(Self.calendar([]), name: "dir/two.ics"),
            .string(Self.calendar(["X-WR-CALNAME:Swim"]), name: "three.ics"),
        ]
        let whole = try SessionImporter(expansion: testExpansion).importSessions(from: sources)
        #expect(whole.sources.map(\.name) == ["Piano", "two", "Swim"])
        #expect(whole.sources.map(\.file) == ["one.ics", "dir/two.ics", "three.ics"])

        var streamed: [ReportSource] = []
        let summary = try SessionImporter(expansion: testExpansion).forEachBatch(from: sources) { streamed = $0.sources }
        #expect(streamed.map(\.name) == ["Piano", "two", "Swim"])
        #expect(summary.sources == whole.sources)
    }

    @Test("Files on disk and standard input are named too")
    func files() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let named = folder.appendingPathComponent("a.ics").path
        let unnamed = folder.appendingPathComponent("Morning Runs.ics").path
        try Self.calendar(["X-WR-CALNAME:Piano"]).write(toFile: named, atomically: true, encoding: .utf8)
        try Self.calendar([]).write(toFile: unnamed, atomically: true, encoding: .utf8)
        #expect(try SessionImporter(expansion: testExpansion).importSessions(from: .file(named)).sources.map(\.name) == ["Piano"])
        #expect(try SessionImporter(expansion: testExpansion).importSessions(from: [.file(named), .file(unnamed)]).sources.map(\.name) == ["Piano", "Morning Runs"])
        #expect(ReportSource(file: "-").name == "standard input")
    }

    @Test("A name is one line of at most 120 characters, however long the property")
    func longName() {
        let long = String(repeating: "Practice ", count: 10_000)
        let result = SessionImporter(expansion: testExpansion).importText(Self.calendar(["X-WR-CALNAME:" + long]), name: "x.ics")
        let name = try? #require(result.sources.first?.name)
        #expect(name?.count == ReportSource.maximumNameLength)
        #expect(name?.hasSuffix("…") == true)
        #expect(name?.hasPrefix("Practice Practice") == true)
    }

    @Test("How a report names one calendar, or several", arguments: [
        ([String](), nil as String?),
        (["a.ics"], "a"),
        (["a.ics", "b.ics"], "a and b"),
        (["a.ics", "b.ics", "c.ics"], "a, b and c"),
        (["a.ics", "b.ics", "c.ics", "d.ics", "e.ics"], "a, b, c and 2 more"),
    ])
    func subject(files: [String], expected: String?) {
        #expect(files.map { ReportSource(file: $0) }.subject == expected)
    }
}
