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
            from: try! Day(year: 2024, month: 1, day: 1), through: try! Day(year: 2024, month: 1, day: 3), maximumInstancesPerRule: cap)
        let imported = SessionImporter(pointsRule: .xPoints, expansion: expansion).importText(Self.daily, name: "daily.ics")
        // The expansion reaches a few margin days past the window (for the report's zone), no further.
        let days = imported.sessions.map { $0.day(in: .utc, dayStart: .midnight) }
        #expect(days.prefix(3) == [try! Day(year: 2024, month: 1, day: 1), try! Day(year: 2024, month: 1, day: 2), try! Day(year: 2024, month: 1, day: 3)])
        #expect((3...7).contains(days.count))
        #expect(imported.diagnostics.filter { $0.code == .recurrence }.isEmpty)
    }

    /// Two RDATE lines of 1 to 20 June 2024 and 21 to 30 June, an EXDATE line for 3 June and one for
    /// 25 June, a PERIOD on 21 June: the reader keeps the cap's worth of RDATE values and one more,
    /// not the line.
    static let manyDates: String = {
        let first = (1...20).map { String(format: "202406%02dT090000Z", $0) }.joined(separator: ",")
        let second = (21...30).map { $0 == 21 ? "20240621T090000Z/PT2H" : String(format: "202406%02dT090000Z", $0) }
        return [
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:dates", "DTSTART:20240601T090000Z", "DURATION:PT30M",
            "RDATE:\(first)", "EXDATE:20240603T090000Z", "RDATE;VALUE=PERIOD:\(second.joined(separator: ","))",
            "EXDATE:20240625T090000Z", "X-POINTS:10", "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }()

    @Test("RDATE values past the cap are not kept, and the series still says it is capped")
    func recurrenceDatesPastTheCap() throws {
        func imported(cap: Int) -> CalendarImport {
            let expansion = RecurrenceExpansion(
                from: try! Day(year: 2024, month: 6, day: 1), through: try! Day(year: 2024, month: 6, day: 30), maximumInstancesPerRule: cap)
            return SessionImporter(pointsRule: .xPoints, expansion: expansion).importText(Self.manyDates, name: "dates.ics")
        }
        func days(_ result: CalendarImport) -> [Int] {
            result.sessions.map { $0.day(in: .utc, dayStart: .midnight) }.map { $0.daysSince1970 - (try! Day(year: 2024, month: 5, day: 31)).daysSince1970 }
        }

        // Under the cap: all 30 values but the two excluded, the PERIOD two hours long.
        let all = imported(cap: 100)
        #expect(days(all) == (1...30).filter { $0 != 3 && $0 != 25 })
        let period = try #require(all.sessions.first { $0.day(in: .utc, dayStart: .midnight) == (try! Day(year: 2024, month: 6, day: 21)) })
        #expect(period.end.instant(in: .utc) - period.start.instant(in: .utc) == 2 * 3_600)
        #expect(all.diagnostics.isEmpty)

        // A cap of 12 with 30 values: the first 12 values count (one of them excluded), and one warning.
        let capped = imported(cap: 12)
        #expect(days(capped) == (1...12).filter { $0 != 3 })
        #expect(capped.diagnostics.count == 1)
        #expect(capped.diagnostics.first?.code == .recurrence)
        #expect(capped.diagnostics.first?.message.contains("more than 12 instances") == true)

        // The cap falls on the second line: its values are kept up to the cap's worth of both lines.
        let second = imported(cap: 22)
        #expect(days(second) == (1...22).filter { $0 != 3 })
        #expect(second.diagnostics.count == 1)

        // A cap of Int.max keeps everything (the cap and one more must not overflow).
        #expect(days(imported(cap: .max)) == days(all))
    }
}
