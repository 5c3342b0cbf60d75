// Which day a session counts toward: the local date of its start in the report's zone, moved back
// by the day start; an all-day event counts on its date in any zone.
import StreakCal

let lateNight = Session(
    id: "late", start: .instant(secondsSince1970: 1_708_998_000), end: .instant(secondsSince1970: 1_709_001_600),
    points: 50)  // 2024-02-27T01:40:00Z to 02:40Z
let allDay = Session(
    id: "trip", start: .date(Day("2024-02-27")), end: .date(Day("2024-02-28")),
    points: 100)

let utc = TimeZoneRules.utc
let losAngeles = TimeZoneRules(identifier: "America/Los_Angeles")!
let fourAM = DayStart(hour: 4)!

print(lateNight.day(in: utc, dayStart: .midnight), lateNight.day(in: utc, dayStart: fourAM))
// Prints "2024-02-27 2024-02-26"
print(lateNight.day(in: losAngeles, dayStart: .midnight))
// Prints "2024-02-26"
print(allDay.day(in: utc, dayStart: fourAM), allDay.day(in: losAngeles, dayStart: .midnight))
// Prints "2024-02-27 2024-02-27"
