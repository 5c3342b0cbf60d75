// Reports on several calendars at once, each on its own, in parallel: what `streakcal batch` does
// for files and folders, here for calendars in memory, rendered but not written.
// Foundation gives `Date`: "now" is the caller's to pass (the library reads no clock).
import Foundation
import StreakCal

let sources: [CalendarSource] = [
    .file("Fixtures/tutorial-sample.ics"),
    .string("BEGIN:VEVENT\nUID:x\nDTSTART:20240226T090000Z\nX-POINTS:100\nEND:VEVENT", name: "one-day.ics"),
    .file("Fixtures/no-such-file.ics"),
]
var settings = ReportSettings(requiredPoints: 100, timeZone: "UTC")
settings.to = Day("2024-02-29")
let batch = BatchReport(sources: sources, settings: settings, format: .csv, jobs: 2, recordsElapsedTime: false, now: Int64(Date().timeIntervalSince1970))

let results = batch.render().map(\.result)
print(BatchSummary(format: .csv, files: results).table(), terminator: "")
// Prints:
// FILE                          NAME                                SESSIONS  DAYS MET  CURRENT  LONGEST  DIAGNOSTICS  ERROR
// Fixtures/tutorial-sample.ics  FSCalendar streaks tutorial sample         5         3        0        2  1 warning
// one-day.ics                   one-day                                    1         1        0        1  1 note
// Fixtures/no-such-file.ics     no-such-file                               -         -        -        -  -            cannot read Fixtures/no-such-file.ics: no such file
// 3 files, 1 failed
