public import Foundation

// Foundation's `Date` is an instant; StreakCal's days and wall-clock times only become instants in
// a zone. These bridges say which zone every time.

extension SessionTime {
    /// The latest and earliest seconds a `Date` is read as: ±2⁵³, beyond which a `Double` no longer
    /// holds every second (about 285 million years either side of 1970).
    static let dateLimit: Int64 = 1 << 53

    /// The instant of `date`, to the second (rounded down).
    ///
    /// A `Date` beyond ±2⁵³ seconds of 1970 (about 285 million years), or not finite, is read as the
    /// nearest of those ends.
    public init(_ date: Date) {
        self = .instant(secondsSince1970: Self.seconds(of: date))
    }

    /// The instant as a `Date`: floating times are read in `zone`, dates are their midnight in it.
    ///
    /// ```swift
    /// let start = SessionTime.floating(LocalDateTime(year: 2024, month: 3, day: 31, hour: 2, minute: 30)!)
    /// print(start.date(in: TimeZoneRules(identifier: "Europe/Berlin")!))
    /// // Prints "2024-03-31 01:30:00 +0000" (02:30 does not occur that day; RFC 5545 reads it as 03:30 CEST)
    /// ```
    public func date(in zone: TimeZoneRules) -> Date {
        Date(timeIntervalSince1970: TimeInterval(instant(in: zone)))
    }

    static func seconds(of date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard !seconds.isNaN else { return 0 }
        return Int64(min(max(seconds, -Double(dateLimit)), Double(dateLimit)))
    }
}

extension Day {
    /// The day `date` counts toward in `zone`: its local date there, shifted back by `dayStart`, as
    /// a session starting at `date` counts (`Session.day(in:dayStart:)`).
    ///
    /// ```swift
    /// let newYork = TimeZoneRules(identifier: "America/New_York")!
    /// let today = Day(Date(), in: newYork, dayStart: DayStart(hour: 4)!)
    /// ```
    public init(_ date: Date, in zone: TimeZoneRules, dayStart: DayStart = .midnight) {
        let local = zone.localDateTime(at: SessionTime.seconds(of: date))
        self = local.advanced(bySeconds: -Int64(dayStart.secondsAfterMidnight)).day
    }

    /// The instant this day begins in `zone`: its `dayStart` wall-clock time there, read as RFC 5545
    /// reads local times (in a spring gap, the time after it; in an autumn overlap, the first).
    public func start(in zone: TimeZoneRules, dayStart: DayStart = .midnight) -> Date {
        let local = LocalDateTime(day: self, secondOfDay: dayStart.secondsAfterMidnight)
        return Date(timeIntervalSince1970: TimeInterval(zone.instant(for: local)))
    }
}
