@testable import ICalendar
import Streaks
import Testing

@Suite("Placed sessions")
struct PlacedSessionsTests {
    @Test("Joined at once, parts come out as appending them one by one gives them", arguments: [0, 1, 2, 7])
    func joining(partCount: Int) {
        var generator = SystemRandomNumberGenerator()
        var number = 0
        let parts = (0..<partCount).map { _ -> PlacedSessions in
            var part = PlacedSessions()
            for _ in 0..<Int(generator.next() % 5) {
                number += 1
                let start = SessionTime.instant(secondsSince1970: Int64(number) * 3_600)
                let end = SessionTime.instant(secondsSince1970: Int64(number) * 3_600 + 600)
                part.sessions.append(Session(id: "s\(number)", start: start, end: end, points: number, summary: "", source: SourceLocation(file: "f", line: number)))
                part.places.append(number)
                part.counted.append(CountedSession(start: start, end: end, points: number, line: number))
            }
            return part
        }
        var appended = PlacedSessions()
        for part in parts { appended.append(part) }
        let joined = PlacedSessions(joining: parts)
        #expect(joined.sessions == appended.sessions)
        #expect(joined.places == appended.places)
        #expect(joined.counted == appended.counted)
        #expect(joined.places == Array(stride(from: 1, through: number, by: 1)))
    }
}
