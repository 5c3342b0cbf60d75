/// How a day measures up against the goal.
public enum DayStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// No points at all.
    case none
    /// Some points, fewer than required.
    case partial
    /// At least the required points.
    case met
}

/// One day's total: its points, its number of sessions and its status.
public struct DayTotal: Hashable, Sendable, Codable {
    /// The day.
    public var date: Day
    /// The sum of the points of the sessions that count toward the day.
    public var points: Int
    /// How many sessions count toward the day.
    public var sessions: Int
    /// The day's status against the goal.
    public var status: DayStatus

    public init(date: Day, points: Int, sessions: Int, status: DayStatus) {
        self.date = date
        self.points = points
        self.sessions = sessions
        self.status = status
    }
}

/// A run of consecutive days that met the goal.
public struct Streak: Hashable, Sendable {
    /// The first day of the run, `nil` for an empty streak.
    public var start: Day?
    /// The last day of the run, `nil` for an empty streak.
    public var end: Day?

    /// The empty streak.
    public static let empty = Streak(start: nil, end: nil)

    public init(start: Day?, end: Day?) {
        self.start = start
        self.end = end
    }

    /// The run from `start` to `end`, both included.
    public init(from start: Day, through end: Day) {
        self.start = start
        self.end = end
    }

    /// The number of days in the run.
    public var length: Int {
        guard let start, let end else { return 0 }
        return start.distance(to: end) + 1
    }
}

extension Streak: Codable {
    private enum CodingKeys: String, CodingKey { case length, start, end }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            start: try container.decodeIfPresent(Day.self, forKey: .start),
            end: try container.decodeIfPresent(Day.self, forKey: .end))
    }

    /// Encodes `length`, `start` and `end`; the days are `null` for an empty streak.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(length, forKey: .length)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
    }
}

/// The goal and the frame in which sessions are totalled and days scored.
public struct StreakGoal: Hashable, Sendable {
    /// The points a day needs to be `met`; at least 1.
    public var requiredPoints: Int
    /// The zone whose local days the sessions are totalled by.
    public var timeZone: TimeZoneRules
    /// When each day begins.
    public var dayStart: DayStart

    public init(requiredPoints: Int = 100, timeZone: TimeZoneRules, dayStart: DayStart = .midnight) {
        self.requiredPoints = max(1, requiredPoints)
        self.timeZone = timeZone
        self.dayStart = dayStart
    }

    /// The status of a day with `points` points.
    @inlinable
    public func status(forPoints points: Int) -> DayStatus {
        points <= 0 ? .none : points < requiredPoints ? .partial : .met
    }

    /// The local day, in this goal's zone and day start, that an instant belongs to.
    public func day(containing instant: Int64) -> Day {
        timeZone.localDateTime(at: instant).advanced(bySeconds: -Int64(dayStart.secondsAfterMidnight)).day
    }
}

/// Every day of a window scored against a goal, with the streaks.
///
/// ```swift
/// let report = StreakReport(sessions: sessions, goal: StreakGoal(timeZone: .utc),
///                           window: Day(year: 2024, month: 2, day: 20)!...Day(year: 2024, month: 2, day: 26)!)
/// print(report.longestStreak.length, report.currentStreak.length)
/// // Prints "2 2" for the tutorial's sample data
/// ```
public struct StreakReport: Hashable, Sendable {
    /// The goal the days were scored against.
    public var goal: StreakGoal
    /// Every day of the window, ascending.
    public var days: [DayTotal]
    /// The run of met days ending on the window's last day or, if that day is not met (it is still
    /// open), on the day before.
    public var currentStreak: Streak
    /// The longest run of met days in the window; the earliest of equally long runs.
    public var longestStreak: Streak

    /// The first day of the window.
    public var from: Day { days.first?.date ?? Day(daysSince1970: 0) }
    /// The last day of the window.
    public var to: Day { days.last?.date ?? Day(daysSince1970: 0) }

    /// Totals `sessions` per day of `window` and scores the days against `goal`.
    ///
    /// Sessions whose day falls outside the window are not counted.
    public init<S: Sequence>(sessions: S, goal: StreakGoal, window: ClosedRange<Day>) where S.Element == Session {
        let first = window.lowerBound.daysSince1970
        let count = window.upperBound.daysSince1970 - first + 1
        var points = [Int](repeating: 0, count: count)
        var sessionCounts = [Int](repeating: 0, count: count)
        for session in sessions {
            let index = session.day(in: goal.timeZone, dayStart: goal.dayStart).daysSince1970 - first
            guard index >= 0, index < count else { continue }
            points[index] = Self.saturatingSum(points[index], session.points)
            sessionCounts[index] += 1
        }
        self.init(goal: goal, firstDay: window.lowerBound, points: points, sessionCounts: sessionCounts)
    }

    /// Scores days whose totals are already known: `points[i]` and `sessionCounts[i]` belong to
    /// `firstDay.advanced(by: i)`.
    public init(goal: StreakGoal, firstDay: Day, points: [Int], sessionCounts: [Int]) {
        var days: [DayTotal] = []
        days.reserveCapacity(points.count)
        var longest = Streak.empty
        var runStart: Day?
        for (index, dayPoints) in points.enumerated() {
            let date = firstDay.advanced(by: index)
            let status = goal.status(forPoints: dayPoints)
            let sessions = index < sessionCounts.count ? sessionCounts[index] : 0
            days.append(DayTotal(date: date, points: dayPoints, sessions: sessions, status: status))
            if status == .met {
                let start = runStart ?? date
                runStart = start
                if start.distance(to: date) + 1 > longest.length {
                    longest = Streak(from: start, through: date)
                }
            } else {
                runStart = nil
            }
        }
        self.goal = goal
        self.days = days
        self.longestStreak = longest
        self.currentStreak = StreakReport.currentStreak(in: days)
    }

