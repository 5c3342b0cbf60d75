import Foundation
import CalendarDiagnostics
import Streaks
import Testing

private func rules(_ identifier: String) -> TimeZoneRules {
    identifier == "UTC" ? .utc : TimeZoneRules(identifier: identifier)!
}

private func session(_ start: SessionTime, points: Int = 10) -> Session {
    Session(id: "s", start: start, end: start, points: points)
}

@Suite("Session.day(in:dayStart:)")
struct SessionDayTests {
    // MARK: - Instants near midnight

    struct InstantCase: Sendable, CustomTestStringConvertible {
        var instant: Int64
        var zone: String
        var expected: Day
        var testDescription: String { "\(instant) in \(zone)" }
    }

    @Test(arguments: [
        // 2024-01-15T23:30Z: Berlin (+01:00) is already on the 16th, Los Angeles (-08:00) still on the 15th.
        InstantCase(instant: utcInstant(2024, 1, 15, 23, 30), zone: "UTC", expected: ymd(2024, 1, 15)),
        InstantCase(instant: utcInstant(2024, 1, 15, 23, 30), zone: "Europe/Berlin", expected: ymd(2024, 1, 16)),
        InstantCase(instant: utcInstant(2024, 1, 15, 23, 30), zone: "America/Los_Angeles", expected: ymd(2024, 1, 15)),
        // 2024-01-16T00:30Z.
        InstantCase(instant: utcInstant(2024, 1, 16, 0, 30), zone: "UTC", expected: ymd(2024, 1, 16)),
        InstantCase(instant: utcInstant(2024, 1, 16, 0, 30), zone: "Europe/Berlin", expected: ymd(2024, 1, 16)),
        InstantCase(instant: utcInstant(2024, 1, 16, 0, 30), zone: "America/Los_Angeles", expected: ymd(2024, 1, 15)),
        // 2024-01-16T07:59:59Z is 23:59:59 in Los Angeles; a second later it is midnight there.
        InstantCase(instant: utcInstant(2024, 1, 16, 7, 59, 59), zone: "America/Los_Angeles", expected: ymd(2024, 1, 15)),
        InstantCase(instant: utcInstant(2024, 1, 16, 8), zone: "America/Los_Angeles", expected: ymd(2024, 1, 16)),
        // 2024-01-15T22:59:59Z is 23:59:59 in Berlin; a second later it is midnight there.
        InstantCase(instant: utcInstant(2024, 1, 15, 22, 59, 59), zone: "Europe/Berlin", expected: ymd(2024, 1, 15)),
        InstantCase(instant: utcInstant(2024, 1, 15, 23), zone: "Europe/Berlin", expected: ymd(2024, 1, 16)),
        // Summer: Berlin +02:00, Los Angeles -07:00.
        InstantCase(instant: utcInstant(2024, 7, 15, 22, 30), zone: "Europe/Berlin", expected: ymd(2024, 7, 16)),
        InstantCase(instant: utcInstant(2024, 7, 15, 21, 59, 59), zone: "Europe/Berlin", expected: ymd(2024, 7, 15)),
        InstantCase(instant: utcInstant(2024, 7, 16, 6, 59, 59), zone: "America/Los_Angeles", expected: ymd(2024, 7, 15)),
        InstantCase(instant: utcInstant(2024, 7, 16, 7), zone: "America/Los_Angeles", expected: ymd(2024, 7, 16)),
        // Year edge.
        InstantCase(instant: utcInstant(2023, 12, 31, 23, 30), zone: "Europe/Berlin", expected: ymd(2024, 1, 1)),
        InstantCase(instant: utcInstant(2024, 1, 1, 7, 30), zone: "America/Los_Angeles", expected: ymd(2023, 12, 31)),
        // Before 1970.
        InstantCase(instant: -1, zone: "UTC", expected: ymd(1969, 12, 31)),
        InstantCase(instant: 0, zone: "America/Los_Angeles", expected: ymd(1969, 12, 31)),
    ])
    func instantNearMidnight(testCase: InstantCase) {
        let zone = rules(testCase.zone)
        #expect(session(.instant(secondsSince1970: testCase.instant)).day(in: zone, dayStart: .midnight) == testCase.expected)
        let goal = StreakGoal(timeZone: zone)
        #expect(goal.day(containing: testCase.instant) == testCase.expected)
    }

