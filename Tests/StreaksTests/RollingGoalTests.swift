import Testing
@testable import Streaks

/// Rolling goals, "3 days in any 7" (issue 48.1), counted as Loop Habit Tracker counts its
/// frequency habits: windows that begin on a met day and hold the goal, moved together newest
/// first (its `EntryList.buildIntervals` and `snapIntervalsTogether`).
@Suite("Rolling goals")
struct RollingGoalTests {
    /// A report from 2024-01-01, one character a day: `M` 100 points (met), `p` 50, `.` none.
    static func report(_ pattern: String, goal text: String, requiredPoints: Int = 100) throws -> StreakReport {
        var rules = StreakRules(requiredPoints: requiredPoints)
        rules.periodGoal = try PeriodGoal(parsing: text)
        let points = pattern.map { $0 == "M" ? 100 : $0 == "p" ? 50 : 0 }
        return StreakReport(goal: StreakGoal(timeZone: .utc), rules: rules, firstDay: ymd(2024, 1, 1),
                            points: points, sessionCounts: points.map { $0 > 0 ? 1 : 0 })
    }

    /// `M` met, `c` covered, `p` partial, `.` none.
    static func marks(_ report: StreakReport) -> String {
        String(report.days.map { day -> Character in
            switch day.status {
            case .met: "M"
            case .covered: "c"
            case .partial: "p"
            case .none: "."
            default: "?"
            }
        })
    }

    /// January with met days on the given days of the month.
    static func january(met days: Set<Int>) -> String {
        String((1...31).map { days.contains($0) ? "M" : "." })
    }

    @Test("The issue's example, as Loop counts it: Jan 1–7, and Jan 17–27 rather than the issue's Jan 20–27")
    func issueExample() throws {
        let report = try Self.report(Self.january(met: [1, 3, 5, 20, 21, 23, 26]), goal: "7 days:3 days")
        // Windows: Jan 1–7 (reached on the 5th), Jan 20–26 (reached on the 23rd), Jan 21–27 (the
        // 26th). Loop moves Jan 20–26, which overlaps the newer Jan 21–27, back by three days, as far as
        // it still holds the 23rd: Jan 17–23, which holds the 20th, 21st and 23rd, three met days in
        // seven. So Loop shows Jan 17, 18 and 19 checked (YES_AUTO) and a streak of 11 days; the issue
        // names 8 (Jan 20–27), which leaves the window where it began. Loop decides: the issue asks
        // to count as Loop does.
        #expect(Self.marks(report) == "McMcMcc.........cccMMcMccMc....")
        #expect(report.bestStreaks.map(\.length) == [11, 7])
        #expect(report.longestStreak == Streak(from: ymd(2024, 1, 17), through: ymd(2024, 1, 27), length: 11))
        #expect(report.bestStreaks.last == Streak(from: ymd(2024, 1, 1), through: ymd(2024, 1, 7), length: 7))
        #expect(report.statusCounts[.covered] == 11)
        #expect(report.periods.isEmpty)
    }

