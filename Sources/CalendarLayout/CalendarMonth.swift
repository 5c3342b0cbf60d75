import CalendarDays

/// A month of the proleptic Gregorian calendar: a year (any integer; 0 is 1 BC) and a month 1–12.
///
/// Months are `Strideable`, so ranges of months are collections and month arithmetic is integer
/// arithmetic in any year:
///
/// ```swift
/// let month = CalendarMonth(year: 2024, month: 11)
/// print(month, month.advanced(by: 3), month.dayCount, month.firstDay)
/// // Prints "2024-11 2025-02 30 2024-11-01"
/// ```
public struct CalendarMonth: Hashable, Comparable, Sendable {
    /// The year; negative years and year 0 are astronomical years (year 0 is 1 BC).
    public let year: Int
    /// The month, 1 (January) to 12 (December).
    public let month: Int

    /// Creates a month; out-of-range months roll over into the neighbouring years.
    ///
    /// ```swift
    /// print(CalendarMonth(year: 2024, month: 13), CalendarMonth(year: 2024, month: 0))
    /// // Prints "2025-01 2023-12"
    /// ```
    public init(year: Int, month: Int) {
        let yearShift = (month - 1).dividedRoundingDown(by: 12)
        self.year = year + yearShift
        self.month = month - yearShift * 12
    }

    /// The month that contains `day`.
    ///
    /// ```swift
    /// print(CalendarMonth(containing: Day("2024-02-29")))
    /// // Prints "2024-02"
    /// ```
    public init(containing day: Day) {
        let (year, month, _) = day.components
        self.init(uncheckedYear: year, month: month)
    }

    init(uncheckedYear year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// Months since January of year 0 (negative before it): `year * 12 + month - 1`.
    var index: Int { year * 12 + (month - 1) }

    /// The month at `index` months after January of year 0.
    init(index: Int) {
        let year = (index).dividedRoundingDown(by: 12)
        self.init(uncheckedYear: year, month: index - year * 12 + 1)
    }

    /// The first day of the month.
    public var firstDay: Day { Day(normalizingYear: year, month: month, day: 1) }

    /// The last day of the month.
    public var lastDay: Day { firstDay.advanced(by: dayCount - 1) }

    /// The days of the month, as a range of `Day`s.
    ///
    /// ```swift
    /// let february = CalendarMonth(year: 2023, month: 2).days
    /// print(february.count, february.lowerBound, february.upperBound)
    /// // Prints "28 2023-02-01 2023-03-01"
    /// ```
    public var days: Range<Day> {
        let first = firstDay
        return first..<first.advanced(by: dayCount)
    }

    /// The number of days in the month, 28–31.
    public var dayCount: Int { Day.daysInMonth(year: year, month: month) }

    /// Whether `day` falls in this month.
    public func contains(_ day: Day) -> Bool { days.contains(day) }

    public static func < (lhs: CalendarMonth, rhs: CalendarMonth) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}

extension CalendarMonth: Strideable {
    /// The month `count` months later (earlier for a negative count).
    public func advanced(by count: Int) -> CalendarMonth {
        CalendarMonth(index: index + count)
    }

    /// The number of months from this month to `other`.
    public func distance(to other: CalendarMonth) -> Int {
        other.index - index
    }
}

extension CalendarMonth: CustomStringConvertible {
    /// `YYYY-MM`, with a sign and more digits for years outside 0...9999, as `Day` writes them.
    public var description: String {
        let text = firstDay.description
        return String(text[..<text.index(text.endIndex, offsetBy: -3)])
    }
}
