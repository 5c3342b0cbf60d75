/// A wall-clock date and time with no time zone attached, to the second.
///
/// ```swift
/// let time = LocalDateTime(year: 2024, month: 2, day: 25, hour: 6, minute: 30)!
/// print(time)
/// // Prints "2024-02-25T06:30:00"
/// ```
public struct LocalDateTime: Hashable, Comparable, Sendable {
    /// Seconds since 1970-01-01T00:00:00 on the same wall clock (not an instant: no zone is implied).
    public var secondsSince1970: Int64

    /// Creates a wall-clock time from its distance to 1970-01-01T00:00:00.
    @inlinable
    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    /// Creates a wall-clock time from a day and the seconds since its midnight.
    @inlinable
    public init(day: Day, secondOfDay: Int) {
        self.secondsSince1970 = Int64(day.daysSince1970) * 86_400 + Int64(secondOfDay)
    }

    /// Creates a wall-clock time from its fields; `nil` for a date or time that does not exist
    /// (2023-02-29, 24:00, minute 60).
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard let date = try? Day(year: year, month: month, day: day), (0...23).contains(hour), (0...59).contains(minute),
              (0...59).contains(second) else { return nil }
        self.init(day: date, secondOfDay: hour * 3600 + minute * 60 + second)
    }

    /// Creates a wall-clock time from fields that may lie outside their ranges: they roll over, as in
    /// date arithmetic (25:00 is 01:00 the next day).
    public init(normalizingYear year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.init(day: Day(normalizingYear: year, month: month, day: day), secondOfDay: hour * 3600 + minute * 60 + second)
    }

    /// The calendar day.
    @inlinable
    public var day: Day {
        Day(daysSince1970: Int(secondsSince1970.dividedRoundingDown(by: 86_400)))
    }

    /// Seconds since midnight, 0..<86400.
    @inlinable
    public var secondOfDay: Int {
        Int(secondsSince1970.remainderRoundingDown(dividingBy: 86_400))
    }

    /// The hour, minute and second.
    public var timeOfDay: (hour: Int, minute: Int, second: Int) {
        let seconds = secondOfDay
        return (seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    /// The time `seconds` later on the same wall clock.
    @inlinable
    public func advanced(bySeconds seconds: Int64) -> LocalDateTime {
        LocalDateTime(secondsSince1970: secondsSince1970 + seconds)
    }

    @inlinable
    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }
}

extension LocalDateTime: CustomStringConvertible {
    /// The ISO 8601 form `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        let (hour, minute, second) = timeOfDay
        return "\(day)T\(Day.pad(hour, width: 2)):\(Day.pad(minute, width: 2)):\(Day.pad(second, width: 2))"
    }

    /// `HH:MM`, the form session cards show.
    public var hourMinute: String {
        let (hour, minute, _) = timeOfDay
        return "\(Day.pad(hour, width: 2)):\(Day.pad(minute, width: 2))"
    }
}
