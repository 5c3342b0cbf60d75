// Streak rules with the `Streaks` library alone: rest days from a schedule, a skipped day, a freeze,
// a weekly goal and a habit filter, on two weeks of sessions made in code (2024-01-01 is a Monday).
import Streaks

func session(_ day: Int, _ points: Int, _ summary: String = "Practice", categories: [String] = []) -> Session {
    let date = Day(normalizingYear: 2024, month: 1, day: day)
    return Session(id: "\(day)-\(summary)", start: .date(date), end: .date(date.advanced(by: 1)),
                   points: points, summary: summary, categories: categories)
}
let sessions = [
    session(1, 60), session(2, 60), session(3, 20), session(4, 60), session(5, 60),
    session(8, 60), session(10, 60), session(11, 60), session(12, 60),
    session(9, 0, "Holiday", categories: ["vacation"]),
    session(2, 45, "Scales", categories: ["piano"]),
]
let window = Day("2024-01-01")...Day("2024-01-14")
let goal = StreakGoal(timeZone: .utc)

var rules = StreakRules(requiredPoints: 60)
try rules.schedule.add(parsing: "sat-sun:0")    // weekends are rest days
rules.skipCategories = ["vacation"]             // an all-day "vacation" event skips its day
rules.freezes = FreezePolicy(budget: 1)         // one missed day forgiven
let report = StreakReport(sessions: sessions, goal: goal, rules: rules, window: window)

print(report.days.map { "\($0.date.dayOfMonth):\($0.status)" }.joined(separator: " "))
// Prints "1:met 2:met 3:frozen 4:met 5:met 6:rest 7:rest 8:met 9:skipped 10:met 11:met 12:met 13:rest 14:rest"
print("current", report.currentStreak.length, "from", report.currentStreak.start!, "freezes left", report.freezesLeft)
// Prints "current 9 from 2024-01-01 freezes left 0"

// Three met days a week, weeks from Monday: the streak counts weeks.
rules.periodGoal = try PeriodGoal(parsing: "week:3 days", firstWeekday: .monday)
let weekly = StreakReport(sessions: sessions, goal: goal, rules: rules, window: window)
print(weekly.periods.map { "\($0.days.lowerBound): \($0.metDays) met, \($0.status)" })
// Prints "["2024-01-01: 4 met, met", "2024-01-08: 4 met, met"]"

// A habit: only the sessions its filter takes count.
let piano = try Habit(parsing: "Piano=categories:piano")
let pianoReport = StreakReport(sessions: sessions.filter(piano.filter.matches), goal: goal,
                               rules: StreakRules(requiredPoints: 30), window: window)
print(piano.name, pianoReport.longestStreak.length, pianoReport.totalPoints)
// Prints "Piano 1 45"
