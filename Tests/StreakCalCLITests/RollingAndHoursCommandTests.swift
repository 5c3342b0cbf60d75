import Foundation
import Testing

/// Rolling goals and the hours view on the command line (issue 48.1, 48.2).
@Suite("streakcal report: rolling goals and the hours view")
struct RollingAndHoursCommandTests {
    /// An hour's run on January 1, 3, 5, 20, 21, 23 and 26, 2024 at 08:00 Berlin.
    static let runs = """
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:run
        DTSTART;TZID=Europe/Berlin:20240101T080000
        DURATION:PT1H
        RDATE;TZID=Europe/Berlin:20240103T080000,20240105T080000,20240120T080000,20240121T080000,20240123T080000,20240126T080000
        SUMMARY:Run
        CATEGORIES:sport
        END:VEVENT
        END:VCALENDAR
        """

    static let january = ["--tz", "Europe/Berlin", "--from", "2024-01-01", "--to", "2024-01-31", "--required", "30"]

    @Test("--period-goal '7 days:3 days': covered days in JSON and CSV, streaks in days, no calendar periods")
    func rollingGoal() throws {
        let run = try streakcal(["report", "-", "--period-goal", "7 days:3 days", "--format", "json"] + Self.january, input: Self.runs)
        #expect(run.status == 0, "\(run.standardError)")
        let document = try jsonObject(run.standardOutput)
        let totals = try #require(document["totals"] as? [String: Any])
        #expect(totals["daysCovered"] as? Int == 11 && totals["daysMet"] as? Int == 7)
        let longest = try #require(document["longestStreak"] as? [String: Any])
        #expect(longest["length"] as? Int == 11 && longest["start"] as? String == "2024-01-17" && longest["end"] as? String == "2024-01-27")
        #expect(document["streakUnit"] as? String == "day")
        #expect(document["periods"] == nil)
        let csv = try streakcal(["report", "-", "--period-goal", "7 days:3 days", "--format", "csv"] + Self.january, input: Self.runs)
        #expect(csv.standardOutput.contains("2024-01-02,0,0,covered"), "\(csv.standardOutput)")
        let text = try streakcal(["report", "-", "--period-goal", "7 days:3 days", "--view", "month"] + Self.january, input: Self.runs)
        #expect(text.standardOutput.contains("3 days met in any 7 days") && text.standardOutput.contains("◎ covered"), "\(text.standardOutput)")
        #expect(!text.standardOutput.contains("Periods ("))
    }

    @Test("A rolling goal in a rules file, for a habit; a window out of range is refused with its place")
    func rulesFile() throws {
        try withTemporaryFolder("rolling") { folder in
            let rules = folder.appendingPathComponent("rules.json")
            try #"{"habits": [{"name": "Run", "filter": "categories:sport", "periodGoal": "7 days:3 days"}]}"#.write(to: rules, atomically: true, encoding: .utf8)
            let run = try streakcal(["report", "-", "--rules", rules.path, "--format", "json"] + Self.january, input: Self.runs)
            #expect(run.status == 0, "\(run.standardError)")
            let habits = try #require(try jsonObject(run.standardOutput)["habits"] as? [[String: Any]])
            #expect((habits.first?["totals"] as? [String: Any])?["daysCovered"] as? Int == 11)
            let bad = try streakcal(["report", "-", "--period-goal", "1 days:1 day"] + Self.january, input: Self.runs)
            #expect(bad.status == 64 && bad.standardError.contains("a rolling window is 2 to 366 days, not 1"), "\(bad.standardError)")
        }
    }

    @Test("--view hours: the 7 × 24 heatmap in text, SVG, HTML and Markdown, weekdayHours in JSON, per habit too")
    func hoursView() throws {
        let text = try streakcal(["report", "-", "--view", "hours"] + Self.january, input: Self.runs)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("When: minutes by weekday and hour (Europe/Berlin)"))
        // Mondays Jan 1; Wednesdays 3; Fridays 5, 26; Saturday 20; Sundays 21; Tuesday 23: 08:00-09:00.
        #expect(text.standardOutput.contains("Busiest hour: Friday 08:00–09:00 (120 minutes); busiest day: Friday (120 minutes)"), "\(text.standardOutput)")
        let json = try streakcal(["report", "-", "--view", "hours", "--format", "json", "--habit", "Run=categories:sport"] + Self.january, input: Self.runs)
        let document = try jsonObject(json.standardOutput)
        let hours = try #require(document["weekdayHours"] as? [[Int]])
        #expect(hours.count == 7 && hours.allSatisfy { $0.count == 24 })
        #expect(hours[4][8] == 120 && hours[0][8] == 60 && hours.flatMap { $0 }.reduce(0, +) == 420)
        let habit = try #require((document["habits"] as? [[String: Any]])?.first)
        #expect((habit["weekdayHours"] as? [[Int]])?[4][8] == 120)
        let plain = try jsonObject(try streakcal(["report", "-", "--format", "json"] + Self.january, input: Self.runs).standardOutput)
        #expect(plain["weekdayHours"] == nil)
        for format in ["svg", "html"] {
            let picture = try streakcal(["report", "-", "--view", "hours", "--format", format] + Self.january, input: Self.runs)
            #expect(picture.standardOutput.contains("id=\"hours\"") && picture.standardOutput.contains("Friday 08:00–09:00: 120 minutes"), "\(format)")
        }
        let markdown = try streakcal(["report", "-", "--view", "hours", "--format", "md"] + Self.january, input: Self.runs)
        #expect(markdown.standardOutput.contains("| Fri | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 120 |"), "\(markdown.standardOutput)")
    }
}
