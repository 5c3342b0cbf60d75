import Streaks
import Testing

@Suite("LocalDateTime")
struct LocalDateTimeTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01", 0, "1970-01-01T00:00:00"),
        (1, "1970-01-01", 1, "1970-01-01T00:00:01"),
        (86_399, "1970-01-01", 86_399, "1970-01-01T23:59:59"),
        (86_400, "1970-01-02", 0, "1970-01-02T00:00:00"),
        (-1, "1969-12-31", 86_399, "1969-12-31T23:59:59"),
        (-3_600, "1969-12-31", 82_800, "1969-12-31T23:00:00"),
        (-86_399, "1969-12-31", 1, "1969-12-31T00:00:01"),
        (-86_400, "1969-12-31", 0, "1969-12-31T00:00:00"),
        (-86_401, "1969-12-30", 86_399, "1969-12-30T23:59:59"),
        (-62_135_596_800, "0001-01-01", 0, "0001-01-01T00:00:00"),
        (-62_135_596_801, "0000-12-31", 86_399, "0000-12-31T23:59:59"),
        (1_708_842_600, "2024-02-25", 23_400, "2024-02-25T06:30:00"),
    ] as [(Int64, String, Int, String)])
    func daySecondOfDayAndDescription(seconds: Int64, day: String, secondOfDay: Int, description: String) {
        let time = LocalDateTime(secondsSince1970: seconds)
        #expect(time.day.description == day)
        #expect(time.secondOfDay == secondOfDay)
        #expect(time.description == description)
        #expect(LocalDateTime(day: time.day, secondOfDay: time.secondOfDay) == time)
    }

    /// Before and after 1970, `day` and `secondOfDay` split the seconds by floor division.
    @Test func splitsEverySecondNearTheEpoch() {
        var mismatches: [Int64] = []
        for seconds in stride(from: Int64(-200_000), through: 200_000, by: 997) {
            let time = LocalDateTime(secondsSince1970: seconds)
            let secondOfDay = time.secondOfDay
            if !(0..<86_400).contains(secondOfDay)
                || Int64(time.day.daysSince1970) * 86_400 + Int64(secondOfDay) != seconds
                || LocalDateTime(day: time.day, secondOfDay: secondOfDay) != time {
                mismatches.append(seconds)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test(arguments: [
        (Int64(0), 0, 0, 0),
        (-1, 23, 59, 59),
        (-3_661, 22, 58, 59),
        (45_296, 12, 34, 56),
        (86_399, 23, 59, 59),
        (-86_400 * 365 + 3_723, 1, 2, 3),
    ] as [(Int64, Int, Int, Int)])
    func timeOfDay(seconds: Int64, hour: Int, minute: Int, second: Int) {
        let time = LocalDateTime(secondsSince1970: seconds)
        #expect(time.timeOfDay == (hour, minute, second))
        let padded = (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
        #expect(time.hourMinute == padded)
    }

    @Test func fieldInitializer() {
        let time = LocalDateTime(year: 2024, month: 2, day: 25, hour: 6, minute: 30)!
        #expect(time.description == "2024-02-25T06:30:00")
        #expect(time.day == (try! Day(year: 2024, month: 2, day: 25)))
        #expect(time.secondOfDay == 6 * 3600 + 30 * 60)
        #expect(LocalDateTime(year: 2024, month: 2, day: 25)!.description == "2024-02-25T00:00:00")
        #expect(LocalDateTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59)!.secondsSince1970 == -1)
    }

    @Test(arguments: [
        ((2024, 2, 28, 24, 0, 0), "2024-02-29T00:00:00"),
        ((2024, 2, 29, 0, 0, -1), "2024-02-28T23:59:59"),
        ((2023, 12, 31, 23, 59, 60), "2024-01-01T00:00:00"),
        ((2024, 1, 1, 0, -1, 0), "2023-12-31T23:59:00"),
        ((2024, 3, 1, 0, 90, 0), "2024-03-01T01:30:00"),
        ((1970, 1, 1, -1, 0, 0), "1969-12-31T23:00:00"),
    ])
    func fieldsRollOver(fields: (Int, Int, Int, Int, Int, Int), expected: String) {
        let time = LocalDateTime(
            normalizingYear: fields.0, month: fields.1, day: fields.2, hour: fields.3, minute: fields.4, second: fields.5)
        #expect(time.description == expected)
    }

    @Test func advancedAndOrdering() {
        let time = wall(2023, 12, 31, 23, 59, 30)
        #expect(time.advanced(bySeconds: 30).description == "2024-01-01T00:00:00")
        #expect(time.advanced(bySeconds: -86_400).description == "2023-12-30T23:59:30")
        #expect(time < time.advanced(bySeconds: 1))
        #expect(!(time < time))
        #expect(wall(1969, 12, 31, 23, 59, 59) < wall(1970, 1, 1))
    }

    @Test func farYears() {
        #expect(wall(1, 1, 1, 12).description == "0001-01-01T12:00:00")
        #expect(wall(-1, 12, 31, 23, 59, 59).description == "-0001-12-31T23:59:59")
        #expect(wall(-1, 12, 31, 23, 59, 59).advanced(bySeconds: 1).description == "0000-01-01T00:00:00")
        #expect(wall(10_000, 1, 1, 0, 0, 1).description == "+10000-01-01T00:00:01")
    }
}
