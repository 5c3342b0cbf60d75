import ICalendar
import Streaks
import Testing

@Suite("The per-rule instance cap at its extremes")
struct RecurrenceCapTests {
    /// A daily rule without end, from 2024-01-01.
    static let daily = """
        BEGIN:VCALENDAR\r
        BEGIN:VEVENT\r
        UID:daily\r
        DTSTART:20240101T090000Z\r
        DURATION:PT30M\r
        RRULE:FREQ=DAILY\r
        X-POINTS:10\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("Int.max and values near it do not overflow the iterator's call budget (cap × 4)", arguments: [Int.max, Int.max / 4 + 1, 1 << 61])
    func huge(cap: Int) {
        let expansion = RecurrenceExpansion(
            from: Day(year: 2024, month: 1, day: 1)!, through: Day(year: 2024, month: 1, day: 3)!, maximumInstancesPerRule: cap)
        let imported = SessionImporter(pointsRule: .xPoints, expansion: expansion).importText(Self.daily, name: "daily.ics")
        // The expansion reaches a few margin days past the window (for the report's zone), no further.
        let days = imported.sessions.map { $0.day(in: .utc, dayStart: .midnight) }
        #expect(days.prefix(3) == [Day(year: 2024, month: 1, day: 1)!, Day(year: 2024, month: 1, day: 2)!, Day(year: 2024, month: 1, day: 3)!])
        #expect((3...7).contains(days.count))
        #expect(imported.diagnostics.filter { $0.code == .recurrence }.isEmpty)
    }
}
