// A library user's view of StreakCal: read a calendar, score its days, print the streaks.
//
//     swift run streak-summary Fixtures/tutorial-sample.ics
import StreakCal

let path = CommandLine.arguments.dropFirst().first ?? "Fixtures/tutorial-sample.ics"

do {
    // 1. Read sessions (and diagnostics) from an .ics file, recurring events up to the report's
    //    last day (29 February 2024).
    let lastDay = Day("2024-02-29")
    let importer = SessionImporter(pointsRule: .xPoints, expansion: RecurrenceExpansion(through: lastDay))
    let calendar = try importer.importSessions(from: .file(path))
    for diagnostic in calendar.diagnostics {
        print(diagnostic)
    }

    // 2. Score them against a goal, in a zone, over a window that ends on that day.
    let goal = StreakGoal(requiredPoints: 100, timeZone: .utc, dayStart: .midnight)
    let window = StreakReport.window(for: calendar.sessions, goal: goal, from: nil, to: lastDay)
    let report = StreakReport(sessions: calendar.sessions, goal: goal, window: window)

    // 3. Use the days and the streaks.
    for day in report.days where day.status != .none {
        print(day.date, day.points, day.status)
    }
    print("longest streak:", report.longestStreak.length, "days, current:", report.currentStreak.length)
} catch {
    print(error)
}