    // MARK: - Day start

    @Test(arguments: [
        (wall(2024, 3, 10, 3, 59), ymd(2024, 3, 9)),
        (wall(2024, 3, 10, 3, 59, 59), ymd(2024, 3, 9)),
        (wall(2024, 3, 10, 4, 0), ymd(2024, 3, 10)),
        (wall(2024, 3, 10, 0, 0), ymd(2024, 3, 9)),
        (wall(2024, 3, 10, 23, 59, 59), ymd(2024, 3, 10)),
        (wall(2024, 1, 1, 2, 0), ymd(2023, 12, 31)),  // year edge
        (wall(2024, 1, 1, 4, 0), ymd(2024, 1, 1)),
        (wall(2024, 3, 1, 3, 0), ymd(2024, 2, 29)),  // month edge, leap year
        (wall(2023, 3, 1, 3, 0), ymd(2023, 2, 28)),  // month edge, common year
        (wall(1970, 1, 1, 1, 0), ymd(1969, 12, 31)),  // before 1970 after the shift
    ])
    func floatingWithFourOClockDayStart(time: LocalDateTime, expected: Day) throws {
        let dayStart = try #require(DayStart("04:00"))
        for zone in ["UTC", "Europe/Berlin", "America/Los_Angeles", "Pacific/Apia"] {
            #expect(session(.floating(time)).day(in: rules(zone), dayStart: dayStart) == expected, "in \(zone)")
        }
    }

    @Test(arguments: [
        // Berlin, 04:00 day start: 2024-01-01 02:00 local is 01:00Z.
        (utcInstant(2024, 1, 1, 1), "Europe/Berlin", ymd(2023, 12, 31)),
        (utcInstant(2024, 1, 1, 2, 59, 59), "Europe/Berlin", ymd(2023, 12, 31)),
        (utcInstant(2024, 1, 1, 3), "Europe/Berlin", ymd(2024, 1, 1)),
        // Los Angeles: 2024-01-01 03:59 local is 11:59Z; 04:00 is 12:00Z.
        (utcInstant(2024, 1, 1, 11, 59), "America/Los_Angeles", ymd(2023, 12, 31)),
        (utcInstant(2024, 1, 1, 12), "America/Los_Angeles", ymd(2024, 1, 1)),
        // UTC.
        (utcInstant(2024, 3, 1, 3, 59), "UTC", ymd(2024, 2, 29)),
        (utcInstant(2024, 3, 1, 4), "UTC", ymd(2024, 3, 1)),
        // Berlin's spring-forward day: 03:30 CEST (01:30Z) is before 04:00, 04:00 CEST (02:00Z) is not.
        (utcInstant(2016, 3, 27, 1, 30), "Europe/Berlin", ymd(2016, 3, 26)),
        (utcInstant(2016, 3, 27, 2), "Europe/Berlin", ymd(2016, 3, 27)),
        // Berlin's fall-back day: 03:59 CET is 02:59Z.
        (utcInstant(2016, 10, 30, 2, 59), "Europe/Berlin", ymd(2016, 10, 29)),
        (utcInstant(2016, 10, 30, 3), "Europe/Berlin", ymd(2016, 10, 30)),
    ])
    func instantWithFourOClockDayStart(instant: Int64, zone: String, expected: Day) throws {
        let dayStart = try #require(DayStart(hour: 4))
        #expect(session(.instant(secondsSince1970: instant)).day(in: rules(zone), dayStart: dayStart) == expected)
        #expect(StreakGoal(timeZone: rules(zone), dayStart: dayStart).day(containing: instant) == expected)
    }

