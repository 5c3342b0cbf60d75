import Foundation
import Streaks
import Testing

/// The FSCalendar tutorial's sample: floating times, 100 points required.
private let tutorialSessions = [
    Session(id: "1", start: .floating(wall(2024, 2, 20, 8)), end: .floating(wall(2024, 2, 20, 9)), points: 100),
    Session(id: "2", start: .floating(wall(2024, 2, 24, 12)), end: .floating(wall(2024, 2, 24, 13)), points: 30),
    Session(id: "3", start: .floating(wall(2024, 2, 25, 6, 30)), end: .floating(wall(2024, 2, 25, 7)), points: 80),
    Session(id: "4", start: .floating(wall(2024, 2, 25, 3, 12)), end: .floating(wall(2024, 2, 25, 3, 40)), points: 20),
    Session(id: "5", start: .floating(wall(2024, 2, 26, 9)), end: .floating(wall(2024, 2, 26, 10)), points: 120),
]

private let utcGoal = StreakGoal(requiredPoints: 100, timeZone: .utc)

private func tutorialReport(to last: Day = ymd(2024, 2, 29), goal: StreakGoal = utcGoal) -> StreakReport {
    StreakReport(sessions: tutorialSessions, goal: goal, window: ymd(2024, 2, 20)...last)
}

private func scoredReport(points: [Int], required: Int = 100) -> StreakReport {
    StreakReport(goal: StreakGoal(requiredPoints: required, timeZone: .utc), firstDay: ymd(2024, 1, 1),
                 points: points, sessionCounts: points.map { $0 > 0 ? 1 : 0 })
}

@Suite("StreakReport")
struct StreakReportTests {
    // MARK: - The tutorial sample

    @Test(arguments: [
        (20, 100, 1, DayStatus.met),
        (21, 0, 0, .none),
        (22, 0, 0, .none),
        (23, 0, 0, .none),
        (24, 30, 1, .partial),
        (25, 100, 2, .met),
        (26, 120, 1, .met),
        (27, 0, 0, .none),
        (28, 0, 0, .none),
        (29, 0, 0, .none),
    ])
    func tutorialDays(dayOfMonth: Int, points: Int, sessions: Int, status: DayStatus) throws {
        let total = try #require(tutorialReport().total(on: ymd(2024, 2, dayOfMonth)))
        #expect(total == DayTotal(date: ymd(2024, 2, dayOfMonth), points: points, sessions: sessions, status: status, required: 100))
    }

    @Test func tutorialWindow() {
        let report = tutorialReport()
        #expect(report.days.count == 10)
        #expect(report.days.map(\.date) == Array(ymd(2024, 2, 20)...ymd(2024, 2, 29)))
        #expect(report.days.map(\.points) == [100, 0, 0, 0, 30, 100, 120, 0, 0, 0])
        #expect(report.from == ymd(2024, 2, 20))
        #expect(report.to == ymd(2024, 2, 29))
        #expect(report.goal == utcGoal)
        #expect(report.longestStreak == Streak(from: ymd(2024, 2, 25), through: ymd(2024, 2, 26)))
        #expect(report.longestStreak.length == 2)
        #expect(report.currentStreak == .empty)
        #expect(report.currentStreak.length == 0)
        #expect(report.statusCounts == [.none: 6, .partial: 1, .met: 3])
        #expect(report.totalPoints == 350)
        #expect(report.totalSessions == 5)
        #expect(report.total(on: ymd(2024, 2, 19)) == nil)
        #expect(report.total(on: ymd(2024, 3, 1)) == nil)
    }