    private static func currentStreak(in days: [DayTotal]) -> Streak {
        var end = days.count - 1
        if end >= 0, days[end].status != .met { end -= 1 }
        guard end >= 0, days[end].status == .met else { return .empty }
        var start = end
        while start > 0, days[start - 1].status == .met { start -= 1 }
        return Streak(from: days[start].date, through: days[end].date)
    }

    /// The number of days with each status.
    public var statusCounts: [DayStatus: Int] {
        var counts: [DayStatus: Int] = [.none: 0, .partial: 0, .met: 0]
        for day in days { counts[day.status, default: 0] += 1 }
        return counts
    }

    /// The sum of all days' points (saturating at `Int.max`).
    public var totalPoints: Int { days.reduce(0) { Self.saturatingSum($0, $1.points) } }

    /// `a + b`, or `Int.max` where that overflows (points are never negative).
    static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }

    /// The number of sessions counted in the window.
    public var totalSessions: Int { days.reduce(0) { $0 + $1.sessions } }

    /// The total for `day`, or `nil` outside the window.
    public func total(on day: Day) -> DayTotal? {
        guard let first = days.first else { return nil }
        let index = first.date.distance(to: day)
        return days.indices.contains(index) ? days[index] : nil
    }
}

extension StreakReport {
    /// The most days a report covers when the user names no first day: ten years up to its last
    /// day. A calendar with an event in year 1 would otherwise make a report of 2,000 years (a
    /// gigabyte of SVG); say so when it cuts (`defaultWindow(earliestSessionDay:to:)`).
    public static let maximumDefaultDays = 3_653

    /// The window a report covers when the user names no first day: from the day of the earliest
    /// session (or `to`, if there is none, or it is later) to `to`, at most `maximumDefaultDays`
    /// long; `cutOff` is the earliest session's day when the window starts after it.
    ///
    /// ```swift
    /// let (window, cutOff) = StreakReport.defaultWindow(
    ///     earliestSessionDay: Day(year: 1, month: 1, day: 1)!, to: Day(year: 2024, month: 12, day: 31)!)
    /// print(window.lowerBound, cutOff!)
    /// // Prints "2015-01-01 0001-01-01"
    /// ```
    public static func defaultWindow(earliestSessionDay: Day?, to: Day) -> (window: ClosedRange<Day>, cutOff: Day?) {
        let earliest = min(earliestSessionDay ?? to, to)
        let limit = to.advanced(by: -(maximumDefaultDays - 1))
        return earliest < limit ? (limit...to, earliest) : (earliest...to, nil)
    }

    /// The window a report covers: `from...to` when the user names a first day, else
    /// `defaultWindow(earliestSessionDay:to:)`'s.
    ///
    /// - Parameters:
    ///   - sessions: The sessions to be totalled.
    ///   - goal: The zone and day start that decide each session's day.
    ///   - from: The first day the user asked for, if any.
    ///   - to: The last day: the user's, or today.
    public static func window<S: Sequence>(
        for sessions: S, goal: StreakGoal, from: Day?, to: Day
    ) -> ClosedRange<Day> where S.Element == Session {
        if let from { return from...max(from, to) }
        return defaultWindow(earliestSessionDay: earliestDay(of: sessions, goal: goal), to: to).window
    }

    /// The day of the earliest session, in the goal's zone and day start.
    public static func earliestDay<S: Sequence>(of sessions: S, goal: StreakGoal) -> Day? where S.Element == Session {
        var earliest: Day?
        for session in sessions {
            let day = session.day(in: goal.timeZone, dayStart: goal.dayStart)
            if earliest.map({ day < $0 }) ?? true { earliest = day }
        }
        return earliest
    }
}

/// Per-day totals accumulated one session at a time, for imports too large to keep their sessions.
///
/// ```swift
/// var totals = DayTotals(goal: goal)
/// for session in sessions { totals.add(session) }
/// let report = totals.report(from: nil, to: today)
/// ```
///
/// The report is the one `StreakReport(sessions:goal:window:)` gives for the same sessions and the
/// window `StreakReport.window(for:goal:from:to:)` chooses.
public struct DayTotals: Sendable {
    /// The zone and day start that decide each session's day, and the points a day needs.
    public let goal: StreakGoal
    /// Points and sessions by day (days since 1970), one lookup per session.
    private var totals: [Int: (points: Int, sessions: Int)] = [:]
    /// The day of the earliest session added, if any.
    public private(set) var earliestDay: Day?

    public init(goal: StreakGoal) {
        self.goal = goal
    }

    /// Counts a session on its day.
    public mutating func add(_ session: Session) {
        let day = session.day(in: goal.timeZone, dayStart: goal.dayStart)
        if earliestDay.map({ day < $0 }) ?? true { earliestDay = day }
        Self.count(session.points, in: &totals[day.daysSince1970, default: (0, 0)])
    }

    /// Adds a session's points to its day's totals (in place: one dictionary lookup).
    private static func count(_ points: Int, in totals: inout (points: Int, sessions: Int)) {
        totals.points = StreakReport.saturatingSum(totals.points, points)
        totals.sessions += 1
    }

    /// The report from `from` (default: the earliest session's day, or `to`) through `to`.
    public func report(from: Day?, to: Day) -> StreakReport {
        let window = from.map { $0...max($0, to) } ?? StreakReport.defaultWindow(earliestSessionDay: earliestDay, to: to).window
        let first = window.lowerBound.daysSince1970
        let days = first...window.upperBound.daysSince1970
        return StreakReport(
            goal: goal, firstDay: window.lowerBound,
            points: days.map { totals[$0]?.points ?? 0 }, sessionCounts: days.map { totals[$0]?.sessions ?? 0 })
    }
}
