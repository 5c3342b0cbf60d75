@testable import ICalendar
import Streaks
import Testing

/// Notes said once per input (a TZID read as another zone's name): a worker's resolver keeps them
/// with their key, and the import says each once, where it comes first.
@Suite("Notes said once per input")
struct OnceNotesTests {
    private static func event(tzid: String, line: Int) -> EventRecord {
        var record = EventRecord(begin: ContentLine(text: "BEGIN:VEVENT", line: line, name: "BEGIN", valueColumn: 7))
        record.uid = "u\(line)"
        let start = ContentLine(text: "DTSTART;TZID=\(tzid):20240301T090000", line: line + 1, name: "DTSTART", valueColumn: nil)
        record.start = ICalTime(local: LocalDateTime(year: 2024, month: 3, day: 1, hour: 9)!, isDate: false, isUTC: false, timeZoneID: tzid)
        record.startLine = start
        record.points = ("30", start)
        return record
    }

    @Test("A worker keeps each note once with its key; the import says it once, the first time it is given", arguments: [false, true])
    func onceNotes(deferringNotes: Bool) throws {
        var worker = SessionResolver(pointsRule: .xPoints)
        worker.defersOnceNotes = deferringNotes
        worker.countsOnly = true
        for line in [10, 20] {
            let made = worker.counted(from: Self.event(tzid: "W. Europe Standard Time", line: line), calendar: 0)
            let session = try #require(made)
            #expect(session.start == .instant(secondsSince1970: 1_709_280_000))  // 09:00 in Berlin, 08:00 UTC
        }
        let kept = deferringNotes ? worker.takeOnceNotes() : []
        let said = deferringNotes ? kept.map(\.diagnostic) : worker.diagnostics
        #expect(said.map(\.location.line) == [11])
        #expect(said.map(\.message) == ["TZID \"W. Europe Standard Time\" is not an IANA name; read as Europe/Berlin"])
        var importer = SessionResolver(pointsRule: .xPoints)
        for (key, note) in kept + kept { importer.say(key: key, note) }
        #expect(importer.diagnostics.count == (deferringNotes ? 1 : 0))
        #expect(worker.sessionsWithPointsProperty == 2)
    }
}
