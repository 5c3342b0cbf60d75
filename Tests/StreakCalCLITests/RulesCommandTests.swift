import Foundation
import Testing

@Suite("Streak rules on the command line")
struct RulesCommandTests {
    private let window = ["--tz", "UTC", "--from", "2024-01-01", "--to", "2024-01-07"]

    @Test("--rules gives habits side by side in JSON, with each day's requirement and the new statuses")
    func rulesFileJSON() throws {
        let result = try streakcal(["report", fixture("habits.ics"), "--rules", fixture("habits-rules.json"), "--format", "json"] + window)
        #expect(result.status == 0, "\(result.standardError)")
        let json = try jsonObject(result.standardOutput)
        let habits = try #require(json["habits"] as? [[String: Any]])
        #expect(habits.map { $0["name"] as? String } == ["Piano", "Running"])
        #expect(habits.map { $0["filter"] as? String } == ["categories:piano", "property:X-HABIT=running"])
        let pianoDays = try #require(habits[0]["days"] as? [[String: Any]])
        #expect(pianoDays.map { $0["status"] as? String } == ["met", "met", "frozen", "skipped", "skipped", "none", "none"])
        #expect(pianoDays.map { $0["required"] as? Int } == Array(repeating: 30, count: 7))
        #expect(pianoDays.first?["fraction"] as? Double == 1)
        let totals = try #require(json["totals"] as? [String: Int])
        #expect(totals["unmatchedSessions"] == 1)
        #expect(totals["daysSkipped"] == 2)
        #expect(totals["daysFrozen"] == 1)
        #expect(json["freezesLeft"] as? Int == 0)
        #expect(json["streakUnit"] as? String == "day")
        #expect((json["bestStreaks"] as? [[String: Any]])?.first?["length"] as? Int == 4)
    }

