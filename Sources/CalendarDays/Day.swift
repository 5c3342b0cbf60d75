/// A calendar day in the proleptic Gregorian calendar, stored as the number of days since 1970-01-01.
///
/// Day arithmetic is integer arithmetic, so it is cheap and exact in any year:
///
/// ```swift
/// let day = Day("2024-02-29")
/// print(day, day.advanced(by: 1), day.weekday)
/// // Prints "2024-02-29 2024-03-01 thursday"
/// ```
public struct Day: Hashable, Comparable, Sendable {
    /// Days since 1970-01-01 (negative before it).
    public var daysSince1970: Int

    /// Creates a day from its distance to 1970-01-01.
    @inlinable
    public init(daysSince1970: Int) {
        self.daysSince1970 = daysSince1970
    }

    /// Creates a day from a year, month (1–12) and day of month, or throws for a date that does not
    /// exist (as `streakcal` refuses `--to 2023-02-29`), saying why. It throws rather than
    /// returning `nil` so that `settings.from = Day("2024-02-30")` cannot compile
    /// into a silent `nil` (the default window); write `try?` where `nil` is what you want.
    ///
    /// ```swift
    /// print(Day("2024-02-29"))
    /// // Prints "2024-02-29"
    /// do { _ = Day("2023-02-29") } catch { print(error) }
    /// // Prints "there is no day 29 in 2023-02, which has 28 days"
    /// ```
    public init(year: Int, month: Int, day: Int) throws(DayError) {
        guard (1...12).contains(month), (1...Day.daysInMonth(year: year, month: month)).contains(day) else {
            throw DayError(year: year, month: month, day: day)
        }
        self.init(normalizingYear: year, month: month, day: day)
    }

    /// Creates a day from a year, month and day of month that may lie outside their ranges: they
    /// roll over, as in date arithmetic (`month: 13` is January of the next year, `day: 0` the last
    /// day of the month before, `day: 60` of January is 29 February in a leap year).
    ///
    /// ```swift
    /// print(Day(normalizingYear: 2024, month: 2, day: 30))
    /// // Prints "2024-03-01"
    /// ```
    public init(normalizingYear year: Int, month: Int, day: Int) {
        // Shift the year so that it starts in March: the leap day is then the last day of the year.
        let monthsFromMarch = month - 3
        let yearShift = monthsFromMarch >= 0 ? monthsFromMarch / 12 : (monthsFromMarch - 11) / 12
        let shiftedYear = year + yearShift
        let shiftedMonth = monthsFromMarch - yearShift * 12  // 0 = March ... 11 = February
        let era = shiftedYear.dividedRoundingDown(by: 400)
        let yearOfEra = shiftedYear - era * 400  // 0...399
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        self.daysSince1970 = era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month (1–12) and day of month (1–31).
    public var components: (year: Int, month: Int, day: Int) {
        let shifted = daysSince1970 + 719_468
        let era = shifted.dividedRoundingDown(by: 146_097)
        let dayOfEra = shifted - era * 146_097  // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 = March
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The year.
    public var year: Int { components.year }
    /// The month, 1–12.
    public var month: Int { components.month }
    /// The day of the month, 1–31.
    public var dayOfMonth: Int { components.day }

    /// The day of the week.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let index = (daysSince1970 + 4).remainderRoundingDown(dividingBy: 7)  // 0 = Sunday
        return Weekday(rawValue: index)!
    }

    /// The day `count` days later (earlier for a negative count).
    @inlinable
    public func advanced(by count: Int) -> Day {
        Day(daysSince1970: daysSince1970 + count)
    }

    /// The number of days from this day to `other`.
    @inlinable
    public func distance(to other: Day) -> Int {
        other.daysSince1970 - daysSince1970
    }

    /// The first day of this day's month.
    public var firstOfMonth: Day {
        let (year, month, _) = components
        return Day(normalizingYear: year, month: month, day: 1)
    }

    /// The number of days in the given month of the given year.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether `year` is a leap year in the proleptic Gregorian calendar.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    @inlinable
    public static func < (lhs: Day, rhs: Day) -> Bool {
        lhs.daysSince1970 < rhs.daysSince1970
    }
}

extension Day: Strideable {
    public typealias Stride = Int
}

extension Day: CustomStringConvertible {
    /// The ISO 8601 form, `YYYY-MM-DD` (years outside 0...9999 carry a sign and more digits).
    public var description: String {
        let (year, month, day) = components
        return "\(Day.yearText(year))-\(Day.pad(month, width: 2))-\(Day.pad(day, width: 2))"
    }

