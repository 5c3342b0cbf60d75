import CalendarDays
import Testing
@testable import Streaks

/// Days after today (issue 46: planned sessions counted as done): a report given today scores the
/// days through it as a window ending today would, and the later ones are upcoming.
@Suite("Upcoming days")
struct UpcomingDaysTests {
    static let first = try! Day(year: 2026, month: 11, day: 30)

    /// A report from 2026-11-30 of `points`, today `today` days after the first day.
    static func report(_ points: [Int], today offset: Int?, rules: StreakRules = StreakRules(requiredPoints: 100)) -> StreakReport {
        StreakReport(
            goal: StreakGoal(timeZone: .utc), rules: rules, firstDay: first, points: points, sessionCounts: points.map { $0 > 0 ? 1 : 0 },
            today: offset.map { first.advanced(by: $0) })
    }

    @Test("Days after today are upcoming; what is scored is what a window ending today scores", arguments: 0..<8)
    func prefixScored(today: Int) {
        let points = [100, 100, 0, 100, 50, 100, 100, 100]
        let report = Self.report(points, today: today)
        let ending = Self.report(Array(points.prefix(today + 1)), today: nil)
        #expect(Array(report.days.prefix(today + 1)) == ending.days)
        #expect(report.days.dropFirst(today + 1).allSatisfy { $0.status == .upcoming })
        #expect(report.days.count == points.count)
        #expect(report.currentStreak == ending.currentStreak)
        #expect(report.longestStreak == ending.longestStreak)
        #expect(report.score == ending.score)
        #expect(report.statusCounts[.upcoming] == (today + 1 < points.count ? points.count - today - 1 : nil))
    }

    @Test("Today before the window: every day is upcoming, nothing is scored; today after it: nothing is upcoming")
    func outsideTheWindow() {
        let before = Self.report([100, 100], today: -3)
        #expect(before.days.map(\.status) == [.upcoming, .upcoming])
        #expect(before.currentStreak.length == 0 && before.score == 0)
        let after = Self.report([100, 100], today: 10)
        #expect(after == Self.report([100, 100], today: nil))
    }

    @Test("Under a period goal, the week holding today is scored by its days so far, whole; weeks after it are upcoming")
    func periods() throws {
        var rules = StreakRules(requiredPoints: 100)
        rules.periodGoal = PeriodGoal(length: .week(firstWeekday: .monday), target: .metDays(2))
        // 2026-11-30 is a Monday: three weeks, today the Wednesday of the first.
        let report = Self.report(Array(repeating: 100, count: 21), today: 2, rules: rules)
        #expect(report.periods.count == 3)
        #expect(report.periods[0].days == Self.first...Self.first.advanced(by: 6))
        #expect(report.periods[0].metDays == 3 && report.periods[0].status == .met)
        #expect(report.periods[1].status == .upcoming && report.periods[2].status == .upcoming)
        #expect(report.currentStreak.length == 1)
    }
}

extension UpcomingDaysTests {
    @Test("Upcoming days are in no chart: not in the week and month sums, not in the weekday figures")
    func charts() {
        let report = Self.report(Array(repeating: 100, count: 14), today: 6)
        let sums = report.sums(byWeekStarting: .monday)
        #expect(sums.count == 1 && sums[0].required == 700 && sums[0].metDays == 7)
        #expect(report.weekdayFrequency.map(\.counted).reduce(0, +) == 7)
    }
}

/// Under a period goal without a daily goal, days are met by any points (issue 46.5).
@Suite("Period goals without a daily goal")
struct ActiveDayTests {
    @Test("A day with any points is met, none otherwise; a daily goal given keeps its partial days")
    func activeDays() throws {
        var rules = StreakRules()
        rules.periodGoal = PeriodGoal(length: .month, target: .points(300))
        #expect(rules.scoresActiveDays)
        #expect(rules.daySchedule.defaultPoints == 1)
        let first = try Day(year: 2024, month: 2, day: 1)
        let report = StreakReport(goal: StreakGoal(timeZone: .utc), rules: rules, firstDay: first,
                                  points: [0, 30, 100, 120], sessionCounts: [0, 1, 1, 1])
        #expect(report.days.map(\.status) == [DayStatus.none, .met, .met, .met])
        #expect(report.goal.requiredPoints == 1)
        var daily = StreakRules(requiredPoints: 100)
        daily.periodGoal = rules.periodGoal
        #expect(!daily.scoresActiveDays)
        let scored = StreakReport(goal: StreakGoal(timeZone: .utc), rules: daily, firstDay: first,
                                  points: [0, 30, 100, 120], sessionCounts: [0, 1, 1, 1])
        #expect(scored.days.map(\.status) == [DayStatus.none, .partial, .met, .met])
        var limit = rules
        limit.atMost = true
        #expect(!limit.scoresActiveDays)
    }
}
