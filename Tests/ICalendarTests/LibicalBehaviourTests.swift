@testable import ICalendar
import Streaks
import Testing

@Suite("libical's own time zone conversion, against RFC 5545")
struct LibicalBehaviourTests {
    let gap = LocalDateTime(year: 2016, month: 3, day: 27, hour: 2, minute: 28)!

    @Test("The wrapper reads a time in the spring gap with the offset before the gap (RFC 5545 3.3.5)")
    func wrapperIsRight() throws {
        let result = importLines(["BEGIN:VEVENT", "UID:gap", "DTSTART;TZID=Europe/Berlin:20160327T022800", "X-POINTS:1", "END:VEVENT"])
        #expect(result.sessions.first?.start == .instant(secondsSince1970: utc(2016, 3, 27, 1, 28)))
    }

    @Test("libical 3.0.x's own conversion of the same time is an hour early, which is why the wrapper does its own")
    func libicalIsWrongInTheGap() throws {
        let libicalAnswer = try #require(Libical.builtinInstant(for: gap, timeZoneID: "Europe/Berlin"))
        if Libical.version.hasPrefix("3.0.") {
            #expect(libicalAnswer == utc(2016, 3, 27, 0, 28))
        }
        // Outside the gap libical and the wrapper agree.
        let summer = LocalDateTime(year: 2016, month: 7, day: 1, hour: 12)!
        let berlin = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
        #expect(Libical.builtinInstant(for: summer, timeZoneID: "Europe/Berlin") == berlin.instant(for: summer))
    }
}
