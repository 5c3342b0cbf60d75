// A program that embeds StreakCal gives it what a command would read from the machine: the
// instant "now", the zone a user named, and what to do when a calendar cannot be read, decided
// by the error's code rather than its words.
import StreakCal

let now: Int64 = 1_709_251_200  // 2024-03-01 00:00 UTC: "today" is taken from it, never from a clock

// A zone named by a user is looked up: an unknown name is nil, never UTC.
print(TimeZoneRules(identifier: "Mars/Olympus") == nil)
// Prints "true"

var settings = ReportSettings(
    timeZone: TimeZoneRules(identifier: "Europe/Berlin"),
    from: Day("2024-02-19"), to: Day("2024-02-25"))
settings.requiredPoints = 60  // GoalSchedule.pointsRange; a number outside it stops the program

do {
    _ = try settings.scored([.file("Fixtures/no-such-calendar.ics")], now: now)
} catch {
    // `error` is a CalendarReadError: `scored` throws nothing else.
    switch error.code {
    case .notFound, .isDirectory: print(error.code, error.path)
    default: print("cannot read it:", error)
    }
    // Prints "not-found Fixtures/no-such-calendar.ics"
}

let scored = try settings.scored([.file("Fixtures/tutorial-sample.ics")], now: now)
print(scored.report.goal.timeZone.identifier, scored.report.days.map(\.status.rawValue))
// Prints "Europe/Berlin ["none", "met", "none", "none", "none", "partial", "met"]"

// Rendering cannot fail: every scored calendar has a document in every format.
let markdown = ReportFormat.md.render(scored)
print(markdown.hasPrefix("# "))
// Prints "true"