    @Test("--freezes 1 on ..MM.MM: the freeze protects the streak that exists, ..MMfMM, current 5 (issue 31)")
    func freezeProtectsAStreak() throws {
        let events = [3, 4, 6, 7].map { day in
            "BEGIN:VEVENT\r\nUID:d\(day)\r\nDTSTART:2024010\(day)T090000Z\r\nDURATION:PT1H\r\nX-POINTS:100\r\nEND:VEVENT\r\n"
        }
        let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + events.joined() + "END:VCALENDAR\r\n"
        let result = try streakcal(["report", "-", "--freezes", "1", "--format", "json"] + window, input: calendar)
        #expect(result.status == 0, "\(result.standardError)")
        let json = try jsonObject(result.standardOutput)
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days.map { $0["status"] as? String } == ["none", "none", "met", "met", "frozen", "met", "met"])
        let current = try #require(json["currentStreak"] as? [String: Any])
        #expect(current["length"] as? Int == 5)
        #expect(current["start"] as? String == "2024-01-03")
        #expect(current["end"] as? String == "2024-01-07")
    }

    @Test("A rules file with two habits, 30 minutes a day and at most 1 coffee by count: each its own statuses and streaks in JSON (issue 31)")
    func habitsWithOwnRules() throws {
        let rules = NSTemporaryDirectory() + "own-rules-\(UUID().uuidString).json"
        try """
            {"habits": [
              {"name": "Piano", "filter": "summary:piano", "required": 30, "points": "minutes"},
              {"name": "Coffee", "filter": "summary:coffee", "required": 1, "points": "count", "atMost": true}
            ]}
            """.write(toFile: rules, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let event = { (uid: String, start: String, minutes: Int, summary: String) in
            "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTART:\(start)\r\nDURATION:PT\(minutes)M\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\n"
        }
        let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
            + event("p1", "20240101T080000Z", 40, "Piano") + event("p2", "20240102T080000Z", 10, "Piano")
            + event("p3", "20240103T080000Z", 30, "Piano") + event("c1", "20240101T070000Z", 5, "Coffee")
            + event("c2", "20240102T070000Z", 5, "Coffee") + event("c3", "20240102T150000Z", 5, "Coffee")
            + "END:VCALENDAR\r\n"
        let result = try streakcal(["report", "-", "--rules", rules, "--format", "json", "--tz", "UTC", "--from", "2024-01-01", "--to", "2024-01-04"], input: calendar)
        #expect(result.status == 0, "\(result.standardError)")
        let habits = try #require(try jsonObject(result.standardOutput)["habits"] as? [[String: Any]])
        let statuses = habits.map { ($0["days"] as? [[String: Any]])?.map { $0["status"] as? String ?? "?" } ?? [] }
        let points = habits.map { ($0["days"] as? [[String: Any]])?.map { $0["points"] as? Int ?? -1 } ?? [] }
        #expect(habits.map { $0["name"] as? String } == ["Piano", "Coffee"])
        #expect(points == [[40, 10, 30, 0], [1, 2, 0, 0]])
        #expect(statuses == [["met", "partial", "met", "none"], ["met", "over", "met", "met"]])
        #expect(habits.map { ($0["currentStreak"] as? [String: Any])?["length"] as? Int } == [1, 2])
        #expect(habits.map { ($0["longestStreak"] as? [String: Any])?["length"] as? Int } == [1, 2])
        #expect(habits.map { $0["requiredPoints"] as? Int } == [30, 1])
        #expect(habits.map { $0["atMost"] as? Bool } == [nil, true])
        #expect(habits.map { $0["pointsFrom"] as? String } == ["minutes", "count"])
    }

    @Test("Options add to a rules file and an explicit --required wins over its \"required\"")
    func optionsOnTop() throws {
        let result = try streakcal([
            "report", fixture("habits.ics"), "--rules", fixture("habits-rules.json"), "--required", "35",
            "--schedule", "tue:0", "--format", "csv",
        ] + window)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\r\n").map(String.init)
        #expect(lines.first == "date,points,sessions,status,required,fraction,habit")
        #expect(lines[1] == "2024-01-01,70,2,met,35,1.0,")
        // The calendar counts every session: the dentist's, which no habit takes, too.
        #expect(lines[2] == "2024-01-02,30,2,rest,0,,")
        // 30 of 35 points: partial, and not frozen: no streak stands before it to protect (issue 31).
        #expect(lines.contains("2024-01-01,30,1,partial,35,0.8571,Piano"))
    }

    @Test("A bad rules file: exit 64 with its line and column")
    func badRulesFile() throws {
        let path = NSTemporaryDirectory() + "rules-\(UUID().uuidString).json"
        try Data("{\n  \"freezes\": \"every seven\"\n}\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try streakcal(["report", fixture("habits.ics"), "--rules", path] + window)
        #expect(result.status == 64)
        #expect(result.standardError.contains("\(path):2:21: error: freezes are counted in whole numbers from 0 to 1000000, not 'seven'"))
        #expect(result.standardOutput.isEmpty)
        let missing = try streakcal(["report", fixture("habits.ics"), "--rules", path + ".missing"] + window)
        // A rules file that is not there fails as a calendar that is not there does: exit 1, one line.
        #expect(missing.status == 1)
        #expect(missing.standardError == "streakcal: error: --rules: cannot read \(path).missing: no such file\n")
    }

    @Test("Bad rule options are usage errors that say where", arguments: [
        (["--schedule", "mon-fry:60"], "--schedule 'mon-fry:60': 'mon-fry' is not a weekday"),
        (["--period-goal", "week:9 days"], "--period-goal 'week:9 days': a week has at most 7 days"),
        (["--skip", "2024-01-05..2024-01-01"], "--skip takes a day or a range of days"),
        (["--freezes", "every"], "--freezes 'every': freezes are"),
        (["--habit", "Piano"], "--habit 'Piano': a habit is NAME=FILTER"),
        (["--habit", "A=summary:x", "--habit", "A=summary:y"], "the habit 'A' is named twice"),
        (["--best-streaks", "-1"], "--best-streaks must be 0 to 1000, not -1"),
        (["--week-starts", "someday"], "--week-starts takes a weekday"),
    ] as [([String], String)])
    func badOptions(options: [String], message: String) throws {
        let result = try streakcal(["report", fixture("habits.ics")] + options + window)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test("Weekly goals in text; rest days in an annotated calendar; rules in batch reports")
    func everyCommand() throws {
        let weekly = try streakcal([
            "report", fixture("tutorial-sample.ics"), "--tz", "UTC", "--from", "2024-02-19", "--to", "2024-03-03",
            "--period-goal", "week:2 days",
        ])
        #expect(weekly.status == 0)
        // No daily goal given: a day with any points counts toward the week (issue 46.5).
        #expect(weekly.standardOutput.contains("goal 2 active days a week"))
        #expect(weekly.standardOutput.contains("Periods (week:2 days):\n  2024-02-19 to 2024-02-25  ✓ met, 3 of 2 days met\n  2024-02-26 to 2024-03-03  ◐ partial, 1 of 2 days met\n"))
        let daily = try streakcal([
            "report", fixture("tutorial-sample.ics"), "--tz", "UTC", "--from", "2024-02-19", "--to", "2024-03-03",
            "--period-goal", "week:2 days", "--required", "100",
        ])
        #expect(daily.standardOutput.contains("goal 100 points a day, 2 days met a week"))
        #expect(daily.standardOutput.contains("  2024-02-19 to 2024-02-25  ✓ met, 2 of 2 days met\n"))
        #expect(weekly.standardOutput.contains("Current streak: 1 week (2024-02-19 to 2024-02-25)"))

        let directory = NSTemporaryDirectory() + "rules-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let annotated = try streakcal([
            "annotate", fixture("tutorial-sample.ics"), "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29",
            "--schedule", "sat-sun:0", "-o", directory + "/out.ics",
        ])
        #expect(annotated.status == 0, "\(annotated.standardError)")
        let written = try String(contentsOfFile: directory + "/out.ics", encoding: .utf8)
        #expect(written.contains("X-STREAKCAL-STATUS:rest"))
        #expect(written.contains("SUMMARY:○ 80 points\\, rest day") || written.contains("SUMMARY:○ 100 points\\, rest day"))

        let batch = try streakcal([
            "batch", fixture("habits.ics"), "--out", directory + "/reports", "--format", "json", "--tz", "UTC",
            "--from", "2024-01-01", "--to", "2024-01-07", "--habit", "Piano=categories:piano",
        ])
        #expect(batch.status == 0, "\(batch.standardError)")
        let report = try jsonObject(String(contentsOfFile: directory + "/reports/habits.json", encoding: .utf8))
        #expect((report["habits"] as? [[String: Any]])?.first?["name"] as? String == "Piano")
    }

    @Test("Without rules the JSON has none of their keys")
    func simpleCaseUnchanged() throws {
        let result = try streakcal(["report", fixture("tutorial-sample.ics"), "--format", "json", "--tz", "UTC", "--to", "2024-02-29"])
        let json = try jsonObject(result.standardOutput)
        for key in ["habits", "bestStreaks", "score", "freezesLeft", "streakUnit", "periods", "schedule"] {
            #expect(json[key] == nil, "\(key)")
        }
        #expect(((json["days"] as? [[String: Any]])?.first?.keys.sorted()) == ["date", "points", "sessions", "status"])
    }
}

@Suite("streakcal report --color")
struct ColorOptionTests {
    private let arguments = ["report", fixture("tutorial-sample.ics"), "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29"]

    @Test("always colours a pipe and keeps the marks; never and auto (not a terminal) do not colour")
    func choices() throws {
        let always = try streakcal(arguments + ["--color", "always"])
        #expect(always.standardOutput.contains("\u{1B}[38;5;231;48;5;23m20✓\u{1B}[0m"))
        #expect(always.standardOutput.contains("\u{1B}[38;5;231;48;5;23m✓\u{1B}[0m met"))
        for choice in ["never", "auto"] {
            let plain = try streakcal(arguments + ["--color", choice], environment: ["NO_COLOR": ""])
            #expect(!plain.standardOutput.contains("\u{1B}"), "\(choice)")
            #expect(plain.standardOutput.contains("20✓21·"), "\(choice)")
        }
        // The colours are the only difference.
        let plain = try streakcal(arguments + ["--color", "never"])
        #expect(always.standardOutput.replacing(/\u{1B}\[[0-9;]*m/, with: "") == plain.standardOutput)
        let bad = try streakcal(arguments + ["--color", "sometimes"])
        #expect(bad.status == 64)
    }
}
