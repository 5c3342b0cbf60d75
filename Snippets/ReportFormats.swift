// Renders a scored calendar in the formats `streakcal report --format` offers: here the text
// report (named after the calendar's X-WR-CALNAME, with a month grid for a short window and the
// import's diagnostics at the end) and the CSV.
// Foundation gives `Date`: "now" is the caller's to pass (the library reads no clock).
import Foundation
import StreakCal

var settings = ReportSettings(requiredPoints: 100, timeZone: "UTC")
settings.from = Day("2024-02-24")
settings.to = Day("2024-02-27")
let scored = try settings.scored([.file("Fixtures/tutorial-sample.ics")], now: Int64(Date().timeIntervalSince1970))

print(ReportFormat.text.render(scored), terminator: "")
// Prints:
// Streak report: FSCalendar streaks tutorial sample, 2024-02-24 to 2024-02-27, UTC, goal 100 points a day
// Calendar: FSCalendar streaks tutorial sample (Fixtures/tutorial-sample.ics)
//
//    February 2024
// Su Mo Tu We Th Fr Sa
//              1  2  3
//  4  5  6  7  8  9 10
// 11 12 13 14 15 16 17
// 18 19 20 21 22 23 24◔
// 25✓26✓27·28 29
//
// ✓ met  ◔ partial, under 1/3  ◑ partial, 1/3 to 2/3  ◕ partial, 2/3 or more  · none
//
// Current streak: 2 days (2024-02-25 to 2024-02-26)
// Longest streak: 2 days (2024-02-25 to 2024-02-26)
// Days: 4 (met 2, partial 1, none 1)
// Points: 250 in 4 sessions
//
// 1 diagnostic (1 warning):
//   Fixtures/tutorial-sample.ics:18:7: warning: the event ends before it starts; the session is kept with its points

for row in ReportFormat.csv.render(scored).split(separator: "\r\n") { print(row) }
// Prints:
// date,points,sessions,status
// 2024-02-24,30,1,partial
// 2024-02-25,100,2,met
// 2024-02-26,120,1,met
// 2024-02-27,0,0,none
