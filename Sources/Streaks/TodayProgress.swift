/// How today stands when a report's window ends today: the points it has, what it still needs
/// to be met, and whether the current streak is at risk.
///
/// Today is still open, so a report passes over it while it is not met (`StreakRules.todayGrace`):
/// the current streak stands through yesterday. It is *at risk* when it has a length and today
/// would end it if the day ended now: a day goal not met yet (or, with an at-most goal, already
/// over its limit), or a period goal whose week or month is not reached yet.
///
/// ```swift
/// let report = StreakReport(goal: StreakGoal(requiredPoints: 30, timeZone: .utc), firstDay: Day("2024-03-01"),
///                           points: [30, 30, 10], sessionCounts: [1, 1, 1])
/// let today = report.progress(on: Day("2024-03-03"))!
/// print(today.pointsNeeded, today.streakAtRisk)
/// // Prints "20 true"
/// ```
public struct TodayProgress: Hashable, Sendable {
    /// Today.
    public var day: Day
    /// Today's total and status as scored so far.
    public var total: DayTotal
    /// Points today still needs to meet its goal: 0 once met, on a rest or skipped day, and with
    /// an at-most goal (see ``pointsAllowed``). Under a period goal of points, what the period
    /// still needs.
    public var pointsNeeded: Int
    /// With an at-most goal, the points today may still have before it is over its limit (0 once
    /// over); `nil` otherwise.
    public var pointsAllowed: Int?
    /// Whether the current streak ends unless today is met (or, at most, stays under its limit).
    public var streakAtRisk: Bool
    /// The length of the current streak (days, or periods under a period goal).
    public var currentStreak: Int
    /// Under a period goal, the week or month today is in.
    public var period: PeriodTotal?
}

extension StreakReport {
    /// How `today` stands, when it is the window's last day; `nil` otherwise.
    public func progress(on today: Day) -> TodayProgress? {
        guard let total = days.last, total.date == today else { return nil }
        let counts = !total.status.isPassedOver
        var needed = counts && total.status != .met && !rules.atMost ? max(0, total.required - total.points) : 0
        var met = total.status == .met
        if let period = periods.last, case .points(let target) = period.target, !rules.atMost {
            needed = max(0, target - period.points)
        }
        if let period = periods.last { met = period.status == .met }
        let atRisk = currentStreak.length > 0 && counts && !met
        return TodayProgress(
            day: today, total: total, pointsNeeded: needed,
            pointsAllowed: rules.atMost ? max(0, total.required - total.points) : nil,
            streakAtRisk: atRisk, currentStreak: currentStreak.length, period: periods.last)
    }
}
