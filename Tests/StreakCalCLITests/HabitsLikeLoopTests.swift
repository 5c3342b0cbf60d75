import Foundation
import Testing

/// Habits read as Loop Habit Tracker's are (issue 46.8): the calendar's figures count every
/// session, the sessions no habit took are named, a habit's score does not move with `--from`, a
/// habit that took every session is not drawn twice, days over an at-most limit have their own
/// look, and the HTML puts the habits first.
@Suite("Habits as Loop reads them")
struct HabitsLikeLoopTests {
    /// Ten days of June 2024: a 30-minute workout every day, two coffees a day (10 minutes each)
    /// on the even days, a lunch on the 5th.
    static let calendar: String = {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//StreakCal tests//EN"]
        func event(_ uid: String, _ day: Int, _ hour: Int, _ minutes: Int, _ summary: String) {
            let date = String(format: "202406%02d", day)
            lines += ["BEGIN:VEVENT", "UID:\(uid)", "DTSTART:\(date)T\(String(format: "%02d", hour))0000Z",
                      "DTEND:\(date)T\(String(format: "%02d", hour))\(String(format: "%02d", minutes))00Z", "SUMMARY:\(summary)", "END:VEVENT"]
        }
        for day in 1...10 {
            event("gym-\(day)", day, 7, 30, "Gym")
            if day % 2 == 0 {
                event("coffee-a-\(day)", day, 9, 10, "Coffee")
                event("coffee-b-\(day)", day, 15, 10, "Coffee")
            }
        }
        event("lunch", 5, 12, 45, "Lunch with Ana")
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }()

    static let window = ["--tz", "UTC", "--from", "2024-06-01", "--to", "2024-06-10", "--required", "30"]

    @Test("The calendar's figures count every session; the unmatched ones are named by their most frequent summaries")
    func everySessionCounts() throws {
        let result = try streakcal(["report", "-", "--habit", "Workout=summary:gym", "--format", "json"] + Self.window, input: Self.calendar)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try jsonObject(result.standardOutput)
        let totals = try #require(report["totals"] as? [String: Int])
        // 10 workouts of 30 minutes, 10 coffees of 10, one lunch of 45: the calendar's, not the habit's.
        #expect(totals["points"] == 300 + 100 + 45)
        #expect(totals["sessions"] == 21)
        #expect(totals["unmatchedSessions"] == 11)
        let summaries = try #require(report["unmatchedSummaries"] as? [[String: Any]])
        #expect(summaries.map { "\($0["summary"] as? String ?? "?")=\($0["sessions"] as? Int ?? 0)" } == ["Coffee=10", "Lunch with Ana=1"])
        let habit = try #require((report["habits"] as? [[String: Any]])?.first)
        #expect((habit["totals"] as? [String: Int])?["points"] == 300)
        // The same line whether the import sorts events (text) or the report keeps its sessions (HTML).
        let text = try streakcal(["report", "-", "--habit", "Workout=summary:gym", "--habit", "Tea=summary:tea", "--view", "month"] + Self.window, input: Self.calendar)
        #expect(text.standardOutput.contains("\nSessions no habit took: 11, most often Coffee (10), Lunch with Ana (1)\n"), "\(text.standardOutput)")
        let html = try streakcal(["report", "-", "--habit", "Workout=summary:gym", "--habit", "Tea=summary:tea", "--format", "html"] + Self.window, input: Self.calendar)
        #expect(html.standardOutput.contains("<p class=\"unmatched\">Sessions no habit took: 11, most often Coffee (10), Lunch with Ana (1).</p>"))
        let markdown = try streakcal(["report", "-", "--habit", "Workout=summary:gym", "--habit", "Tea=summary:tea", "--format", "md"] + Self.window, input: Self.calendar)
        #expect(markdown.standardOutput.contains("\nSessions no habit took: 11, most often Coffee (10), Lunch with Ana (1).\n"))
    }