    @Test("Loop's own cases: the windows of two days a week, and four windows moved together")
    func loopsOwnCases() {
        // buildIntervalsTwoPerWeek: checks 23, 22, 18, 15 and 8 days ago; index = 30 - days ago.
        var days = (0...30).map { DayTotal(date: ymd(2024, 1, 1).advanced(by: $0), points: 0, sessions: 0, status: .none) }
        for ago in [23, 22, 18, 15, 8] { days[30 - ago].status = .met }
        let windows = StreakReport.windows(of: days, length: 7, target: .metDays(2))
        #expect(windows == [
            .init(begin: 30 - 23, reached: 30 - 22, end: 30 - 17),
            .init(begin: 30 - 22, reached: 30 - 18, end: 30 - 16),
            .init(begin: 30 - 18, reached: 30 - 15, end: 30 - 12),
        ])
        // testSnapIntervalsTogether1: (begin, center, end) days ago, newest first in Loop.
        let loop = [(27, 27, 21), (20, 20, 14), (12, 12, 6), (8, 8, 2)]
            .map { StreakReport.RollingWindow(begin: 40 - $0.0, reached: 40 - $0.1, end: 40 - $0.2) }
        let expected = [(29, 27, 23), (22, 20, 16), (15, 12, 9), (8, 8, 2)]
            .map { StreakReport.RollingWindow(begin: 40 - $0.0, reached: 40 - $0.1, end: 40 - $0.2) }
        #expect(StreakReport.snapped(loop) == expected)
    }

    @Test("A points target: a window from a day with points that reaches the points within N days")
    func pointsTarget() throws {
        // 50 + 50 + 50 points on the 1st, 3rd and 4th: 150 within 4 days of the 1st. The window
        // covers its four days, partial ones (50 of their own 100) too; the 11th's 50 reach nothing.
        let report = try Self.report("p.pp......p.......", goal: "4 days:150 points")
        #expect(Self.marks(report) == "cccc......p.......")
        #expect(report.longestStreak.length == 4)
        let unreachable = try Self.report("p..p..p..p", goal: "3 days:150 points")
        #expect(unreachable.statusCounts[.covered] == nil && unreachable.longestStreak.length == 0)
    }

    @Test("Days after today stay upcoming; rest and skipped days keep their status")
    func upcomingAndRest() throws {
        var rules = StreakRules(requiredPoints: 100)
        rules.periodGoal = try PeriodGoal(parsing: "7 days:2 days")
        let points = [100, 0, 100, 0, 0, 0, 0, 0]
        let report = StreakReport(goal: StreakGoal(timeZone: .utc), rules: rules, firstDay: ymd(2024, 1, 1),
                                  points: points, sessionCounts: points.map { $0 > 0 ? 1 : 0 })
        let today = ymd(2024, 1, 4)
        var totals = DayTotals(goal: StreakGoal(timeZone: .utc), rules: rules)
        for (index, points) in points.enumerated() where points > 0 {
            totals.add(points: points, startingAt: .date(ymd(2024, 1, 1).advanced(by: index)))
        }
        let scored = totals.report(from: ymd(2024, 1, 1), to: ymd(2024, 1, 8), today: today)
        #expect(scored.days.map(\.status) == [.met, .covered, .met, .covered, .upcoming, .upcoming, .upcoming, .upcoming])
        #expect(scored.currentStreak.length == 4)
        #expect(Self.marks(report) == "McMcccc.")
    }

    @Test("Parsing: N days from 2 to 366, a target of at most N days or any points")
    func parsing() throws {
        #expect(try PeriodGoal(parsing: "7 days:3 days") == PeriodGoal(length: .days(7), target: .metDays(3)))
        #expect(try PeriodGoal(parsing: "30 days:600 points").length == .days(30))
        #expect(try PeriodGoal(parsing: "366 days:1 day").isRolling)
        for bad in ["1 days:1 day", "367 days:3 days", "7 days:8 days", "seven days:3 days", "7 weeks:3 days"] {
            #expect(throws: StreakRulesSyntaxError.self, "\(bad)") { try PeriodGoal(parsing: bad) }
        }
        #expect(try PeriodGoal(parsing: "7 days:3 days").unitName == "day")
    }

    /// Loop's way, written as it is there: met days newest first, windows from each, moved
    /// newest first, then every day of every window marked one by one (O(days × N)).
    static func reference(_ pattern: [Bool], length: Int, count: Int) -> [Bool] {
        let met = pattern.indices.filter { pattern[$0] }.reversed().map { $0 }
        var windows: [(begin: Int, center: Int, end: Int)] = []
        if met.count >= count {
            for index in (count - 1)..<met.count {
                let (begin, center) = (met[index], met[index - count + 1])
                if center - begin < length { windows.append((begin, center, begin + length - 1)) }
            }
        }
        if windows.count > 1 {
            for index in 1..<windows.count {
                let (current, next) = (windows[index], windows[index - 1])
                let gap = current.end - next.begin
                if gap >= 0 {
                    let shift = min(current.end - current.center, gap + 1)
                    windows[index] = (current.begin - shift, current.center, current.end - shift)
                }
            }
        }
        var covered = [Bool](repeating: false, count: pattern.count)
        for window in windows {
            for day in max(0, window.begin)...min(pattern.count - 1, window.end) where window.begin <= window.end { covered[day] = true }
        }
        return covered
    }

    @Test("Covered days are Loop's, on 3,000 random histories", arguments: [(2, 1), (7, 3), (7, 7), (10, 2), (30, 12)])
    func sameAsLoop(length: Int, count: Int) throws {
        var generator = SplitMix(seed: UInt64(length * 1_000 + count))
        for _ in 0..<600 {
            let size = Int(generator.next() % 90) + 1
            let pattern = (0..<size).map { _ in generator.next() % 100 < 35 }
            let report = try Self.report(String(pattern.map { $0 ? "M" : "." }), goal: "\(length) days:\(count) days")
            let expected = Self.reference(pattern, length: length, count: count)
            let got = report.days.map { $0.status == .covered || $0.status == .met }
            #expect(got == zip(pattern, expected).map { $0 || $1 }, "\(String(pattern.map { $0 ? "M" : "." }))")
        }
    }

    /// A small seeded generator, the same numbers on every run.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
