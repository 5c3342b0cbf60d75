import Foundation
import Testing

/// A real person's calendar on a real day (issue 46): today's date is the machine's, so these
/// windows are built around it rather than around a date a fixture picked.
@Suite("A real calendar on any day")
struct RealCalendarTests {
    /// Today in UTC, and `offset` days from it, as `YYYY-MM-DD` and `YYYYMMDD`.
    static func day(_ offset: Int) -> (iso: String, compact: String) {
        let date = Date().addingTimeInterval(Double(offset) * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let iso = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        return (iso, iso.replacingOccurrences(of: "-", with: ""))
    }

    /// A daily gym session at 00:00–00:30 UTC from ten days ago on, for ever: it has begun today
    /// whenever the test runs, and every later one is planned.
    static var gym: String {
        ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:gym", "DTSTART:\(day(-10).compact)T000000Z", "DURATION:PT30M",
         "RRULE:FREQ=DAILY", "SUMMARY:Gym", "END:VEVENT", "END:VCALENDAR"].joined(separator: "\r\n") + "\r\n"
    }

    @Test("Planned sessions are not done: days after today are upcoming, unless --count-planned")
    func plannedSessions() throws {
        let window = ["--tz", "UTC", "--from", Self.day(-2).iso, "--to", Self.day(3).iso, "--required", "30", "--format", "json"]
        let result = try streakcal(["report", "-"] + window, input: Self.gym)
        #expect(result.status == 0, "\(result.standardError)")
        let days = try #require(try jsonObject(result.standardOutput)["days"] as? [[String: Any]])
        #expect(days.map { $0["status"] as? String } == ["met", "met", "met", "upcoming", "upcoming", "upcoming"])
        #expect(days.map { $0["points"] as? Int } == [30, 30, 30, 0, 0, 0])
        #expect(result.standardError.contains("note: 3 sessions start after now"), "\(result.standardError)")
        #expect(result.standardError.contains("streakcal: hint: --count-planned counts sessions after now as done"))
        let current = try #require(try jsonObject(result.standardOutput)["currentStreak"] as? [String: Any])
        #expect(current["end"] as? String == Self.day(0).iso)
        let counted = try streakcal(["report", "-", "--count-planned"] + window, input: Self.gym)
        let countedDays = try #require(try jsonObject(counted.standardOutput)["days"] as? [[String: Any]])
        #expect(countedDays.allSatisfy { $0["status"] as? String == "met" })
        #expect(!counted.standardError.contains("start after now"))
    }

    @Test("sessions: --on today by default, and a window lists every day with sessions, the planned ones marked")
    func sessionsAgenda() throws {
        let today = try streakcal(["sessions", "-", "--tz", "UTC"], input: Self.gym)
        #expect(today.status == 0, "\(today.standardError)")
        #expect(today.standardOutput.hasPrefix("Sessions on \(Self.day(0).iso) (UTC): 30 of 100 minutes, partial"), "\(today.standardOutput)")
        let onToday = try streakcal(["sessions", "-", "--tz", "UTC", "--on", "today"], input: Self.gym)
        #expect(onToday.standardOutput == today.standardOutput)
        let agenda = try streakcal(["sessions", "-", "--tz", "UTC", "--from", "yesterday", "--to", Self.day(1).iso], input: Self.gym)
        #expect(agenda.status == 0, "\(agenda.standardError)")
        #expect(agenda.standardOutput.components(separatedBy: "Sessions on ").count - 1 == 3)
        #expect(agenda.standardOutput.contains("Sessions on \(Self.day(1).iso) (UTC): upcoming, 1 planned\n  00:00–00:30  planned         Gym"), "\(agenda.standardOutput)")
        let both = try streakcal(["sessions", "-", "--on", "today", "--last", "3d"], input: Self.gym)
        #expect(both.status == 64)
    }
}

