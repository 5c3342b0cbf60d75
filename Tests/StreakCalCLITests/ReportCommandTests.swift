import Foundation
import SnapshotSupport
import Testing

@Suite("streakcal report")
struct ReportCommandTests {
    @Test("The tutorial's data set end to end, as JSON: the contract's keys and values")
    func tutorialJSON() throws {
        let result = try streakcal(["report", fixture("tutorial-sample.ics"), "--tz", "UTC", "--to", "2024-02-29", "--format", "json"])
        #expect(result.status == 0)
        let json = try jsonObject(result.standardOutput)
        #expect(json["timeZone"] as? String == "UTC")
        #expect(json["requiredPoints"] as? Int == 100)
        #expect(json["from"] as? String == "2024-02-20")
        #expect(json["to"] as? String == "2024-02-29")
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String ?? "" } == (20...29).map { "2024-02-\($0)" })
        #expect(days.map { $0["points"] as? Int ?? -1 } == [100, 0, 0, 0, 30, 100, 120, 0, 0, 0])
        #expect(days.map { $0["sessions"] as? Int ?? -1 } == [1, 0, 0, 0, 1, 2, 1, 0, 0, 0])
        #expect(days.map { $0["status"] as? String ?? "" } == [
            "met", "none", "none", "none", "partial", "met", "met", "none", "none", "none",
        ])
        let longest = try #require(json["longestStreak"] as? [String: Any])
        #expect(longest["length"] as? Int == 2)
        #expect(longest["start"] as? String == "2024-02-25")
        #expect(longest["end"] as? String == "2024-02-26")
        let current = try #require(json["currentStreak"] as? [String: Any])
        #expect(current["length"] as? Int == 0)
        #expect(current["start"] is NSNull)
        #expect(current["end"] is NSNull)
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["severity"] as? String == "warning")
        #expect(diagnostics.first?["line"] as? Int == 18)
        #expect(diagnostics.first?["column"] as? Int == 7)
        #expect((diagnostics.first?["file"] as? String)?.hasSuffix("tutorial-sample.ics") == true)
        #expect(result.standardError.contains("tutorial-sample.ics:18:7: warning: the event ends before it starts"))
    }

    @Test("The current streak runs to --to, or to the day before when --to is still open")
    func currentStreak() throws {
        for (to, length) in [("2024-02-26", 2), ("2024-02-27", 2), ("2024-02-28", 0)] {
            let result = try streakcal(["report", fixture("tutorial-sample.ics"), "--tz", "UTC", "--to", to, "--format", "json"])
            let current = try #require(try jsonObject(result.standardOutput)["currentStreak"] as? [String: Any])
            #expect(current["length"] as? Int == length, "--to \(to)")
        }
    }

    @Test("Text: month grids with marks, then streaks and totals (snapshot)")
    func tutorialText() throws {
        let result = try streakcal(["report", fixture("tutorial-sample.ics"), "--tz", "UTC", "--to", "2024-03-02"])
        #expect(result.status == 0)
        // The calendar is named with its path as given: the repository's place is left out.
        try assertSnapshot(result.standardOutput.replacingOccurrences(of: repositoryRoot.path + "/", with: ""), named: "tutorial-report.txt")
    }

    @Test("Standard input, and several files merged into one report")
    func inputs() throws {
        let text = try String(contentsOfFile: fixture("tutorial-sample.ics"), encoding: .utf8)
        let piped = try streakcal(["report", "-", "--tz", "UTC", "--to", "2024-02-29", "--format", "json"], input: text)
        #expect(piped.status == 0)
        #expect(try jsonObject(piped.standardOutput)["longestStreak"] as? [String: Any] != nil)
        #expect(piped.standardError.contains("-:18:7: warning"))

        let merged = try streakcal([
            "report", fixture("several-vcalendars.ics"), fixture("bare-vevent.ics"), "--tz", "UTC",
            "--from", "2024-04-01", "--to", "2024-05-01", "--format", "json",
        ])
        let days = try #require(try jsonObject(merged.standardOutput)["days"] as? [[String: Any]])
        #expect(days.count == 31)
        #expect(days.first?["points"] as? Int == 100)
        #expect(days.last?["points"] as? Int == 45)
    }

    @Test("Day start 04:00 moves 03:30 to the previous day")
    func dayStart() throws {
        let arguments = ["report", fixture("day-start-after-midnight.ics"), "--tz", "Europe/Berlin", "--to", "2024-01-02", "--format", "json"]
        let midnight = try #require(try jsonObject(try streakcal(arguments).standardOutput)["days"] as? [[String: Any]])
        #expect(midnight.map { $0["points"] as? Int ?? -1 } == [50, 150])
        let shifted = try #require(try jsonObject(try streakcal(arguments + ["--day-start", "04:00"]).standardOutput)["days"] as? [[String: Any]])
        #expect(shifted.map { $0["points"] as? Int ?? -1 } == [100, 100])
        #expect(shifted.map { $0["status"] as? String ?? "" } == ["met", "met"])
    }

    @Test("The calendar's X-WR-TIMEZONE is the default zone; --tz overrides it")
    func defaultZone() throws {
        let declared = try jsonObject(try streakcal(["report", fixture("floating-times.ics"), "--to", "2024-06-11", "--format", "json"]).standardOutput)
        #expect(declared["timeZone"] as? String == "America/Los_Angeles")
        let days = try #require(declared["days"] as? [[String: Any]])
        #expect(days.map { $0["points"] as? Int ?? -1 } == [200, 0])
        let utc = try jsonObject(try streakcal(["report", fixture("floating-times.ics"), "--tz", "UTC", "--to", "2024-06-11", "--format", "json"]).standardOutput)
        #expect((utc["days"] as? [[String: Any]])?.map { $0["points"] as? Int ?? -1 } == [100, 100])
    }

    @Test("--points minutes and --points count")
    func pointsRules() throws {
        let minutes = try jsonObject(try streakcal(["report", fixture("no-points-property.ics"), "--points", "minutes", "--tz", "UTC", "--to", "2024-07-01", "--format", "json"]).standardOutput)
        #expect((minutes["days"] as? [[String: Any]])?.first?["points"] as? Int == 135)
        let count = try jsonObject(try streakcal(["report", fixture("no-points-property.ics"), "--points", "count", "--required", "2", "--tz", "UTC", "--to", "2024-07-01", "--format", "json"]).standardOutput)
        #expect((count["days"] as? [[String: Any]])?.first?["status"] as? String == "met")
        let property = try streakcal(["report", fixture("no-points-property.ics"), "--points", "x-points", "--tz", "UTC", "--to", "2024-07-01"])
        #expect(property.standardError.contains("no session has the X-POINTS property"))
        #expect(property.standardError.contains(
            "streakcal: hint: --points minutes counts minutes, --points count sessions, --points-property names another property\n"))
    }

    @Test("When the window ends today: text, HTML and JSON say what today still needs and whether the streak is at risk")
    func todaySoFar() throws {
        // The sessions start a minute before now, one, two and no days ago, in a zone where it is
        // about noon now: each is on its own day and none is planned, at whatever time the test
        // runs (at 00:00 UTC, sessions stamped 00:01 today were still to come).
        let now = Date()
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let offset = 12 - utc.component(.hour, from: now)
        let zone = offset == 0 ? "UTC" : "Etc/GMT\(offset > 0 ? "-" : "+")\(abs(offset))"
        let stamp = { (daysAgo: Int) -> String in
            let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now.addingTimeInterval(Double(-daysAgo * 86_400 - 60)))
            return String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
        }
        let events = [(2, 100), (1, 100), (0, 30)].map { daysAgo, points in
            "BEGIN:VEVENT\r\nUID:d\(daysAgo)\r\nDTSTART:\(stamp(daysAgo))\r\nDURATION:PT10M\r\nX-POINTS:\(points)\r\nEND:VEVENT\r\n"
        }
        let text = "BEGIN:VCALENDAR\r\n" + events.joined() + "END:VCALENDAR\r\n"
        let plain = try streakcal(["report", "-", "--tz", zone], input: text)
        #expect(plain.standardOutput.contains("Today so far: 30 of 100 points, 70 to go; the 2-day streak is at risk\n"), "\(plain.standardOutput)")
        let html = try streakcal(["report", "-", "--tz", zone, "--format", "html"], input: text)
        #expect(html.standardOutput.contains("<dt>Today so far</dt><dd>30 of 100 points, 70 to go; the 2-day streak is at risk</dd>"))
        let json = try jsonObject(try streakcal(["report", "-", "--tz", zone, "--format", "json"], input: text).standardOutput)
        let today = try #require(json["today"] as? [String: Any])
        #expect(today["points"] as? Int == 30 && today["pointsNeeded"] as? Int == 70 && today["streakAtRisk"] as? Bool == true)
        // A window that ends before today says nothing of it.
        let past = try jsonObject(try streakcal(["report", "-", "--tz", "UTC", "--format", "json", "--to", "2020-01-01"], input: text).standardOutput)
        #expect(past["today"] == nil)
    }

    @Test("--points auto, the default: minutes with a note when no event has X-POINTS, the property as before when one does")
    func automaticPoints() throws {
        let unset = try streakcal(["report", fixture("no-points-property.ics"), "--tz", "UTC", "--to", "2024-07-01", "--format", "json"])
        let report = try jsonObject(unset.standardOutput)
        #expect((report["days"] as? [[String: Any]])?.first?["points"] as? Int == 135)
        #expect(unset.standardError.contains("no-points-property.ics:4:1: note: no event has the X-POINTS property, so each session counts its length in minutes\n"))
        #expect(unset.standardError.contains("streakcal: hint: --points count counts sessions, --points-property names another property\n"))
        #expect(!unset.standardError.contains("problem"))  // a note, not a problem
        #expect(!unset.standardError.contains("--skip-when"))  // no all-day event, no word of vacations
        // With the property, auto reports exactly as x-points does.
        for name in ["tutorial-sample.ics", "recurring-this-and-future.ics"] {
            let arguments = ["report", fixture(name), "--tz", "UTC", "--to", "2024-12-31", "--format", "json"]
            let automatic = try streakcal(arguments)
            let explicit = try streakcal(arguments + ["--points", "x-points"])
            #expect(automatic.standardOutput == explicit.standardOutput, "\(name)")
            #expect(automatic.standardError == explicit.standardError, "\(name)")
        }
    }

    @Test("Sessions before a ten-year default window: the library's note, then the option that changes it; --strict does not fail on it")
    func reportWindowHint() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:00010101T090000Z\r\nX-POINTS:1\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let result = try streakcal(["report", "-", "--tz", "UTC", "--to", "2024-12-31", "--format", "csv", "--strict"], input: text)
        #expect(result.status == 0)
        #expect(result.standardError.contains("note: sessions go back to 0001-01-01"))
        #expect(result.standardError.contains("it starts on 2015-01-01; give a first day to include the earlier ones\n"))
        #expect(result.standardError.contains("streakcal: hint: give --from YYYY-MM-DD to report on the earlier days\n"))
        #expect(result.standardOutput.utf8.filter { $0 == UInt8(ascii: "\n") }.count == 3_653 + 1)  // header and days
    }

    @Test("--output writes the file; a failed write leaves nothing behind")
    func output() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("report.json").path
        let written = try streakcal(["report", fixture("tutorial-sample.ics"), "--tz", "UTC", "--to", "2024-02-29", "--format", "json", "-o", target])
        #expect(written.status == 0)
        #expect(written.standardOutput.isEmpty)
        #expect(try jsonObject(try String(contentsOfFile: target, encoding: .utf8))["to"] as? String == "2024-02-29")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])

        let missing = directory.appendingPathComponent("no/such/dir/report.json").path
        let failed = try streakcal(["report", fixture("tutorial-sample.ics"), "--tz", "UTC", "-o", missing])
        #expect(failed.status == 1)
        #expect(failed.standardError.contains("streakcal: error: cannot write \(missing)"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}