    /// Four digits, with a sign and more digits outside 0...9999.
    static func yearText(_ year: Int) -> String {
        (0...9999).contains(year) ? Day.pad(year, width: 4) : (year < 0 ? "-" : "+") + Day.pad(abs(year), width: 4)
    }

    static func pad(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Day: LosslessStringConvertible {
    /// Parses `YYYY-MM-DD` (and the signed form `description` gives years outside 0...9999, such as
    /// `+10000-01-01` or `-0001-12-31`); returns `nil` for anything else, including dates that do not
    /// exist (2023-02-29).
    public init?(_ text: String) {
        var body = Substring(text)
        var sign = 1
        if let first = body.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        let parts = body.split(separator: "-", omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard parts.count == 3, parts.allSatisfy(isDigits),
              body.count == text.count ? parts[0].count == 4 : parts[0].count >= 4,
              parts[1].count == 2, parts[2].count == 2, parts[0].count <= 9,
              let magnitude = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        let year = sign * magnitude
        guard let day = try? Day(year: year, month: month, day: day) else { return nil }
        self = day
    }
}

extension Day: ExpressibleByStringLiteral {
    /// A day written in code as `YYYY-MM-DD` (as ``init(_:)`` reads it): `let day: Day = "2024-02-29"`,
    /// or `Day("2024-02-29")`, which Swift reads as the same literal (SE-0213), not as the failable
    /// parse.
    ///
    /// ```swift
    /// let leapDay: Day = "2024-02-29"
    /// print(leapDay.advanced(by: 1))
    /// // Prints "2024-03-01"
    /// ```
    ///
    /// A literal that names no day (`"2023-02-29"`, `"2024-2-1"`) stops the program: it is a
    /// programmer's typo, found the first time the line runs. Text from elsewhere (a file, an
    /// option) goes through the failable ``init(_:)`` given a `String` value, or
    /// ``init(year:month:day:)``, which throws.
    public init(stringLiteral text: String) {
        guard let day = Day(text) else { preconditionFailure("Day: \"\(text)\" is not a day written YYYY-MM-DD") }
        self = day
    }
}

extension Day: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = Day(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected a date YYYY-MM-DD, got \(text)")
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A day of the week.
public enum Weekday: Int, CaseIterable, Sendable, Codable {
    case sunday = 0, monday, tuesday, wednesday, thursday, friday, saturday

    /// The weekday `count` days later.
    public func advanced(by count: Int) -> Weekday {
        Weekday(rawValue: (rawValue + count).remainderRoundingDown(dividingBy: 7))!
    }

    /// How many days after `start` this weekday comes, 0...6: `Weekday.sunday.daysSince(.monday)` is 6.
    public func daysSince(_ start: Weekday) -> Int {
        (rawValue - start.rawValue).remainderRoundingDown(dividingBy: 7)
    }
}

/// A year, month and day of month that name no day, such as 2023-02-29 or month 13.
public struct DayError: Error, Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// What is wrong: the month, or (in a real month) the day.
    public enum Code: String, Hashable, Sendable, Codable {
        /// A month outside 1...12.
        case noSuchMonth = "no-such-month"
        /// A day outside the month's days (2023-02-29, day 0).
        case noSuchDay = "no-such-day"
    }

    /// What is wrong, from the numbers.
    public var code: Code { (1...12).contains(month) ? .noSuchDay : .noSuchMonth }

    /// Why: "there is no month 13: months run from 01 to 12", or "there is no day 30 in 2024-02,
    /// which has 29 days".
    public var description: String {
        let twoDigits = { (number: Int) in number >= 0 ? Day.pad(number, width: 2) : String(number) }
        guard (1...12).contains(month) else {
            return "there is no month \(twoDigits(month)): months run from 01 to 12"
        }
        let length = Day.daysInMonth(year: year, month: month)
        return "there is no day \(twoDigits(day)) in \(Day.yearText(year))-\(twoDigits(month)), which has \(length) days"
    }
}
