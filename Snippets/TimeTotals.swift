// Where the time went: minutes per category and month, as `streakcal totals --by category --per month` counts them.
// Foundation gives `Date`: "now" is the caller's to pass (the library reads no clock).
import Foundation
import StreakCal

var settings = ReportSettings(timeZone: "UTC", from: Day("2024-01-01"), to: Day("2024-02-29"))
settings.firstWeekday = .monday
let scored = try settings.totals([.file("Fixtures/habits.ics")], by: .category, per: .month, now: Int64(Date().timeIntervalSince1970))
let totals = scored.timeTotals!
for group in totals.groups {
    print(group.group, group.total.sessions, group.total.minutes, "minutes,", group.averageMinutes, "a month")
}
print("every session once:", totals.overall.minutes, "minutes")
print(TotalsReport(totals, timeZone: "UTC").csv(lineEnding: .lf), terminator: "")
// Prints:
// (none) 3 120 minutes, 60.0 a month
// piano 2 60 minutes, 30.0 a month
// music 1 30 minutes, 15.0 a month
// vacation 1 0 minutes, 0.0 a month
// every session once: 180 minutes
// period,group,sessions,minutes,points,metDays,days
// 2024-01-01,(none),3,120,80,,
// 2024-01-01,piano,2,60,60,,
// 2024-01-01,music,1,30,30,,
// 2024-01-01,vacation,1,0,0,,