extension RealCalendarTests {
    /// A 30-minute run on June 1st, then a two-week all-day "Vacation Portugal" from June 3rd, as
    /// Google exports them (no X-POINTS, no CATEGORIES).
    static let vacation = """
        BEGIN:VCALENDAR\r
        BEGIN:VEVENT\r
        UID:run\r
        DTSTART:20240601T070000Z\r
        DTEND:20240601T073000Z\r
        SUMMARY:Run\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:vacation\r
        DTSTART;VALUE=DATE:20240603\r
        DTEND;VALUE=DATE:20240617\r
        SUMMARY:Vacation Portugal\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("An all-day event counts no minutes, with a note; X-POINTS on one still counts", arguments: ["auto", "minutes"])
    func allDayIsNoMinutes(points: String) throws {
        let window = ["--tz", "UTC", "--from", "2024-06-01", "--to", "2024-06-20", "--required", "30", "--format", "json", "--points", points]
        let result = try streakcal(["report", "-"] + window, input: Self.vacation)
        let report = try jsonObject(result.standardOutput)
        let days = try #require(report["days"] as? [[String: Any]])
        #expect(days.map { $0["points"] as? Int }.prefix(4) == [30, 0, 0, 0])
        #expect((report["totals"] as? [String: Int])?["points"] == 30)
        #expect(result.standardError.contains("note: 1 all-day event counts no minutes"), "\(result.standardError)")
        #expect(result.standardError.contains("streakcal: hint: --skip-when 'summary:vacation' makes all-day vacations skip their days\n"))
        let withPoints = Self.vacation.replacingOccurrences(of: "SUMMARY:Vacation Portugal", with: "SUMMARY:Vacation Portugal\r\nX-POINTS:40")
        let counted = try streakcal(["report", "-", "--tz", "UTC", "--from", "2024-06-01", "--to", "2024-06-05", "--format", "json"], input: withPoints)
        let countedDays = try #require(try jsonObject(counted.standardOutput)["days"] as? [[String: Any]])
        #expect(countedDays.map { $0["points"] as? Int } == [0, 0, 40, 0, 0])
    }

    @Test("--skip-when and a rules file's skipWhen make a Google calendar's all-day vacation skip its days")
    func skipWhen() throws {
        let window = ["--tz", "UTC", "--from", "2024-06-01", "--to", "2024-06-20", "--required", "30", "--format", "json"]
        let option = try streakcal(["report", "-", "--skip-when", "summary:vacation"] + window, input: Self.vacation)
        try withTemporaryFolder("skip-when") { folder in
            let rules = folder.appendingPathComponent("rules.json")
            try #"{"skipWhen": "summary~(?i)^vacation"}"#.write(to: rules, atomically: true, encoding: .utf8)
            let file = try streakcal(["report", "-", "--rules", rules.path] + window, input: Self.vacation)
            for result in [option, file] {
                #expect(result.status == 0, "\(result.standardError)")
                let report = try jsonObject(result.standardOutput)
                let statuses = try #require(report["days"] as? [[String: Any]]).map { $0["status"] as? String }
                #expect(statuses[2...15].allSatisfy { $0 == "skipped" }, "\(statuses)")
                #expect(statuses[1] == "none" && statuses[16] == "none")
                #expect((report["totals"] as? [String: Int])?["skipMarkers"] == 1)
            }
            let bad = folder.appendingPathComponent("bad.json")
            try #"{"skipWhen": "summary~(a"}"#.write(to: bad, atomically: true, encoding: .utf8)
            let refused = try streakcal(["report", "-", "--rules", bad.path] + window, input: Self.vacation)
            #expect(refused.status == 64 && refused.standardError.contains("\"skipWhen\""), "\(refused.standardError)")
        }
    }
}

extension RealCalendarTests {
    @Test("A minutes report says minutes everywhere: the text's figures, pictures' titles, cards and annotations; a count report says sessions")
    func unitsAsCounted() throws {
        let window = ["--tz", "UTC", "--from", "2024-06-01", "--to", "2024-06-02", "--required", "20"]
        let text = try streakcal(["report", "-"] + window, input: Self.vacation).standardOutput
        #expect(text.contains("goal 20 minutes a day") && text.contains("Minutes: 30 in 1 session\n"), "\(text)")
        #expect(!text.contains("Points:"))
        let svg = try streakcal(["report", "-", "--format", "svg"] + window, input: Self.vacation).standardOutput
        #expect(svg.contains("met, 30 of 20 minutes, 1 session") && !svg.contains(" points"), "\(svg)")
        let html = try streakcal(["report", "-", "--format", "html"] + window, input: Self.vacation).standardOutput
        #expect(html.contains("30 of 20 minutes") && html.contains("<p class=\"pill\">30 minutes</p>") && !html.contains("points,"))
        let annotated = try streakcal(["annotate", "-", "--only-annotations"] + window, input: Self.vacation).standardOutput
        #expect(annotated.contains("SUMMARY:✓ 30/20 minutes"), "\(annotated)")
        let counted = try streakcal(["report", "-", "--points", "count", "--required", "1", "--tz", "UTC", "--from", "2024-06-01", "--to", "2024-06-02"], input: Self.vacation)
        #expect(counted.standardOutput.contains("goal 1 session a day") && counted.standardOutput.contains("Sessions: 1\n"), "\(counted.standardOutput)")
    }
}

extension RealCalendarTests {
    /// `htps://…` read as "no such file" (issue 46.9): a missing path shaped like an address says
    /// its scheme is not one StreakCal reads, for report and batch alike; a plain name does not.
    @Test("A mistyped scheme says the scheme is unknown, not only that no such file exists")
    func unknownScheme() throws {
        let report = try streakcal(["report", "htps://calendar.example.com/team.ics"])
        #expect(report.status == 1)
        #expect(report.standardError == "streakcal: error: cannot read htps://calendar.example.com/team.ics: no such file, "
            + "and htps:// is not an address StreakCal reads (http://, https:// or webcal://)\n")
        try withTemporaryFolder("scheme") { folder in
            let batch = try streakcal(["batch", "ftp://example.com/a.ics", "--out", folder.path])
            #expect(batch.standardOutput.contains("ftp:// is not an address StreakCal reads"), "\(batch.standardOutput)")
        }
        let plain = try streakcal(["report", "missing-calendar.ics"])
        #expect(plain.standardError == "streakcal: error: cannot read missing-calendar.ics: no such file\n")
    }
}

extension RealCalendarTests {
    /// "Best streaks" was one line of every streak, a wall of text (issue 46.9): each format shows
    /// them as a compact table, a row per streak, the longest first.
    @Test("Best streaks: a compact table in text, Markdown, HTML and SVG")
    func bestStreaksTable() throws {
        let arguments = ["report", fixture("tutorial-sample.ics"), "--tz", "UTC", "--from", "2024-01-01", "--to", "2024-12-31",
                         "--required", "10", "--schedule", "sun:0"]
        let text = try streakcal(arguments).standardOutput
        #expect(text.contains("Best streaks:\n  1.  2 days  2024-02-24 to 2024-02-26\n  2.   1 day  2024-02-20\n"), "\(text)")
        let markdown = try streakcal(arguments + ["--format", "md"]).standardOutput
        #expect(markdown.contains("## Best streaks\n\n| # | Length | Days |\n| ---: | ---: | --- |\n| 1 | 2 days | 2024-02-24 to 2024-02-26 |\n| 2 | 1 day | 2024-02-20 |\n"))
        let html = try streakcal(arguments + ["--format", "html"]).standardOutput
        #expect(html.contains("<caption>Best streaks</caption>"))
        #expect(html.contains("<tr><td>2</td><td>1 day</td><td><time datetime=\"2024-02-20\">2024-02-20</time></td></tr>"))
        let svg = try streakcal(arguments + ["--format", "svg"]).standardOutput
        #expect(svg.contains(">1. 2 days: 2024-02-24 to 2024-02-26</text>") && svg.contains(">2. 1 day: 2024-02-20</text>"))
        for output in [text, markdown, html, svg] { #expect(!output.contains("Best streaks: ")) }
    }
}

extension RealCalendarTests {
    /// With `--period-goal "month:300 points"` the month was met, yet every day was coloured
    /// partial against a default of 100 a day that nobody set (issue 46.5): under a period goal
    /// without a daily goal, a day is met by any points, and no format names a daily goal.
    @Test("A period goal without a daily goal: days met by any points, no daily goal anywhere")
    func periodGoalDays() throws {
        let window = [fixture("tutorial-sample.ics"), "--tz", "UTC", "--from", "2024-02-01", "--to", "2024-03-31", "--period-goal", "month:300 points"]
        let text = try streakcal(["report"] + window).standardOutput
        #expect(text.hasPrefix("Streak report: FSCalendar streaks tutorial sample, 2024-02-01 to 2024-03-31, UTC, goal 300 points a month (any points meet a day)\n"), "\(text)")
        #expect(text.contains("Days: 60 (met 4, partial 0, none 56)"))
        #expect(!text.contains("partial, under 1/3"))  // the legend shows no shade that cannot occur
        let json = try jsonObject(try streakcal(["report", "--format", "json"] + window).standardOutput)
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days.filter { ($0["points"] as? Int ?? 0) > 0 }.allSatisfy { $0["status"] as? String == "met" })
        #expect(json["requiredPoints"] as? Int == 1)
        let svg = try streakcal(["report", "--format", "svg"] + window).standardOutput
        #expect(svg.contains("<title>Saturday, 24 February 2024: met, 30 points, 1 session"), "\(svg.prefix(0))")
        let annotated = try streakcal(["annotate", "--only-annotations"] + window).standardOutput
        #expect(annotated.contains("SUMMARY:✓ 30 points"), "\(annotated)")
        #expect(!annotated.contains("/1 points"))
        // A daily goal given is a daily goal kept.
        let given = try streakcal(["report", "--required", "50"] + window).standardOutput
        #expect(given.contains("goal 50 points a day, 300 points a month") && given.contains("met 3, partial 1"), "\(given)")
    }
}

extension RealCalendarTests {
    /// An Outlook export: every time in "W. Europe Standard Time" (a VTIMEZONE Outlook writes), no
    /// X-WR-TIMEZONE, and a run at 00:30 on 10 June. Reported in the machine's UTC it landed on
    /// 9 June without a word (issue 46.7).
    static func outlook(declaring declared: String? = nil) -> String {
        var lines = ["BEGIN:VCALENDAR", "PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN", "VERSION:2.0"]
        if let declared { lines.append("X-WR-TIMEZONE:\(declared)") }
        lines += ["BEGIN:VTIMEZONE", "TZID:W. Europe Standard Time",
                  "BEGIN:STANDARD", "DTSTART:16011028T030000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
                  "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
                  "BEGIN:DAYLIGHT", "DTSTART:16010325T020000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
                  "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT", "END:VTIMEZONE",
                  "BEGIN:VEVENT", "UID:late-run", "DTSTART;TZID=W. Europe Standard Time:20240610T003000",
                  "DTEND;TZID=W. Europe Standard Time:20240610T013000", "SUMMARY:Late run", "END:VEVENT", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The days with points, as `date=points`, of a JSON report.
    static func activeDays(_ output: String) throws -> [String] {
        let days = try #require(try jsonObject(output)["days"] as? [[String: Any]])
        return days.filter { ($0["points"] as? Int ?? 0) > 0 }.map { "\($0["date"] as? String ?? "?")=\($0["points"] as? Int ?? 0)" }
    }

    @Test("Without X-WR-TIMEZONE or --tz the report is in the zone of the events' times, with a note; whatever the machine's zone",
          arguments: ["UTC", "America/Los_Angeles", "Asia/Tokyo"])
    func eventsZone(machineZone: String) throws {
        let window = ["--from", "2024-06-08", "--to", "2024-06-12", "--format", "json"]
        let result = try streakcal(["report", "-"] + window, input: Self.outlook(), environment: ["TZ": machineZone])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.activeDays(result.standardOutput) == ["2024-06-10=60"])
        #expect(try jsonObject(result.standardOutput)["timeZone"] as? String == "Europe/Berlin")
        #expect(result.standardError.contains("-:1:1: note: no calendar declares its zone (X-WR-TIMEZONE): the report uses Europe/Berlin, "
            + "the zone of its events' times (TZID \"W. Europe Standard Time\")"), "\(result.standardError)")
        #expect(result.standardError.contains("streakcal: hint: --tz ZONE gives the report's zone"))
        // --tz decides, and says nothing.
        let utc = try streakcal(["report", "-", "--tz", "UTC"] + window, input: Self.outlook(), environment: ["TZ": machineZone])
        #expect(try Self.activeDays(utc.standardOutput) == ["2024-06-09=60"])
        #expect(!utc.standardError.contains("report uses"))
    }

    @Test("Nothing declared and no event's zone: the machine's zone decides (TZ), which the command reads and gives the library",
          arguments: [("UTC", "2024-03-01"), ("Asia/Tokyo", "2024-03-02"), ("America/Los_Angeles", "2024-03-01"), ("Pacific/Kiritimati", "2024-03-02")])
    func machineZone(zone: String, day: String) throws {
        let calendar = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:late", "DTSTART:20240301T233000Z", "DTEND:20240302T000000Z",
                        "X-POINTS:5", "END:VEVENT", "END:VCALENDAR"].joined(separator: "\r\n") + "\r\n"
        let result = try streakcal(["report", "-", "--from", "2024-02-28", "--to", "2024-03-04", "--format", "json"],
                                   input: calendar, environment: ["TZ": zone])
        #expect(result.status == 0, "\(result.standardError)")
        // Foundation names TZ=UTC "GMT".
        let named = try jsonObject(result.standardOutput)["timeZone"] as? String
        #expect(named == zone || (zone == "UTC" && named == "GMT"), "\(named ?? "none")")
        #expect(try Self.activeDays(result.standardOutput) == ["\(day)=5"])
    }

    @Test("A declared X-WR-TIMEZONE wins over the events' zone, with a note when no event's time is in it")
    func declaredZoneWins() throws {
        let window = ["--from", "2024-06-08", "--to", "2024-06-12", "--format", "json"]
        let berlin = try streakcal(["report", "-"] + window, input: Self.outlook(declaring: "Europe/Berlin"), environment: ["TZ": "UTC"])
        #expect(try Self.activeDays(berlin.standardOutput) == ["2024-06-10=60"])
        #expect(!berlin.standardError.contains("report uses"), "\(berlin.standardError)")
        let newYork = try streakcal(["report", "-"] + window, input: Self.outlook(declaring: "America/New_York"), environment: ["TZ": "UTC"])
        #expect(try Self.activeDays(newYork.standardOutput) == ["2024-06-09=60"])
        #expect(newYork.standardError.contains("note: X-WR-TIMEZONE declares America/New_York, but the events' times are in Europe/Berlin "
            + "(TZID \"W. Europe Standard Time\"): the report uses America/New_York, the declared zone"), "\(newYork.standardError)")
        let unknown = try streakcal(["report", "-"] + window, input: Self.outlook(declaring: "Mars/Olympus"), environment: ["TZ": "UTC"])
        #expect(try Self.activeDays(unknown.standardOutput) == ["2024-06-10=60"])
        #expect(unknown.standardError.contains("warning: X-WR-TIMEZONE \"Mars/Olympus\" is not an IANA time zone; the report uses Europe/Berlin"),
                "\(unknown.standardError)")
    }
}