@Suite("streakcal errors and exit codes")
struct ExitCodeTests {
    @Test("An unreadable file: one line on standard error, exit 1")
    func unreadable() throws {
        let result = try streakcal(["report", "/nonexistent.ics"])
        #expect(result.status == 1)
        #expect(result.standardError == "streakcal: error: cannot read /nonexistent.ics: no such file\n")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("Bad arguments: a clear message and a non-zero exit", arguments: [
        (["report", "x.ics", "--day-start", "25:00"], "--day-start"),
        (["report", "x.ics", "--to", "2024-02-30"], "--to"),
        (["report", "x.ics", "--tz", "Nowhere/Land"], "--tz"),
        (["report", "x.ics", "--required", "0"], "--required"),
        (["report", "x.ics", "--from", "2024-03-01", "--to", "2024-02-01"], "--from"),
        (["report", "x.ics", "--points", "stars"], "--points"),
        (["report"], "file"),
    ])
    func badArguments(_ arguments: [String], mentions: String) throws {
        let result = try streakcal(arguments)
        #expect(result.status != 0)
        #expect(result.standardError.contains(mentions))
        #expect(result.standardOutput.isEmpty)
    }

    @Test("Content diagnostics change the exit code only with --strict")
    func strict() throws {
        let arguments = ["report", fixture("bad-properties.ics"), "--tz", "UTC", "--to", "2024-06-03", "--format", "json"]
        let lenient = try streakcal(arguments)
        #expect(lenient.status == 0)
        let strict = try streakcal(arguments + ["--strict"])
        #expect(strict.status == 1)
        #expect(strict.standardOutput == lenient.standardOutput)
        let clean = try streakcal(["report", fixture("cancelled-event.ics"), "--tz", "UTC", "--to", "2024-02-01", "--strict"])
        #expect(clean.status == 0)
    }

    @Test("An empty input file is a warning naming it, and fails with --strict")
    func emptyFile() throws {
        let arguments = ["report", "-", "--tz", "UTC", "--to", "2024-02-01", "--format", "csv"]
        let lenient = try streakcal(arguments, input: "")
        #expect(lenient.status == 0)
        #expect(lenient.standardError.hasPrefix("-:1:1: warning: the input is empty: it holds no calendar\n"))
        #expect(lenient.standardOutput == "date,points,sessions,status\r\n2024-02-01,0,0,none\r\n")
        let strict = try streakcal(arguments + ["--strict"], input: "")
        #expect(strict.status == 1)
    }
}