    @Test func lateDayStart() throws {
        let dayStart = try #require(DayStart("23:59"))
        #expect(session(.floating(wall(2024, 1, 1, 23, 58, 59))).day(in: .utc, dayStart: dayStart) == ymd(2023, 12, 31))
        #expect(session(.floating(wall(2024, 1, 1, 23, 59))).day(in: .utc, dayStart: dayStart) == ymd(2024, 1, 1))
    }

    // MARK: - All-day sessions

    @Test(arguments: ["UTC", "Europe/Berlin", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Pacific/Apia", "Asia/Kolkata"],
          ["00:00", "04:00", "12:30", "23:59"])
    func allDaySessionsStayOnTheirDate(zone: String, dayStart: String) throws {
        let start = try #require(DayStart(dayStart))
        for date in [ymd(2024, 2, 29), ymd(2024, 1, 1), ymd(2023, 12, 31), ymd(1969, 12, 31), ymd(2011, 12, 30)] {
            let allDay = Session(id: "a", start: .date(date), end: .date(date.advanced(by: 1)), points: 50)
            #expect(allDay.isAllDay)
            #expect(allDay.day(in: rules(zone), dayStart: start) == date)
        }
    }

    // MARK: - Floating times

    @Test(arguments: ["UTC", "Europe/Berlin", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
    func floatingTimesAreReadOnTheWallClock(zone: String) {
        let zoneRules = rules(zone)
        #expect(session(.floating(wall(2024, 2, 25, 6, 30))).day(in: zoneRules, dayStart: .midnight) == ymd(2024, 2, 25))
        #expect(session(.floating(wall(2024, 2, 25, 0, 0))).day(in: zoneRules, dayStart: .midnight) == ymd(2024, 2, 25))
        #expect(session(.floating(wall(2024, 2, 25, 23, 59, 59))).day(in: zoneRules, dayStart: .midnight) == ymd(2024, 2, 25))
        #expect(!session(.floating(wall(2024, 2, 25, 6, 30))).isAllDay)
    }

    /// The same wall-clock time as an instant moves with the zone; as a floating time it does not.
    @Test func floatingVersusInstant() throws {
        let losAngeles = rules("America/Los_Angeles")
        let instant = session(.instant(secondsSince1970: utcInstant(2024, 2, 25, 3)))
        let floating = session(.floating(wall(2024, 2, 25, 3)))
        #expect(instant.day(in: losAngeles, dayStart: .midnight) == ymd(2024, 2, 24))
        #expect(floating.day(in: losAngeles, dayStart: .midnight) == ymd(2024, 2, 25))
        #expect(instant.day(in: .utc, dayStart: .midnight) == ymd(2024, 2, 25))
    }

    // MARK: - SessionTime

    @Test func sessionTimeConversions() throws {
        let berlin = rules("Europe/Berlin")
        let instant = SessionTime.instant(secondsSince1970: 1_708_416_000)  // 2024-02-20T08:00Z
        #expect(instant.localDateTime(in: berlin) == wall(2024, 2, 20, 9))
        #expect(instant.localDateTime(in: .utc) == wall(2024, 2, 20, 8))
        #expect(instant.instant(in: berlin) == 1_708_416_000)

        let floating = SessionTime.floating(wall(2024, 2, 20, 8))
        #expect(floating.localDateTime(in: berlin) == wall(2024, 2, 20, 8))
        #expect(floating.instant(in: berlin) == 1_708_416_000 - 3600)
        #expect(floating.instant(in: .utc) == 1_708_416_000)
        // In a gap: the offset before the gap.
        #expect(SessionTime.floating(wall(2016, 3, 27, 2, 28)).instant(in: berlin) == 1_459_042_080)

        let date = SessionTime.date(ymd(2024, 2, 20))
        #expect(date.localDateTime(in: berlin) == wall(2024, 2, 20))
        #expect(date.instant(in: berlin) == utcInstant(2024, 2, 19, 23))
        #expect(date.instant(in: rules("America/Los_Angeles")) == utcInstant(2024, 2, 20, 8))
        // Sao Paulo's spring-forward gap was at midnight: the day began at 01:00 -02:00 (03:00Z).
        #expect(SessionTime.date(ymd(2016, 10, 16)).instant(in: rules("America/Sao_Paulo")) == utcInstant(2016, 10, 16, 3))
    }

    @Test(arguments: [(-5, 0), (0, 0), (1, 1), (120, 120)])
    func pointsAreNeverNegative(given: Int, stored: Int) {
        let made = Session(id: "p", start: .date(ymd(2024, 1, 1)), end: .date(ymd(2024, 1, 2)), points: given,
                           summary: "Run", categories: ["sport", "outdoor"], source: CalendarDiagnostics.SourceLocation(file: "a.ics", line: 12, column: 5))
        #expect(made.points == stored)
        #expect(made.id == "p")
        #expect(made.summary == "Run")
        #expect(made.categories == ["sport", "outdoor"])
        #expect(made.source?.description == "a.ics:12:5")
    }

    @Test func sourceLocationDefaultsToColumnOne() {
        #expect(CalendarDiagnostics.SourceLocation(file: "-", line: 3).description == "-:3:1")
    }
}

@Suite("DayStart")
struct DayStartTests {
    @Test(arguments: [
        ("04:00", 14_400, "04:00"),
        ("4:00", 14_400, "04:00"),
        ("00:00", 0, "00:00"),
        ("0:00", 0, "00:00"),
        ("0:30", 1_800, "00:30"),
        ("4:05", 14_700, "04:05"),
        ("12:34", 45_240, "12:34"),
        ("23:59", 86_340, "23:59"),
    ])
    func parsesValidTimes(text: String, seconds: Int, description: String) throws {
        let dayStart = try #require(DayStart(text))
        #expect(dayStart.secondsAfterMidnight == seconds)
        #expect(dayStart.description == description)
    }

    @Test(arguments: [
        "24:00", "4", "04:60", "aa:bb", "", ":", "04:0", "004:00", "04:000", "04:00:00", ":00", "4:", "-1:00", "04:-1",
        " 4:00", "4:00 ", "04.00", "4h00", "99:99", "０4:00",
    ])
    func rejectsBadTimes(text: String) {
        #expect(DayStart(text) == nil)
    }

    /// The documentation allows only `HH:MM` or `H:MM`, but `Int(_:)` accepts a leading `+`.
    @Test(arguments: ["+4:00", "04:+5"])
    func rejectsSignedFields(text: String) {
        #expect(DayStart(text) == nil)
    }

    @Test(arguments: [(0, 0, 0), (4, 0, 14_400), (23, 59, 86_340), (12, 30, 45_000)])
    func hourAndMinute(hour: Int, minute: Int, seconds: Int) throws {
        #expect(try #require(DayStart(hour: hour, minute: minute)).secondsAfterMidnight == seconds)
    }

    @Test(arguments: [(24, 0), (-1, 0), (0, 60), (0, -1), (25, 30)])
    func hourAndMinuteOutOfRange(hour: Int, minute: Int) {
        #expect(DayStart(hour: hour, minute: minute) == nil)
    }

    @Test func midnight() {
        #expect(DayStart.midnight.secondsAfterMidnight == 0)
        #expect(DayStart.midnight.description == "00:00")
        #expect(DayStart.midnight == DayStart(hour: 0))
        #expect(DayStart("04:00") == DayStart(hour: 4))
        #expect(DayStart("04:00") != DayStart.midnight)
    }

    @Test func codable() throws {
        let dayStart = try #require(DayStart("04:30"))
        let json = try sortedJSON(dayStart)
        #expect(json == #"{"secondsAfterMidnight":16200}"#)
        #expect(try JSONDecoder().decode(DayStart.self, from: Data(json.utf8)) == dayStart)
    }

    /// Decoding bypasses the 0..<86400 check that both initializers make.
    @Test(arguments: [#"{"secondsAfterMidnight":86400}"#, #"{"secondsAfterMidnight":-60}"#])
    func decodingRejectsOutOfRangeSeconds(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DayStart.self, from: Data(json.utf8))
        }
    }
}
