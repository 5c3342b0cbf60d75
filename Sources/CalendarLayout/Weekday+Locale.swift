// Foundation is used here only, to read a locale's conventions once; layout itself never calls it.
public import Foundation
import CalendarDays

extension Weekday {
    /// The weekday that starts the week in `locale` (from its region, or its `fw` keyword).
    ///
    /// Read it once, outside any hot path, and pass it to `MonthGrid` or `MonthStack`:
    ///
    /// ```swift
    /// print(Weekday.firstWeekday(of: Locale(identifier: "en_US")), Weekday.firstWeekday(of: Locale(identifier: "de_DE")))
    /// // Prints "sunday monday"
    /// ```
    public static func firstWeekday(of locale: Locale) -> Weekday {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        // Foundation numbers weekdays 1 (Sunday) to 7 (Saturday).
        return Weekday(rawValue: calendar.firstWeekday - 1) ?? .sunday
    }
}
