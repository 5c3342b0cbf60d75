// Writes the calendar back out with one all-day event per day with sessions, carrying the day's
// status, as `streakcal annotate` does. `now` fixes "today" and the annotations' DTSTAMP.
import StreakCal

var settings = ReportSettings(requiredPoints: 100, timeZone: "UTC")
settings.to = Day("2024-02-29")
let annotated = try settings.annotated([.file("Fixtures/tutorial-sample.ics")], now: 1_709_164_800)

let summaries = annotated.text.split(separator: "\r\n").filter { $0.hasPrefix("SUMMARY:") && $0.contains("points") }
for line in summaries { print(line) }
// Prints:
// SUMMARY:✓ 100/100 points · streak 1
// SUMMARY:◐ 30/100 points
// SUMMARY:✓ 100/100 points · streak 1
// SUMMARY:✓ 120/100 points · streak 2