    @Test("A habit that took every session is said in a line, not drawn a second time", arguments: ["text", "md", "html", "svg"])
    func oneHabitOnce(format: String) throws {
        let gym = Self.calendar.components(separatedBy: "\r\n").reduce(into: (lines: [String](), event: [String]())) { state, line in
            if line == "BEGIN:VEVENT" { state.event = [line]; return }
            if !state.event.isEmpty {
                state.event.append(line)
                if line == "END:VEVENT" {
                    if state.event.contains("SUMMARY:Gym") { state.lines += state.event }
                    state.event = []
                }
                return
            }
            state.lines.append(line)
        }.lines.joined(separator: "\r\n")
        let result = try streakcal(["report", "-", "--habit", "Workout=summary:gym", "--format", format, "--view", "month"] + Self.window, input: gym)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("it took every session: its days and figures are the calendar"), "\(result.standardOutput)")
        // The month is drawn once, the calendar's: as many month titles (text, Markdown) or cells
        // of June 5th (their ids, in SVG and HTML) as without the habit.
        let mark = format == "svg" || format == "html" ? "2024-06-05\"" : "June 2024"
        let without = try streakcal(["report", "-", "--format", format, "--view", "month"] + Self.window, input: gym)
        #expect(result.standardOutput.components(separatedBy: mark).count == without.standardOutput.components(separatedBy: mark).count)
    }

    @Test("A habit's score is the same whatever --from, for the same last day (the days before the window carry it in)")
    func scoreOverHistory() throws {
        func scores(from: String) throws -> [Double] {
            let arguments = ["report", "-", "--habit", "Workout=summary:gym", "--habit", "Coffee=summary:coffee", "--format", "json",
                             "--tz", "UTC", "--from", from, "--to", "2024-06-10", "--required", "30"]
            let report = try jsonObject(try streakcal(arguments, input: Self.calendar).standardOutput)
            let habits = try #require(report["habits"] as? [[String: Any]])
            return [report["score"] as? Double ?? -1] + habits.map { $0["score"] as? Double ?? -1 }
        }
        let whole = try scores(from: "2024-06-01")
        #expect(whole.allSatisfy { $0 > 0 })
        for from in ["2024-06-04", "2024-06-09", "2024-06-10"] {
            #expect(try scores(from: from) == whole, "--from \(from)")
        }
    }

    @Test("A day over an at-most limit has its own colour and mark, not the look of a day without points")
    func overHasItsOwnLook() throws {
        try withTemporaryFolder("over") { folder in
            let rules = folder.appendingPathComponent("rules.json")
            try #"{"habits": [{"name": "Coffee", "filter": "summary:coffee", "required": 1, "points": "count", "atMost": true}]}"#
                .write(to: rules, atomically: true, encoding: .utf8)
            let svg = try streakcal(["report", "-", "--rules", rules.path, "--format", "svg", "--view", "month"] + Self.window, input: Self.calendar)
            #expect(svg.status == 0, "\(svg.standardError)")
            // June 2nd: two coffees, over the limit of one.
            let cell = try #require(svg.standardOutput.components(separatedBy: "<g id=\"habit1-day-2024-06-02\"").dropFirst().first)
            #expect(cell.prefix(400).contains("over the limit"), "\(cell.prefix(400))")
            #expect(cell.prefix(400).contains("#E36A0E"), "\(cell.prefix(400))")
            let text = try streakcal(["report", "-", "--rules", rules.path, "--view", "month"] + Self.window, input: Self.calendar)
            #expect(text.standardOutput.contains(" 2✗"), "\(text.standardOutput)")
        }
    }

    @Test("HTML: the habits overview comes before the calendar's figures and days")
    func habitsFirst() throws {
        let html = try streakcal(["report", "-", "--habit", "Workout=summary:gym", "--habit", "Coffee=summary:coffee", "--format", "html"] + Self.window,
                                 input: Self.calendar).standardOutput
        let overview = try #require(html.range(of: "<h2 id=\"habits\">"))
        let heading = try #require(html.range(of: "<h1>"))
        let firstTable = try #require(html.range(of: "<dl") ?? html.range(of: "<table"))
        #expect(heading.lowerBound < overview.lowerBound && overview.lowerBound < firstTable.lowerBound)
    }
}
