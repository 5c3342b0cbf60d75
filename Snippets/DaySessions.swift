// Lists one day's sessions in start order, as `streakcal sessions --on` prints them.
// Foundation gives `Date`: "now" is the caller's to pass (the library reads no clock).
import Foundation
import StreakCal

let settings = ReportSettings(requiredPoints: 100, timeZone: "UTC")
let day = try settings.sessions(on: Day("2024-02-25"), in: [.file("Fixtures/tutorial-sample.ics")], now: Int64(Date().timeIntervalSince1970))
print(day.cards.render(), terminator: "")
// Prints:
// Sessions on 2024-02-25 (UTC): 100 of 100 points, met
//   03:12–04:04      20 points  Early session
//   06:30–09:50      80 points  Success with the next session
