// Scores sessions made in code with the `Streaks` library alone: no libical, no iCalendar. The
// sessions are the FSCalendar tutorial's, read as wall-clock ("floating") times.
import Streaks

func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> SessionTime {
    .floating(LocalDateTime(year: 2024, month: 2, day: day, hour: hour, minute: minute)!)
}
let sessions = [
    Session(id: "1", start: at(20, 8), end: at(20, 9, 4), points: 100),
    Session(id: "2", start: at(24, 12), end: at(24, 13, 15), points: 30),
    Session(id: "3", start: at(25, 6, 30), end: at(25, 9, 50), points: 80),
    Session(id: "4", start: at(25, 3, 12), end: at(25, 4, 4), points: 20),
    Session(id: "5", start: at(26, 9), end: at(26, 10), points: 120),
]

let goal = StreakGoal(requiredPoints: 100, timeZone: .utc)
let report = StreakReport(
    sessions: sessions, goal: goal,
    window: Day("2024-02-20")...Day("2024-02-29"))

print(report.days.map { "\($0.date.dayOfMonth):\($0.status)" }.joined(separator: " "))
// Prints "20:met 21:none 22:none 23:none 24:partial 25:met 26:met 27:none 28:none 29:none"
print("longest", report.longestStreak.start!, "to", report.longestStreak.end!)
// Prints "longest 2024-02-25 to 2024-02-26"
print("current", report.currentStreak.length)
// Prints "current 0" (29 February is still open; 28 February was not met)
