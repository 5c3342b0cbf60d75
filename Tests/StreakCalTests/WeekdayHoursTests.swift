import Foundation
import Testing
@testable import StreakCal

/// When I do it (issue 48.2): minutes by weekday and hour in the report's zone, each session spread
/// over the hours it covers.
@Suite("Weekday hours")
struct WeekdayHoursTests {
    static let berlin = TimeZoneRules(identifier: "Europe/Berlin")!

    /// Seconds since 1970 of a Berlin wall-clock time.
    static func berlin(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Int64 {
        berlin.instant(for: LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute)!)
    }

    @Test("A session is spread over the hours it covers, Monday first, across midnight into the next weekday")
    func spread() {
        var hours = WeekdayHours()
        // Sunday 2024-01-07 23:30 to Monday 01:15, Berlin.
        hours.add(from: Self.berlin(2024, 1, 7, 23, 30), to: Self.berlin(2024, 1, 8, 1, 15), in: Self.berlin)
        #expect(hours.minutes[6][23] == 30 && hours.minutes[0][0] == 60 && hours.minutes[0][1] == 15)
        #expect(hours.seconds.reduce(0, +) == 105 * 60)
        #expect(hours.peakHour! == (0, 0))
        #expect(hours.peakWeekday! == (0, 75))
    }

    @Test("Across the spring-forward and fall-back nights, each wall-clock hour gets the time that passed in it")
    func daylightSaving() {
        var spring = WeekdayHours()
        // 2024-03-31 (a Sunday) 01:30 to 03:30 local: 02:00-03:00 does not exist; one hour passes.
        spring.add(from: Self.berlin(2024, 3, 31, 1, 30), to: Self.berlin(2024, 3, 31, 3, 30), in: Self.berlin)
        #expect(spring.minutes[6][1] == 30 && spring.minutes[6][2] == 0 && spring.minutes[6][3] == 30)
        var autumn = WeekdayHours()
        // 2024-10-27 (a Sunday) 00:00 UTC to 03:00 UTC: local 02:00-03:00 happens twice.
        autumn.add(from: 1_729_987_200, to: 1_729_998_000, in: Self.berlin)
        #expect(autumn.minutes[6][2] == 120 && autumn.seconds.reduce(0, +) == 3 * 3_600)
    }

    @Test("Every hour of a week in every zone offset lands in its own cell", arguments: [0, 3_600, -18_000, 19_800, 45_900])
    func everyHourOfAWeek(offset: Int) {
        let zone = TimeZoneRules.fixed(identifier: "fixed", offset: offset)
        var hours = WeekdayHours()
        // Monday 2024-01-01 00:00 local, one session per hour for a week.
        let monday = zone.instant(for: LocalDateTime(year: 2024, month: 1, day: 1)!)
        for hour in 0..<(7 * 24) {
            hours.add(from: monday + Int64(hour) * 3_600 + 600, to: monday + Int64(hour) * 3_600 + 1_200, in: zone)
        }
        #expect(hours.minutes.allSatisfy { $0.allSatisfy { $0 == 10 } })
    }

    @Test("Limits cut what lies outside them")
    func limits() {
        var hours = WeekdayHours()
        let start = Self.berlin(2024, 1, 1, 8)
        hours.add(from: start, to: start + 4 * 3_600, in: Self.berlin, within: (start + 3_600)..<(start + 2 * 3_600))
        #expect(hours.seconds.reduce(0, +) == 3_600 && hours.minutes[0][9] == 60)
    }

    @Test("The report's hours are its timed sessions' time in the window: the time totals' whole, whatever day the report is made")
    func sameAsTotals() throws {
        let calendar = CalendarSource.string("""
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:run
            DTSTART;TZID=Europe/Berlin:20240101T073000
            DTEND;TZID=Europe/Berlin:20240101T091000
            RRULE:FREQ=DAILY;INTERVAL=3
            SUMMARY:Run
            END:VEVENT
            BEGIN:VEVENT
            UID:night
            DTSTART;TZID=Europe/Berlin:20240106T223000
            DTEND;TZID=Europe/Berlin:20240107T013000
            RRULE:FREQ=WEEKLY
            SUMMARY:Night
            END:VEVENT
            BEGIN:VEVENT
            UID:trip
            DTSTART;VALUE=DATE:20240301
            DTEND;VALUE=DATE:20240308
            SUMMARY:Trip
            END:VEVENT
            END:VCALENDAR
            """, name: "week.ics")
        for month in 1...12 {
            var settings = ReportSettings(pointsRule: .minutes, timeZone: "Europe/Berlin", from: try Day(year: 2024, month: 1, day: 1), to: try Day(year: 2024, month: 12, day: 31))
            settings.countsWeekdayHours = true
            let now = Self.berlin(2024, month, 15, 12)
            let hours = try #require(try settings.scored([calendar], now: now).report.weekdayHours)
            let totals = try #require(try settings.totals([calendar], by: .summary, per: .year, now: now).timeTotals)
            #expect(Int(hours.seconds.reduce(0, +) / 60) == totals.overall.minutes, "month \(month)")
            #expect(hours.minutes[0][8] > 0 && hours.minutes[6][0] > 0)
        }
        // Not asked for: not counted.
        let plain = try ReportSettings(timeZone: "UTC").scored([calendar], now: Self.berlin(2024, 6, 1, 0))
        #expect(plain.report.weekdayHours == nil)
    }
}