@Suite("streakcal sessions")
struct SessionsCommandTests {
    @Test("A day's sessions in start order with points and local times")
    func sessionCards() throws {
        let result = try streakcal(["sessions", fixture("tutorial-sample.ics"), "--on", "2024-02-25", "--tz", "UTC"])
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            Sessions on 2024-02-25 (UTC): 100 of 100 points, met
              03:12–04:04      20 points  Early session
              06:30–09:50      80 points  Success with the next session

            """)
    }

    @Test("Local times follow --tz; an empty day says so")
    func zonesAndEmptyDays() throws {
        let berlin = try streakcal(["sessions", fixture("dst-gap-and-overlap.ics"), "--on", "2016-03-27", "--tz", "Europe/Berlin"])
        #expect(berlin.standardOutput.contains("03:28–03:58      10 points"))
        let empty = try streakcal(["sessions", fixture("tutorial-sample.ics"), "--on", "2024-02-21", "--tz", "UTC"])
        #expect(empty.standardOutput.hasSuffix("  no sessions\n"))
    }
}

@Suite("streakcal report --view, --palette and the calendar's name")
struct ReportViewCommandTests {
    private let tutorial = fixture("tutorial-sample.ics")

    @Test("auto: month grids up to 92 days, a year heatmap beyond; --view forces either")
    func views() throws {
        let short = try streakcal(["report", tutorial, "--tz", "UTC", "--from", "2024-02-01", "--to", "2024-05-02"])
        #expect(short.status == 0 && short.standardOutput.contains("   February 2024") && !short.standardOutput.contains("Less to more"))
        let long = try streakcal(["report", tutorial, "--tz", "UTC", "--from", "2024-02-01", "--to", "2024-05-03"])
        #expect(long.standardOutput.contains("\n2024\n   Jan") && long.standardOutput.contains("Less to more: · none"))
        let forcedYear = try streakcal(["report", tutorial, "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29", "--view", "year"])
        #expect(forcedYear.standardOutput.contains("\n2024\n") && !forcedYear.standardOutput.contains("February 2024"))
        let forcedMonth = try streakcal(["report", tutorial, "--tz", "UTC", "--from", "2024-01-01", "--to", "2024-12-31", "--view", "month"])
        #expect(forcedMonth.standardOutput.contains("   December 2024"))
        let svg = try streakcal(["report", tutorial, "--tz", "UTC", "--from", "2024-01-01", "--to", "2024-12-31", "--format", "svg"])
        #expect(svg.standardOutput.contains("<g class=\"year\" id=\"year-2024\">"))
        let html = try streakcal(["report", tutorial, "--tz", "UTC", "--from", "2024-01-01", "--to", "2024-12-31", "--format", "html"])
        #expect(html.standardOutput.contains("<main class=\"long\">") && html.standardOutput.contains("<section class=\"cards-day\" id=\"s-2024-02-25\">"))
        let bad = try streakcal(["report", tutorial, "--view", "decade"])
        #expect(bad.status == 64 && bad.standardError.contains("--view"))
    }

    @Test("--palette: the palette's fills in SVG, HTML and coloured text; an unknown one is a usage error")
    func palettes() throws {
        let arguments = ["report", tutorial, "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29"]
        for (palette, met) in [("standard", "#0A5C45"), ("github", "#216E39"), ("high-contrast", "#061F47"), ("tutorial", "#1E8336")] {
            let svg = try streakcal(arguments + ["--format", "svg", "--palette", palette])
            #expect(svg.status == 0)
            #expect(svg.standardOutput.contains("<g id=\"day-2024-02-20\" class=\"day met\">") && svg.standardOutput.contains("fill=\"\(met)\""), "\(palette)")
        }
        let html = try streakcal(arguments + ["--format", "html", "--palette", "github", "--met-color", "#123456"])
        #expect(html.standardOutput.contains("background: #123456;") && html.standardOutput.contains("background: #9BE9A8;"))
        let bad = try streakcal(arguments + ["--palette", "rainbow"])
        #expect(bad.status == 64 && bad.standardError.contains("rainbow"))
    }

    @Test("The calendar's X-WR-CALNAME names the report in every format; several files are listed")
    func names() throws {
        let arguments = ["report", tutorial, "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29"]
        let json = try jsonObject(try streakcal(arguments + ["--format", "json"]).standardOutput)
        #expect(json["sources"] as? [[String: String]] == [["file": tutorial, "name": "FSCalendar streaks tutorial sample"]])
        for format in ["text", "md", "svg", "html"] {
            let output = try streakcal(arguments + ["--format", format]).standardOutput
            #expect(output.contains("Streak report: FSCalendar streaks tutorial sample"), "\(format)")
        }
        let two = try streakcal(["report", tutorial, fixture("all-day-events.ics"), "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-03-31"])
        #expect(two.standardOutput.hasPrefix("Streak report: FSCalendar streaks tutorial sample and all-day-events, "))
        #expect(two.standardOutput.contains("\nCalendars: FSCalendar streaks tutorial sample (\(tutorial)), all-day-events (\(fixture("all-day-events.ics")))\n"))
    }
}
