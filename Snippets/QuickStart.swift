// Scores the FSCalendar tutorial's sample calendar against a goal of 100 points a day and prints
// what the import said, the streaks and one line per day.
// Foundation gives `Date`: "now" is the caller's to pass (the library reads no clock).
import Foundation
import StreakCal

var settings = ReportSettings(requiredPoints: 100, timeZone: "UTC")
settings.from = Day("2024-02-20")
settings.to = Day("2024-02-29")

let scored = try settings.scored([.file("Fixtures/tutorial-sample.ics")], now: Int64(Date().timeIntervalSince1970))
for diagnostic in scored.imported.diagnostics { print(diagnostic) }
// Prints:
// Fixtures/tutorial-sample.ics:18:7: warning: the event ends before it starts; the session is kept with its points
//  18 | DTEND:20240224T011520
//     |       ^

let report = scored.report
print("longest", report.longestStreak.length, "current", report.currentStreak.length)
for day in report.days where day.status != .none {
    print(day.date, day.points, day.status)
}
// Prints:
// longest 2 current 0
// 2024-02-20 100 met
// 2024-02-24 30 partial
// 2024-02-25 100 met
// 2024-02-26 120 met
