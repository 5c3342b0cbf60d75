// Crosses between Foundation's `Date` and StreakCal's days and times. `Date` is Foundation's, so
// this example imports Foundation itself; StreakCal's own API needs no Foundation import.
import Foundation
import StreakCal

let newYork = TimeZoneRules(identifier: "America/New_York")!
let instant = Date(timeIntervalSince1970: 1_709_190_000)  // 2024-02-29T07:00:00Z

// The day a session starting then counts toward, with days that begin at 04:00.
print(Day(instant, in: newYork, dayStart: DayStart(hour: 4)!))
// Prints "2024-02-28"

// When 29 February begins in New York, with that day start.
print(Day("2024-02-29").start(in: newYork, dayStart: DayStart(hour: 4)!))
// Prints "2024-02-29 09:00:00 +0000"

// A floating time becomes an instant only in a zone; 02:30 does not exist on 31 March 2024 in Berlin.
let floating = SessionTime.floating(LocalDateTime(year: 2024, month: 3, day: 31, hour: 2, minute: 30)!)
print(floating.date(in: TimeZoneRules(identifier: "Europe/Berlin")!))
// Prints "2024-03-31 01:30:00 +0000"

print(SessionTime(instant) == .instant(secondsSince1970: 1_709_190_000))
// Prints "true"
