import Foundation
import Streaks
import Testing

private let berlin = TimeZoneRules(identifier: "Europe/Berlin")!
private let newYork = TimeZoneRules(identifier: "America/New_York")!

@Suite("Foundation dates")
struct FoundationBridgingTests {
    @Test("A Date is an instant to the second, rounded down, also before 1970")
    func instants() {
        #expect(SessionTime(Date(timeIntervalSince1970: 1_709_164_800.999)) == .instant(secondsSince1970: 1_709_164_800))
        #expect(SessionTime(Date(timeIntervalSince1970: -0.5)) == .instant(secondsSince1970: -1))
        #expect(SessionTime(.distantFuture) == .instant(secondsSince1970: Int64(Date.distantFuture.timeIntervalSince1970)))
    }

    @Test("Dates beyond 2^53 seconds, and NaN, are read as the nearest end, not a trap")
    func outOfRange() {
        #expect(SessionTime(Date(timeIntervalSince1970: 1e300)) == .instant(secondsSince1970: 1 << 53))
        #expect(SessionTime(Date(timeIntervalSince1970: -.infinity)) == .instant(secondsSince1970: -(1 << 53)))
        #expect(SessionTime(Date(timeIntervalSince1970: .nan)) == .instant(secondsSince1970: 0))
        _ = Day(Date(timeIntervalSince1970: 1e300), in: newYork, dayStart: DayStart(hour: 4)!)
    }

    @Test("Each kind of session time becomes the instant it means in the zone")
    func sessionTimeDates() {
        let instant = SessionTime.instant(secondsSince1970: 1_709_164_800)
        #expect(instant.date(in: berlin) == Date(timeIntervalSince1970: 1_709_164_800))
        let floating = SessionTime.floating(LocalDateTime(year: 2024, month: 7, day: 1, hour: 9)!)
        #expect(floating.date(in: berlin).timeIntervalSince1970 == 1_719_817_200)  // 07:00Z, CEST
        #expect(floating.date(in: newYork).timeIntervalSince1970 == 1_719_838_800)  // 13:00Z, EDT
        let allDay = SessionTime.date(try! Day(year: 2024, month: 7, day: 1))
        #expect(allDay.date(in: newYork).timeIntervalSince1970 == 1_719_806_400)  // 04:00Z
        // In the spring gap RFC 5545 reads 02:30 with the offset before the gap: 03:30 CEST.
        let inGap = SessionTime.floating(LocalDateTime(year: 2024, month: 3, day: 31, hour: 2, minute: 30)!)
        #expect(inGap.date(in: berlin).timeIntervalSince1970 == 1_711_848_600)  // 01:30Z
    }

    @Test("The day a Date counts toward follows the zone and the day start, as a session's does")
    func days() throws {
        let date = Date(timeIntervalSince1970: 1_709_173_800)  // 2024-02-29T02:30Z
        #expect(Day(date, in: .utc) == (try! Day(year: 2024, month: 2, day: 29)))
        #expect(Day(date, in: newYork) == (try! Day(year: 2024, month: 2, day: 28)))  // 21:30 the evening before
        #expect(Day(date, in: .utc, dayStart: DayStart(hour: 4)!) == (try! Day(year: 2024, month: 2, day: 28)))
        let session = Session(id: "a", start: SessionTime(date), end: SessionTime(date), points: 1)
        for zone in [TimeZoneRules.utc, berlin, newYork] {
            for start in [DayStart.midnight, DayStart(hour: 4)!] {
                #expect(Day(date, in: zone, dayStart: start) == session.day(in: zone, dayStart: start))
            }
        }
    }

    @Test("A day begins at its day start in the zone, and a Date at that start is on that day")
    func dayStarts() {
        let day = try! Day(year: 2024, month: 3, day: 10)  // New York springs forward at 02:00
        #expect(day.start(in: newYork).timeIntervalSince1970 == 1_710_046_800)  // 05:00Z, EST
        let four = DayStart(hour: 4)!
        #expect(day.start(in: newYork, dayStart: four).timeIntervalSince1970 == 1_710_057_600)  // 08:00Z, EDT
        #expect(Day(day.start(in: newYork, dayStart: four), in: newYork, dayStart: four) == day)
        #expect(Day(day.start(in: newYork, dayStart: four).addingTimeInterval(-1), in: newYork, dayStart: four) == day.advanced(by: -1))
        // A day start inside the gap (02:30) begins at the first moment after it.
        let inGap = DayStart(hour: 2, minute: 30)!
        #expect(day.start(in: newYork, dayStart: inGap).timeIntervalSince1970 == 1_710_055_800)  // 07:30Z = 03:30 EDT
    }
}