    /// `statusCounts` against a count of each day's status in a dictionary: `none`, `partial` and
    /// `met` always there, the other three only when some day has them.
    @Test func statusCountsOfEveryMix() {
        var report = tutorialReport()
        let template = report.days[0]
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 7, 366, 3_653] {
            for round in 0..<20 {
                // Round 0 uses only the three statuses every report has; later rounds a random subset of six.
                let statuses = round == 0 ? [DayStatus.none, .partial, .met] : DayStatus.allCases.filter { _ in generator.next() % 2 == 0 }
                report.days = (0..<length).map { offset in
                    var day = template
                    day.date = ymd(2020, 1, 1).advanced(by: offset)
                    day.status = statuses.isEmpty ? .none : statuses[Int(generator.next() % UInt64(statuses.count))]
                    return day
                }
                var expected: [DayStatus: Int] = [.none: 0, .partial: 0, .met: 0]
                for day in report.days { expected[day.status, default: 0] += 1 }
                #expect(report.statusCounts == expected, "\(length) days of \(statuses)")
            }
        }
    }

    @Test(arguments: [
        // The last day met: the run ending on it.
        (26, 25, 26),
        // The last day not met yet: the run ending the day before still counts.
        (27, 25, 26),
        // Two days without: no current streak.
        (28, nil, nil),
        (29, nil, nil),
        // Only 2024-02-20 met, the last day.
        (20, 20, 20),
        // 2024-02-21 not met, 2024-02-20 met: the day before counts.
        (21, 20, 20),
        (25, 25, 25),
    ] as [(Int, Int?, Int?)])
    func tutorialCurrentStreak(lastDay: Int, start: Int?, end: Int?) {
        let report = tutorialReport(to: ymd(2024, 2, lastDay))
        #expect(report.currentStreak.start == start.map { ymd(2024, 2, $0) })
        #expect(report.currentStreak.end == end.map { ymd(2024, 2, $0) })
        #expect(report.currentStreak.length == (start.map { end! - $0 + 1 } ?? 0))
    }

    @Test func tutorialWithFourOClockDayStart() throws {
        // The 03:12 session moves to the 24th: 24 has 50 points in 2 sessions, 25 has 80 in 1.
        let goal = StreakGoal(requiredPoints: 100, timeZone: .utc, dayStart: try #require(DayStart("04:00")))
        let report = tutorialReport(goal: goal)
        #expect(report.total(on: ymd(2024, 2, 24)) == DayTotal(date: ymd(2024, 2, 24), points: 50, sessions: 2, status: .partial, required: 100))
        #expect(report.total(on: ymd(2024, 2, 25)) == DayTotal(date: ymd(2024, 2, 25), points: 80, sessions: 1, status: .partial, required: 100))
        // Two runs of one day (20 and 26): the earliest wins.
        #expect(report.longestStreak == Streak(from: ymd(2024, 2, 20), through: ymd(2024, 2, 20)))
        #expect(report.statusCounts == [.none: 6, .partial: 2, .met: 2])
        #expect(report.totalPoints == 350)
    }

    /// Floating times are read on the wall clock, so the zone does not change the tutorial's totals.
    @Test(arguments: ["Europe/Berlin", "America/Los_Angeles", "Pacific/Apia"])
    func tutorialIsTheSameInEveryZone(zone: String) throws {
        let goal = StreakGoal(requiredPoints: 100, timeZone: try #require(TimeZoneRules(identifier: zone)))
        let report = tutorialReport(goal: goal)
        #expect(report.days.map(\.points) == [100, 0, 0, 0, 30, 100, 120, 0, 0, 0])
        #expect(report.longestStreak == Streak(from: ymd(2024, 2, 25), through: ymd(2024, 2, 26)))
    }

    // MARK: - Streaks: boundary tables

    @Test(arguments: [
        // empty, one, two, many
        ([], nil, nil, nil, nil),
        ([100], 0, 0, 0, 0),
        ([0], nil, nil, nil, nil),
        ([99], nil, nil, nil, nil),
        ([100, 100], 0, 1, 0, 1),
        ([100, 0], 0, 0, 0, 0),
        ([0, 100], 1, 1, 1, 1),
        ([100, 0, 0], 0, 0, nil, nil),
        ([100, 100, 0, 100], 0, 1, 3, 3),
        // Ties: the earliest of equally long runs.
        ([100, 0, 100, 100, 0, 100, 100], 2, 3, 5, 6),
        ([100, 100, 50, 100, 100, 100, 0, 100, 100, 100], 3, 5, 7, 9),
        ([150, 100, 99, 100, 250, 0, 0], 0, 1, nil, nil),
        ([0, 100, 100, 100, 100, 100, 30], 1, 5, 1, 5),
    ] as [([Int], Int?, Int?, Int?, Int?)])
    func streaks(points: [Int], longestStart: Int?, longestEnd: Int?, currentStart: Int?, currentEnd: Int?) {
        let first = ymd(2024, 1, 1)
        let report = scoredReport(points: points)
        #expect(report.longestStreak == Streak(start: longestStart.map(first.advanced(by:)), end: longestEnd.map(first.advanced(by:))))
        #expect(report.currentStreak == Streak(start: currentStart.map(first.advanced(by:)), end: currentEnd.map(first.advanced(by:))))
        #expect(report.longestStreak.length == longestStart.map { longestEnd! - $0 + 1 } ?? 0)
        #expect(report.currentStreak.length == currentStart.map { currentEnd! - $0 + 1 } ?? 0)
        #expect(report.days.count == points.count)
    }

    @Test func emptyDays() {
        let report = scoredReport(points: [])
        #expect(report.days.isEmpty)
        #expect(report.longestStreak == .empty)
        #expect(report.currentStreak == .empty)
        #expect(report.statusCounts == [.none: 0, .partial: 0, .met: 0])
        #expect(report.totalPoints == 0)
        #expect(report.totalSessions == 0)
        #expect(report.total(on: ymd(2024, 1, 1)) == nil)
    }

    @Test func goalThresholds() {
        let report = scoredReport(points: [1, 2, 3, 0, 3], required: 3)
        #expect(report.days.map(\.status) == [.partial, .partial, .met, .none, .met])
        #expect(report.longestStreak == Streak(from: ymd(2024, 1, 3), through: ymd(2024, 1, 3)))
        #expect(report.currentStreak == Streak(from: ymd(2024, 1, 5), through: ymd(2024, 1, 5)))
    }

    @Test func sessionCountsShorterThanPoints() {
        let report = StreakReport(goal: utcGoal, firstDay: ymd(2024, 1, 30), points: [100, 20, 0], sessionCounts: [3])
        #expect(report.days == [
            DayTotal(date: ymd(2024, 1, 30), points: 100, sessions: 3, status: .met, required: 100),
            DayTotal(date: ymd(2024, 1, 31), points: 20, sessions: 0, status: .partial, required: 100),
            DayTotal(date: ymd(2024, 2, 1), points: 0, sessions: 0, status: .none, required: 100),
        ])
    }

    // MARK: - Sessions

    @Test func emptySessions() {
        let report = StreakReport(sessions: [Session](), goal: utcGoal, window: ymd(2024, 2, 20)...ymd(2024, 2, 22))
        #expect(report.days.map(\.status) == [.none, .none, .none])
        #expect(report.longestStreak.length == 0)
        #expect(report.longestStreak.start == nil)
        #expect(report.longestStreak.end == nil)
        #expect(report.currentStreak.length == 0)
        #expect(report.currentStreak.start == nil)
        #expect(report.currentStreak.end == nil)
        #expect(report.totalSessions == 0)
    }

    @Test func oneDayWindow() {
        let report = StreakReport(sessions: tutorialSessions, goal: utcGoal, window: ymd(2024, 2, 25)...ymd(2024, 2, 25))
        #expect(report.days == [DayTotal(date: ymd(2024, 2, 25), points: 100, sessions: 2, status: .met, required: 100)])
        #expect(report.longestStreak == Streak(from: ymd(2024, 2, 25), through: ymd(2024, 2, 25)))
        #expect(report.currentStreak == report.longestStreak)
    }

    @Test func sessionsOutsideTheWindowAreNotCounted() {
        let sessions = tutorialSessions + [
            Session(id: "before", start: .floating(wall(2024, 2, 19, 23, 59, 59)), end: .floating(wall(2024, 2, 20)), points: 500),
            Session(id: "after", start: .floating(wall(2024, 3, 1)), end: .floating(wall(2024, 3, 1, 1)), points: 500),
            Session(id: "long before", start: .date(ymd(1999, 1, 1)), end: .date(ymd(1999, 1, 2)), points: 500),
        ]
        let report = StreakReport(sessions: sessions, goal: utcGoal, window: ymd(2024, 2, 20)...ymd(2024, 2, 29))
        // The day before the window only starts the score (Loop scores a habit over its history):
        // the met 19th moves it from 0 by one day's step; 1999 is past the twenty years carried in.
        #expect(report.scoreBeforeWindow == 1 - StreakReport.scoreMultiplier)
        var expected = tutorialReport()
        expected.scoreBeforeWindow = 1 - StreakReport.scoreMultiplier
        #expect(report == expected)
        #expect(report.score > tutorialReport().score)
        #expect(report.totalSessions == 5)
        #expect(report.totalPoints == 350)
    }

    @Test func zeroPointSessionsCountButMakeNoDayPartial() {
        let sessions = [
            Session(id: "zero", start: .floating(wall(2024, 2, 21, 10)), end: .floating(wall(2024, 2, 21, 11)), points: 0),
            Session(id: "negative", start: .floating(wall(2024, 2, 21, 12)), end: .floating(wall(2024, 2, 21, 13)), points: -40),
            Session(id: "met", start: .floating(wall(2024, 2, 22, 12)), end: .floating(wall(2024, 2, 22, 13)), points: 100),
            Session(id: "zero too", start: .floating(wall(2024, 2, 22, 14)), end: .floating(wall(2024, 2, 22, 15)), points: 0),
        ]
        let report = StreakReport(sessions: sessions, goal: utcGoal, window: ymd(2024, 2, 21)...ymd(2024, 2, 22))
        #expect(report.days == [
            DayTotal(date: ymd(2024, 2, 21), points: 0, sessions: 2, status: .none, required: 100),
            DayTotal(date: ymd(2024, 2, 22), points: 100, sessions: 2, status: .met, required: 100),
        ])
        #expect(report.totalSessions == 4)
        #expect(report.statusCounts == [.none: 1, .partial: 0, .met: 1])
    }

    @Test func instantsAreTotalledByTheGoalsZone() throws {
        // 2024-02-20T23:30Z: the 20th in UTC, the 21st in Berlin, the 20th in Los Angeles (15:30).
        let sessions = [Session(id: "late", start: .instant(secondsSince1970: utcInstant(2024, 2, 20, 23, 30)),
                                end: .instant(secondsSince1970: utcInstant(2024, 2, 21, 0, 30)), points: 100)]
        let window = ymd(2024, 2, 20)...ymd(2024, 2, 21)
        let utc = StreakReport(sessions: sessions, goal: utcGoal, window: window)
        #expect(utc.days.map(\.points) == [100, 0])
        let berlin = StreakReport(sessions: sessions, goal: StreakGoal(timeZone: try #require(TimeZoneRules(identifier: "Europe/Berlin"))),
                                  window: window)
        #expect(berlin.days.map(\.points) == [0, 100])
        #expect(berlin.currentStreak == Streak(from: ymd(2024, 2, 21), through: ymd(2024, 2, 21)))
        let losAngeles = StreakReport(sessions: sessions,
                                      goal: StreakGoal(timeZone: try #require(TimeZoneRules(identifier: "America/Los_Angeles"))),
                                      window: window)
        #expect(losAngeles.days.map(\.points) == [100, 0])
        #expect(losAngeles.currentStreak == Streak(from: ymd(2024, 2, 20), through: ymd(2024, 2, 20)))
    }

    @Test func allDaySessionsCountOnTheirDate() throws {
        let sessions = [Session(id: "all day", start: .date(ymd(2024, 2, 21)), end: .date(ymd(2024, 2, 22)), points: 100)]
        for zone in ["Pacific/Kiritimati", "Pacific/Pago_Pago"] {
            let goal = StreakGoal(timeZone: try #require(TimeZoneRules(identifier: zone)), dayStart: try #require(DayStart("04:00")))
            let report = StreakReport(sessions: sessions, goal: goal, window: ymd(2024, 2, 20)...ymd(2024, 2, 22))
            #expect(report.days.map(\.points) == [0, 100, 0], "in \(zone)")
        }
    }

    /// The sessions initializer and the precomputed-totals initializer agree.
    @Test func initializersAgree() {
        let precomputed = StreakReport(goal: utcGoal, firstDay: ymd(2024, 2, 20),
                                       points: [100, 0, 0, 0, 30, 100, 120, 0, 0, 0], sessionCounts: [1, 0, 0, 0, 1, 2, 1, 0, 0, 0])
        #expect(precomputed == tutorialReport())
    }

    // MARK: - The default window

    @Test func defaultWindowStartsAtTheEarliestSession() {
        let window = StreakReport.window(for: tutorialSessions, goal: utcGoal, from: nil, to: ymd(2024, 2, 29))
        #expect(window == ymd(2024, 2, 20)...ymd(2024, 2, 29))
        // The order of the sessions does not matter.
        #expect(StreakReport.window(for: tutorialSessions.reversed(), goal: utcGoal, from: nil, to: ymd(2024, 2, 29)) == window)
    }

    @Test func defaultWindowWithoutSessions() {
        #expect(StreakReport.window(for: [Session](), goal: utcGoal, from: nil, to: ymd(2024, 2, 29)) == ymd(2024, 2, 29)...ymd(2024, 2, 29))
    }

    @Test func defaultWindowWhenEverySessionIsLater() {
        let later = [Session(id: "later", start: .floating(wall(2024, 3, 5, 10)), end: .floating(wall(2024, 3, 5, 11)), points: 100)]
        #expect(StreakReport.window(for: later, goal: utcGoal, from: nil, to: ymd(2024, 2, 29)) == ymd(2024, 2, 29)...ymd(2024, 2, 29))
    }

    @Test func explicitFrom() {
        #expect(StreakReport.window(for: tutorialSessions, goal: utcGoal, from: ymd(2024, 2, 1), to: ymd(2024, 2, 29))
            == ymd(2024, 2, 1)...ymd(2024, 2, 29))
        #expect(StreakReport.window(for: tutorialSessions, goal: utcGoal, from: ymd(2024, 2, 24), to: ymd(2024, 2, 29))
            == ymd(2024, 2, 24)...ymd(2024, 2, 29))
        // `from` after `to`: a one-day window on `from`.
        #expect(StreakReport.window(for: tutorialSessions, goal: utcGoal, from: ymd(2024, 3, 10), to: ymd(2024, 2, 29))
            == ymd(2024, 3, 10)...ymd(2024, 3, 10))
    }

    @Test func defaultWindowUsesTheGoalsZoneAndDayStart() throws {
        // 2024-02-20T02:00Z: the 19th in Los Angeles, the 20th in UTC, the 19th in UTC with a 04:00 day start.
        let sessions = [Session(id: "early", start: .instant(secondsSince1970: utcInstant(2024, 2, 20, 2)),
                                end: .instant(secondsSince1970: utcInstant(2024, 2, 20, 3)), points: 10)]
        let to = ymd(2024, 2, 29)
        #expect(StreakReport.window(for: sessions, goal: utcGoal, from: nil, to: to).lowerBound == ymd(2024, 2, 20))
        let losAngeles = StreakGoal(timeZone: try #require(TimeZoneRules(identifier: "America/Los_Angeles")))
        #expect(StreakReport.window(for: sessions, goal: losAngeles, from: nil, to: to).lowerBound == ymd(2024, 2, 19))
        let early = StreakGoal(timeZone: .utc, dayStart: try #require(DayStart("04:00")))
        #expect(StreakReport.window(for: sessions, goal: early, from: nil, to: to).lowerBound == ymd(2024, 2, 19))
    }

    // MARK: - Goal

    /// Below 1 stops the program (RuleRangeTests): 0 and −5 no longer become 1 without a word.
    @Test(arguments: [100, 1, 1_000_000_000])
    func requiredPointsAreKept(given: Int) {
        #expect(StreakGoal(requiredPoints: given, timeZone: .utc).requiredPoints == given)
    }

    @Test(arguments: [(0, DayStatus.none), (-1, .none), (1, .partial), (99, .partial), (100, .met), (1_000, .met)])
    func statusForPoints(points: Int, status: DayStatus) {
        #expect(utcGoal.status(forPoints: points) == status)
    }

    @Test func goalDefaults() {
        let goal = StreakGoal(timeZone: .utc)
        #expect(goal.requiredPoints == 100)
        #expect(goal.dayStart == .midnight)
        #expect(goal.timeZone == .utc)
    }

    // MARK: - JSON

    @Test func emptyStreakJSON() throws {
        #expect(try sortedJSON(Streak.empty) == #"{"end":null,"length":0,"start":null}"#)
        let decoded = try JSONDecoder().decode(Streak.self, from: Data(#"{"end":null,"length":0,"start":null}"#.utf8))
        #expect(decoded == .empty)
        #expect(try JSONDecoder().decode(Streak.self, from: Data("{}".utf8)) == .empty)
    }

    @Test func streakJSON() throws {
        let streak = Streak(from: ymd(2024, 2, 25), through: ymd(2024, 2, 26))
        let json = try sortedJSON(streak)
        #expect(json == #"{"end":"2024-02-26","length":2,"start":"2024-02-25"}"#)
        #expect(try JSONDecoder().decode(Streak.self, from: Data(json.utf8)) == streak)
        #expect(try sortedJSON(tutorialReport().longestStreak) == json)
        #expect(try sortedJSON(tutorialReport().currentStreak) == #"{"end":null,"length":0,"start":null}"#)
    }

    @Test func dayTotalJSON() throws {
        let total = DayTotal(date: ymd(2024, 2, 25), points: 100, sessions: 2, status: .met)
        let json = try sortedJSON(total)
        #expect(json == #"{"date":"2024-02-25","points":100,"sessions":2,"status":"met"}"#)
        #expect(try JSONDecoder().decode(DayTotal.self, from: Data(json.utf8)) == total)
        #expect(try sortedJSON(DayStatus.allCases) == #"["none","partial","met","rest","skipped","frozen","over","upcoming","covered"]"#)
    }

    @Test func streakLength() {
        #expect(Streak.empty.length == 0)
        #expect(Streak(start: ymd(2024, 1, 1), end: nil).length == 0)
        #expect(Streak(start: nil, end: ymd(2024, 1, 1)).length == 0)
        #expect(Streak(from: ymd(2023, 12, 30), through: ymd(2024, 1, 2)).length == 4)
        #expect(Streak(from: ymd(2024, 2, 28), through: ymd(2024, 3, 1)).length == 3)
    }
}

@Suite("The default window")
struct DefaultWindowTests {
    @Test("Without a first day a report covers the sessions' days, at most ten years; the cut is said", arguments: [
        (nil as Int?, 0, nil as Int?),          // no sessions: the last day alone
        (-10, -10, nil),                         // the earliest session's day
        (-3_652, -3_652, nil),                   // exactly 3,653 days: nothing cut
        (-3_653, -3_652, -3_653),                // one day more: cut, and the cut said
        (-739_000, -3_652, -739_000),            // year 1 (output-amplification reproducer)
        (5, 0, nil),                             // a session after the last day: the last day alone
    ])
    func bounded(earliestOffset: Int?, startOffset: Int, cutOffset: Int?) {
        let last = try! Day(year: 2024, month: 12, day: 31)
        let (window, cutOff) = StreakReport.defaultWindow(earliestSessionDay: earliestOffset.map { last.advanced(by: $0) }, to: last)
        #expect(window == last.advanced(by: startOffset)...last)
        #expect(cutOff == cutOffset.map { last.advanced(by: $0) })
        #expect(window.count <= StreakReport.maximumDefaultDays)
    }
}
