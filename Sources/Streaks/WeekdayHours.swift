/// When the time goes: the seconds of sessions by weekday and hour of the day in a zone, each
/// session spread over the hours it covers (WakaTime's and CalendarTimeTracker's hour heatmaps).
///
/// ```swift
/// var hours = WeekdayHours()
/// // 2024-01-01 (a Monday) 07:30 to 09:00 UTC.
/// hours.add(from: 1_704_094_200, to: 1_704_099_600, in: .utc)
/// print(hours.minutes[0][7], hours.minutes[0][8])
/// // Prints "30 60"
/// ```
public struct WeekdayHours: Hashable, Sendable {
    /// Seconds by weekday, Monday first as ISO 8601 has it (0 Monday ... 6 Sunday), then by hour
    /// (0...23): `seconds[weekday * 24 + hour]`.
    public private(set) var seconds: [Int64] = Array(repeating: 0, count: 7 * 24)

    public init() {}

    /// The whole minutes (rounded) of each weekday, Monday first, by hour: `minutes[weekday][hour]`.
    public var minutes: [[Int]] {
        (0..<7).map { weekday in (0..<24).map { hour in Int((seconds[weekday * 24 + hour] + 30) / 60) } }
    }

    /// Adds the time from `start` to `end` (seconds since 1970, `end` exclusive), read on `zone`'s
    /// wall clock, counting only what lies in `limits` when given: each hour it covers gets its part.
    /// A walk of at most one step per hour, so a session costs its length in hours; one without a
    /// change of the zone's offset inside it costs a few additions.
    public mutating func add(from start: Int64, to end: Int64, in zone: TimeZoneRules, within limits: Range<Int64>? = nil) {
        var from = start, to = end
        if let limits {
            from = max(from, limits.lowerBound)
            to = min(to, limits.upperBound)
        }
        while from < to {
            let offset = Int64(zone.utcOffset(at: from))
            // Until the offset changes or the session ends: local time is instant + offset.
            let spanEnd = min(to, nextOffsetChange(after: from, before: to, in: zone, offset: offset))
            addLocal(from: from + offset, to: spanEnd + offset)
            from = spanEnd
        }
    }

    /// The first instant after `instant` (and before `limit`) where `zone`'s offset is not
    /// `offset`; `limit` when none. A span of under a week with the same offset at both ends has
    /// no change inside (zones change at most a few times a year), so most sessions ask no more.
    private func nextOffsetChange(after instant: Int64, before limit: Int64, in zone: TimeZoneRules, offset: Int64) -> Int64 {
        if limit - instant < 7 * 86_400, Int64(zone.utcOffset(at: limit - 1)) == offset { return limit }
        return zone.transitions(in: instant...(limit - 1)).first { $0.instant > instant && Int64($0.offsetAfter) != offset }?.instant ?? limit
    }

    /// Adds local seconds `from..<to` (seconds since 1970 on the wall clock) hour by hour.
    private mutating func addLocal(from: Int64, to: Int64) {
        var from = from
        while from < to {
            let hourEnd = min(to, (from.floorDivided(by: 3_600) + 1) * 3_600)
            let day = from.floorDivided(by: 86_400)
            // 1970-01-01 was a Thursday: Monday-first index 3.
            let weekday = Int((day + 3).positiveRemainder(dividingBy: 7))
            let hour = Int(from.positiveRemainder(dividingBy: 86_400) / 3_600)
            seconds[weekday * 24 + hour] += hourEnd - from
            from = hourEnd
        }
    }

    /// Adds another table's seconds.
    public mutating func add(_ other: WeekdayHours) {
        for index in seconds.indices { seconds[index] += other.seconds[index] }
    }

    /// Whether no time was counted.
    public var isEmpty: Bool { seconds.allSatisfy { $0 == 0 } }

    /// The busiest hour: its weekday (0 Monday ... 6 Sunday) and hour; the earliest of equals; `nil` when empty.
    public var peakHour: (weekday: Int, hour: Int)? {
        guard let most = seconds.max(), most > 0, let index = seconds.firstIndex(of: most) else { return nil }
        return (index / 24, index % 24)
    }

    /// The busiest weekday (0 Monday ... 6 Sunday) and its minutes; `nil` when empty.
    public var peakWeekday: (weekday: Int, minutes: Int)? {
        let days = (0..<7).map { weekday in seconds[(weekday * 24)..<(weekday * 24 + 24)].reduce(0, +) }
        guard let most = days.max(), most > 0, let weekday = days.firstIndex(of: most) else { return nil }
        return (weekday, Int((most + 30) / 60))
    }

    /// English weekday names, Monday first.
    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
}

extension Int64 {
    /// The quotient rounded down (toward minus infinity).
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder in `0..<divisor` (for a positive divisor).
    fileprivate func positiveRemainder(dividingBy divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
