// Reads `streakcal report --format json` (here rendered in process) with `Codable` and Foundation's
// `JSONDecoder`, so it imports Foundation. It names only the keys it needs: the contract promises
// these keys, and keys added later do not disturb it.
import Foundation
import StreakCal

struct Report: Decodable {
    struct DayEntry: Decodable {
        var date: String
        var points: Int
        var status: String
    }
    struct StreakEntry: Decodable {
        var length: Int
        var start: String?
    }
    var timeZone: String
    var requiredPoints: Int
    var days: [DayEntry]
    var longestStreak: StreakEntry
    var currentStreak: StreakEntry
}

var settings = ReportSettings(requiredPoints: 100, timeZone: "UTC")
settings.from = Day("2024-02-24")
settings.to = Day("2024-02-27")
let json = ReportFormat.json.render(try settings.scored([.file("Fixtures/tutorial-sample.ics")], now: Int64(Date().timeIntervalSince1970)), with: settings)

let report = try JSONDecoder().decode(Report.self, from: Data(json.utf8))
print(report.timeZone, report.requiredPoints, report.days.map(\.status))
// Prints "UTC 100 ["partial", "met", "met", "none"]"
print(report.longestStreak.length, report.longestStreak.start ?? "none", report.currentStreak.length)
// Prints "2 2024-02-25 2"
