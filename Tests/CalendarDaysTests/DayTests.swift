import Foundation
import Streaks
import Testing

@Suite("Day")
struct DayTests {
    // MARK: - Against Foundation, over a whole 400-year cycle

    /// Every day from 2000-03-01 to 2400-02-29: components, the initializer, the weekday and the
    /// description agree with Foundation's Gregorian calendar in UTC.
    @Test func fullCycleMatchesFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let startDate = try #require(calendar.date(from: DateComponents(year: 2000, month: 3, day: 1)))
        let firstDay = Int(startDate.timeIntervalSince1970) / 86_400
        #expect(firstDay == 11_017)
        #expect(try! Day(year: 2000, month: 3, day: 1).daysSince1970 == firstDay)

        var mismatches: [String] = []
        for offset in 0..<146_097 {
            let number = firstDay + offset
            let date = Date(timeIntervalSince1970: TimeInterval(number) * 86_400)
            let expected = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            let (year, month, dayOfMonth) = (expected.year!, expected.month!, expected.day!)
            let day = Day(daysSince1970: number)
            let actual = day.components
            let text = String(year) + "-" + (month < 10 ? "0" : "") + String(month) + "-" + (dayOfMonth < 10 ? "0" : "") + String(dayOfMonth)
            if actual != (year, month, dayOfMonth)
                || (try! Day(year: year, month: month, day: dayOfMonth)) != day
                || day.weekday.rawValue != expected.weekday! - 1
                || day.description != text
                || Day(text) != day {
                mismatches.append("\(number): expected \(text) weekday \(expected.weekday! - 1), got \(actual) \(day.weekday) \(day)")
                if mismatches.count >= 10 { break }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(try! Day(year: 2400, month: 3, day: 1).daysSince1970 == firstDay + 146_097)
    }

    // MARK: - Far years, by an independent day-by-day walk

    /// Walks day by day from -0801-01-01 to 0801-01-01 with a calendar counter of its own and checks
    /// that both conversions agree with it (year 0 is a leap year in the proleptic Gregorian calendar).
    @Test func walkThroughNegativeYearsAndYearZero() {
        var (year, month, dayOfMonth) = (-801, 1, 1)
        var number = try! Day(year: year, month: month, day: dayOfMonth).daysSince1970
        var mismatches: [String] = []
        while year < 801 {
            let day = Day(daysSince1970: number)
            if day.components != (year, month, dayOfMonth) || (try! Day(year: year, month: month, day: dayOfMonth)).daysSince1970 != number {
                mismatches.append("\(number): expected \(year)-\(month)-\(dayOfMonth), got \(day.components)")
                if mismatches.count >= 10 { break }
            }
            // Advance the independent counter.
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            dayOfMonth += 1
            if dayOfMonth > lengths[month - 1] {
                dayOfMonth = 1
                month += 1
                if month > 12 { month = 1; year += 1 }
            }
            number += 1
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        // 1602 years, 389 of them leap years (401 multiples of 4, less 12 centuries not divisible by 400).
        #expect(try! Day(year: 801, month: 1, day: 1).daysSince1970 - (try! Day(year: -801, month: 1, day: 1)).daysSince1970 == 1602 * 365 + 389)
    }

    /// Known distances to 1970-01-01 (proleptic Gregorian, as Python's `date.toordinal` counts them).
    @Test(arguments: [
        (1, 1, 1, -719_162),
        (1582, 10, 4, -141_438),
        (1582, 10, 15, -141_427),
        (1900, 1, 1, -25_567),
        (1969, 12, 31, -1),
        (1970, 1, 1, 0),
        (2000, 1, 1, 10_957),
        (2024, 2, 29, 19_782),
        (9999, 12, 31, 2_932_896),
        (0, 3, 1, -719_468),
        (0, 2, 29, -719_469),
    ])
    func knownDistances(year: Int, month: Int, dayOfMonth: Int, daysSince1970: Int) {
        let day = try! Day(year: year, month: month, day: dayOfMonth)
        #expect(day.daysSince1970 == daysSince1970)
        #expect(Day(daysSince1970: daysSince1970).components == (year, month, dayOfMonth))
        #expect(day.year == year)
        #expect(day.month == month)
        #expect(day.dayOfMonth == dayOfMonth)
    }

    /// The calendar repeats every 400 years (146 097 days), far into the past and the future.
    @Test(arguments: [-1_000_000, -10_000, -401, -400, -1, 0, 1, 1582, 1900, 9999, 1_000_000])
    func fourHundredYearPeriod(year: Int) {
        for (month, dayOfMonth) in [(1, 1), (2, 28), (3, 1), (12, 31)] {
            let day = try! Day(year: year, month: month, day: dayOfMonth)
            let later = try! Day(year: year + 400, month: month, day: dayOfMonth)
            #expect(later.daysSince1970 - day.daysSince1970 == 146_097)
            #expect(day.components == (year, month, dayOfMonth))
            #expect(later.components == (year + 400, month, dayOfMonth))
        }
    }

    // MARK: - Leap days

    @Test(arguments: [
        (2000, true), (1900, false), (2024, true), (2023, false), (2100, false), (2400, true),
        (1600, true), (1700, false), (4, true), (1, false), (0, true), (-1, false), (-4, true), (-100, false), (-400, true),
    ])
    func leapYears(year: Int, isLeap: Bool) {
        #expect(Day.isLeapYear(year) == isLeap)
        #expect(Day.daysInMonth(year: year, month: 2) == (isLeap ? 29 : 28))
        #expect(Day(normalizingYear: year, month: 2, day: 29).components == (isLeap ? (year, 2, 29) : (year, 3, 1)))
        #expect(((try? Day(year: year, month: 2, day: 29)) != nil) == isLeap)
        #expect(try! Day(year: year + 1, month: 1, day: 1).daysSince1970 - (try! Day(year: year, month: 1, day: 1)).daysSince1970 == (isLeap ? 366 : 365))
    }

    /// Text parsed (a `String` value: the failable `init?(_:)`), not a literal in code.
    private static func parsed(_ text: String) -> Day? {
        Day(text)
    }

    @Test func leapDayStrings() throws {
        let leapDay = try #require(Self.parsed("2000-02-29"))
        #expect(leapDay.components == (2000, 2, 29))
        #expect(leapDay.advanced(by: 1).description == "2000-03-01")
        #expect(Self.parsed("1900-02-29") == nil)
        #expect(Self.parsed("2023-02-29") == nil)
        #expect(Self.parsed("2024-02-29") == (try! Day(year: 2024, month: 2, day: 29)))
        #expect(Self.parsed("2024-02-30") == nil)
    }

    @Test("A day in code is a literal: what the parse gives, the same in every form; a literal that names no day stops the program")
    func literals() async {
        let written: Day = "2024-02-29"
        #expect(written == (try! Day(year: 2024, month: 2, day: 29)))
        #expect(Day("2024-02-29") == written)  // SE-0213: the literal, not the failable parse
        #expect(("+10000-01-01" as Day).components == (10_000, 1, 1))
        let window: ClosedRange<Day> = "2024-01-01"..."2024-01-07"
        #expect(window.upperBound.daysSince1970 - window.lowerBound.daysSince1970 == 6)
        // Every day of 2023–2025 written as its description reads back as itself.
        for offset in 0..<1_096 {
            let day = written.advanced(by: offset - 424)
            #expect(Day(stringLiteral: day.description) == day)
        }
        await #expect(processExitsWith: .failure) { _ = Day(stringLiteral: "2023-02-29") }
        await #expect(processExitsWith: .failure) { _ = Day(stringLiteral: "2024-2-1") }
    }

    @Test(arguments: [(1, 31), (2, 28), (3, 31), (4, 30), (5, 31), (6, 30), (7, 31), (8, 31), (9, 30), (10, 31), (11, 30), (12, 31)])
    func daysInMonth(month: Int, length: Int) {
        #expect(Day.daysInMonth(year: 2023, month: month) == length)
        // The last day of the month is followed by the first of the next.
        let last = try! Day(year: 2023, month: month, day: length)
        #expect(last.components == (2023, month, length))
        #expect(last.advanced(by: 1).dayOfMonth == 1)
    }

    // MARK: - Rollover of out-of-range fields

    @Test(arguments: [
        ((2024, 2, 30), (2024, 3, 1)),
        ((2023, 2, 29), (2023, 3, 1)),
        ((2024, 13, 1), (2025, 1, 1)),
        ((2024, 0, 1), (2023, 12, 1)),
        ((2024, 1, 0), (2023, 12, 31)),
        ((2024, 3, 0), (2024, 2, 29)),
        ((2024, -11, 1), (2023, 1, 1)),
        ((2024, -12, 1), (2022, 12, 1)),
        ((2024, 25, 1), (2026, 1, 1)),
        ((2024, 1, 366), (2024, 12, 31)),
        ((2024, 1, -365), (2022, 12, 31)),
    ])
    func rollover(fields: (Int, Int, Int), expected: (Int, Int, Int)) {
        #expect(Day(normalizingYear: fields.0, month: fields.1, day: fields.2).components == expected)
        // The checked initializer refuses what does not exist, and takes what does.
        let exists = fields == expected
        #expect(((try? Day(year: fields.0, month: fields.1, day: fields.2)) != nil) == exists)
    }

    @Test("Day(year:month:day:) and LocalDateTime(year:...) refuse what does not exist, as the command line does", arguments: [
        (2023, 2, 29), (2024, 2, 30), (2024, 4, 31), (2024, 13, 1), (2024, 0, 1), (2024, 1, 0), (2024, 1, 32),
    ])
    func impossible(year: Int, month: Int, day: Int) {
        #expect((try? Day(year: year, month: month, day: day)) == nil)
        #expect(LocalDateTime(year: year, month: month, day: day) == nil)
        #expect(LocalDateTime(year: 2024, month: 1, day: 1, hour: 24) == nil)
        #expect(LocalDateTime(year: 2024, month: 1, day: 1, minute: 60) == nil)
        #expect(LocalDateTime(normalizingYear: 2024, month: 1, day: 1, hour: 25) == LocalDateTime(year: 2024, month: 1, day: 2, hour: 1))
    }

    @Test("Day(year:month:day:) throws, so that a day that does not exist cannot become a silent nil, and says why")
    func impossibleSaysWhy() {
        #expect(throws: DayError(year: 2024, month: 2, day: 30)) { try Day(year: 2024, month: 2, day: 30) }
        #expect(DayError(year: 2024, month: 2, day: 30).description == "there is no day 30 in 2024-02, which has 29 days")
        #expect(DayError(year: 2023, month: 2, day: 29).description == "there is no day 29 in 2023-02, which has 28 days")
        #expect(DayError(year: 2024, month: 13, day: 1).description == "there is no month 13: months run from 01 to 12")
        #expect(DayError(year: 2024, month: 1, day: 0).description == "there is no day 00 in 2024-01, which has 31 days")
        #expect(DayError(year: 12024, month: 4, day: 31).description == "there is no day 31 in +12024-04, which has 30 days")
    }

    // MARK: - Weekday

    @Test(arguments: [
        ((1970, 1, 1), Weekday.thursday),
        ((2024, 2, 29), .thursday),
        ((1969, 12, 31), .wednesday),
        ((2000, 1, 1), .saturday),
        ((1, 1, 1), .monday),
        ((1582, 10, 15), .friday),
        ((1900, 3, 1), .thursday),
        ((2400, 3, 1), .wednesday),
        ((9999, 12, 31), .friday),
        ((2024, 2, 25), .sunday),
        ((2024, 2, 26), .monday),
    ])
    func weekday(fields: (Int, Int, Int), expected: Weekday) {
        #expect(try! Day(year: fields.0, month: fields.1, day: fields.2).weekday == expected)
    }

    @Test func weekdaysCycleBeforeAndAfter1970() {
        let thursday = try! Day(year: 1970, month: 1, day: 1)
        for offset in -21...21 {
            let expected = Weekday(rawValue: ((4 + offset) % 7 + 7) % 7)
            #expect(thursday.advanced(by: offset).weekday == expected, "offset \(offset)")
        }
    }

    @Test(arguments: [
        (Weekday.sunday, Weekday.monday, 6),
        (.monday, .monday, 0),
        (.monday, .sunday, 1),
        (.saturday, .sunday, 6),
        (.sunday, .sunday, 0),
        (.thursday, .monday, 3),
        (.monday, .thursday, 4),
        (.sunday, .saturday, 1),
    ])
    func weekdayDaysSince(weekday: Weekday, start: Weekday, expected: Int) {
        #expect(weekday.daysSince(start) == expected)
        #expect(start.advanced(by: expected) == weekday)
    }

    @Test func weekdayAdvanced() {
        #expect(Weekday.saturday.advanced(by: 1) == .sunday)
        #expect(Weekday.sunday.advanced(by: -1) == .saturday)
        #expect(Weekday.wednesday.advanced(by: 7) == .wednesday)
        #expect(Weekday.wednesday.advanced(by: -15) == .tuesday)
        #expect(Weekday.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 6])
    }

    // MARK: - Parsing

    @Test(arguments: [
        ("2024-02-29", 2024, 2, 29),
        ("1970-01-01", 1970, 1, 1),
        ("0000-01-01", 0, 1, 1),
        ("0001-12-31", 1, 12, 31),
        ("9999-12-31", 9999, 12, 31),
        ("2023-04-30", 2023, 4, 30),
    ])
    func parsesValidStrings(text: String, year: Int, month: Int, dayOfMonth: Int) throws {
        let day = try #require(Day(text))
        #expect(day.components == (year, month, dayOfMonth))
        #expect(day.description == text)
    }

    @Test(arguments: [
        "2024-2-1", "2024-13-01", "abcd-ef-gh", "", "2024-00-10", "2024-01-00", "2024-01-32", "2024-04-31",
        "2023-02-29", "1900-02-29", "2024/01/01", "20240101", "2024-01-01T00:00", " 2024-01-01", "2024-01-01 ",
        "2024-01-01-", "24-01-01", "02024-01-01", "2024-001-01", "2024--01", "2024-0x-01", "２０２４-01-01",
    ])
    func rejectsBadStrings(text: String) {
        #expect(Day(text) == nil)
    }

    /// The documentation promises `nil` for anything but `YYYY-MM-DD`, but `Int(_:)` accepts a leading `+`.
    @Test(arguments: ["2024-+1-01", "2024-01-+1", "+024-01-01"])
    func rejectsSignedFields(text: String) {
        #expect(Day(text) == nil)
    }

    // MARK: - Description

    @Test(arguments: [
        ((2024, 2, 29), "2024-02-29"),
        ((1970, 1, 1), "1970-01-01"),
        ((1, 1, 1), "0001-01-01"),
        ((0, 1, 1), "0000-01-01"),
        ((999, 9, 9), "0999-09-09"),
        ((9999, 12, 31), "9999-12-31"),
        ((10_000, 1, 1), "+10000-01-01"),
        ((-1, 12, 31), "-0001-12-31"),
        ((-10_000, 6, 15), "-10000-06-15"),
    ])
    func description(fields: (Int, Int, Int), expected: String) {
        #expect(try! Day(year: fields.0, month: fields.1, day: fields.2).description == expected)
    }

    /// `LosslessStringConvertible` requires `Day(day.description) == day`.
    @Test(arguments: [(1970, 1, 1), (0, 1, 1), (9999, 12, 31), (2024, 2, 29)])
    func descriptionRoundTripsInYears0Through9999(fields: (Int, Int, Int)) {
        let day = try! Day(year: fields.0, month: fields.1, day: fields.2)
        #expect(Day(day.description) == day)
    }

    @Test(arguments: [(10_000, 1, 1), (-1, 12, 31)])
    func descriptionRoundTripsOutsideYears0Through9999(fields: (Int, Int, Int)) {
        let day = try! Day(year: fields.0, month: fields.1, day: fields.2)
        #expect(Day(day.description) == day)
    }

    // MARK: - Codable

    @Test func encodesAsDateString() throws {
        let days = [try! Day(year: 2024, month: 2, day: 29), try! Day(year: 1970, month: 1, day: 1), try! Day(year: 5, month: 6, day: 7)]
        let json = try sortedJSON(days)
        #expect(json == #"["2024-02-29","1970-01-01","0005-06-07"]"#)
        let decoded = try JSONDecoder().decode([Day].self, from: Data(json.utf8))
        #expect(decoded == days)
    }

    @Test(arguments: [#"["2024-02-30"]"#, #"["2024-2-1"]"#, #"[20240201]"#, #"[null]"#])
    func decodingRejectsBadDates(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([Day].self, from: Data(json.utf8))
        }
    }

    @Test func encodesOutsideYears0Through9999() throws {
        let day = try! Day(year: 10_000, month: 1, day: 1)
        #expect(try sortedJSON([day]) == #"["+10000-01-01"]"#)
        let decoded = try JSONDecoder().decode([Day].self, from: Data(try sortedJSON([day]).utf8))
        #expect(decoded == [day])
    }

    // MARK: - Arithmetic

    @Test func arithmeticAndOrdering() {
        let start = try! Day(year: 2023, month: 12, day: 30)
        #expect(start.advanced(by: 3).description == "2024-01-02")
        #expect(start.advanced(by: -365).description == "2022-12-30")
        #expect(start.distance(to: try! Day(year: 2024, month: 3, day: 1)) == 62)
        #expect(try! Day(year: 2024, month: 3, day: 1).distance(to: start) == -62)
        #expect(start < start.advanced(by: 1))
        #expect(!(start < start))
        #expect(Array(start...start.advanced(by: 3)).map(\.description) == ["2023-12-30", "2023-12-31", "2024-01-01", "2024-01-02"])
        #expect(Array(stride(from: start, to: start.advanced(by: 10), by: 4)).map(\.dayOfMonth) == [30, 3, 7])
    }

    @Test(arguments: [
        ((2024, 2, 29), (2024, 2, 1)),
        ((2024, 1, 1), (2024, 1, 1)),
        ((2023, 12, 31), (2023, 12, 1)),
        ((1969, 12, 31), (1969, 12, 1)),
        ((-1, 3, 15), (-1, 3, 1)),
    ])
    func firstOfMonth(fields: (Int, Int, Int), expected: (Int, Int, Int)) {
        #expect(try! Day(year: fields.0, month: fields.1, day: fields.2).firstOfMonth.components == expected)
    }
}
