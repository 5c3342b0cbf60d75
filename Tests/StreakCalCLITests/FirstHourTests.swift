import Foundation
import Testing

/// What a newcomer meets in the first hour (issue 33): goals in the points' own unit, days that
/// say why they are not days, one wording for files that cannot be read, a file that is not a
/// calendar said once, diagnostics shown once on a terminal, `sessions --format json`, and
/// `layout --calendar` scored with the report's options.
@Suite("A newcomer's first hour")
struct FirstHourTests {
    let sample = fixture("tutorial-sample.ics")
    let week = ["--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-26"]

    @Test("The goal is said in the points' unit: sessions with --points count, minutes with --points minutes")
    func goalUnits() throws {
        let counted = try streakcal(["report", sample, "--points", "count", "--required", "1"] + week)
        #expect(counted.standardOutput.components(separatedBy: "\n").first?.hasSuffix("UTC, goal 1 session a day") == true, "\(counted.standardOutput)")
        let minutes = try streakcal(["report", sample, "--points", "minutes", "--required", "30"] + week)
        #expect(minutes.standardOutput.components(separatedBy: "\n").first?.hasSuffix("UTC, goal 30 minutes a day") == true)
        let points = try streakcal(["report", sample] + week)
        #expect(points.standardOutput.components(separatedBy: "\n").first?.hasSuffix("UTC, goal 100 points a day") == true)
        let markdown = try streakcal(["report", sample, "--points", "count", "--required", "2", "--format", "md"] + week)
        #expect(markdown.standardOutput.contains("| Goal | 2 sessions a day |"), "\(markdown.standardOutput)")
    }

    @Test("A day that does not exist says why", arguments: [
        ("2024-02-30", "there is no day 30 in 2024-02, which has 29 days"),
        ("2023-02-29", "there is no day 29 in 2023-02, which has 28 days"),
        ("2024-13-01", "there is no month 13: months run from 01 to 12"),
        ("tomorrow", "a day is written YYYY-MM-DD, such as 2024-02-29"),
        ("2024-2-3", "a day is written YYYY-MM-DD, such as 2024-02-29"),
    ])
    func dayReasons(text: String, reason: String) throws {
        let result = try streakcal(["report", sample, "--from", text])
        #expect(result.status == 64)
        #expect(result.standardError.contains("'\(text)' is invalid for '--from <day>': \(reason)"), "\(result.standardError)")
        let sessions = try streakcal(["sessions", sample, "--on", text])
        #expect(sessions.status == 64)
        #expect(sessions.standardError.contains(reason), "\(sessions.standardError)")
    }

    @Test("A rules file that cannot be read fails as a calendar that cannot be read does")
    func missingRulesFile() throws {
        let result = try streakcal(["report", sample, "--rules", "/nonexistent/rules.json"])
        #expect(result.status == 1)
        #expect(result.standardError == "streakcal: error: --rules: cannot read /nonexistent/rules.json: no such file\n")
        let folder = try streakcal(["report", sample, "--rules", repositoryRoot.appendingPathComponent("Fixtures").path])
        #expect(folder.status == 1)
        #expect(folder.standardError.hasSuffix("Fixtures: it is a folder\n"), "\(folder.standardError)")
    }

    @Test("A file that is not a calendar is one error, not a warning per line")
    func notACalendar() throws {
        let readme = repositoryRoot.appendingPathComponent("README.md").path
        for command in [["report"], ["sessions", "--on", "2024-02-20"], ["annotate"]] {
            let result = try streakcal(command + [readme])
            #expect(result.status == 1, "\(command)")
            #expect(result.standardError == "streakcal: error: cannot read \(readme): not an iCalendar file (its text does not start with BEGIN:)\n")
            #expect(result.standardOutput.isEmpty)
        }
        // An empty file is an empty calendar, as before; a calendar after a byte order mark and blank lines is one.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("first-hour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.ics")
        try Data().write(to: empty)
        #expect(try streakcal(["report", empty.path, "--tz", "UTC", "--to", "2024-02-26"]).status == 0)
        let marked = folder.appendingPathComponent("marked.ics")
        try Data([0xEF, 0xBB, 0xBF] + Array("\r\n\r\n".utf8) + Array(try String(contentsOfFile: sample, encoding: .utf8).utf8)).write(to: marked)
        let read = try streakcal(["report", marked.path] + week)
        #expect(read.status == 0)
        #expect(read.standardOutput.contains("Current streak: 2 days (2024-02-25 to 2024-02-26)"), "\(read.standardOutput)")
    }

    @Test("On a terminal that shows both streams, the diagnostics are printed once")
    func diagnosticsOnceOnATerminal() throws {
        let command = "'\(try streakcalPath())' report '\(sample)' --tz UTC --from 2024-02-20 --to 2024-02-26"
        let onTerminal = try run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"])
        #expect(onTerminal.status == 0, "\(onTerminal.standardError)")
        #expect(onTerminal.standardOutput.components(separatedBy: "the event ends before it starts").count == 2, "\(onTerminal.standardOutput)")
        #expect(onTerminal.standardOutput.contains("Current streak"))
        // Into a pipe or a file, the report keeps its diagnostics block.
        let piped = try streakcal(["report", sample] + week)
        #expect(piped.standardOutput.contains("1 diagnostic (1 warning):"))
        #expect(piped.standardError.contains("the event ends before it starts"))
    }

    @Test("sessions --format json: the day, its status and each session with its local times and source line")
    func sessionsJSON() throws {
        let result = try streakcal(["sessions", sample, "--on", "2024-02-25", "--tz", "UTC", "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["date"] as? String == "2024-02-25")
        #expect((object["generator"] as? String)?.hasPrefix("StreakCal ") == true)
        #expect(object["points"] as? Int == 100)
        #expect(object["required"] as? Int == 100)
        #expect(object["status"] as? String == "met")
        #expect(object["timeZone"] as? String == "UTC")
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["line"] as? Int } == [18])
        let sessions = try #require(object["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["start"] as? String } == ["2024-02-25T03:12:00", "2024-02-25T06:30:00"])
        #expect(sessions.map { $0["end"] as? String } == ["2024-02-25T04:04:07", "2024-02-25T09:50:42"])
        #expect(sessions.map { $0["points"] as? Int } == [20, 80])
        #expect(sessions.map { $0["allDay"] as? Bool } == [false, false])
        #expect(sessions.last?["summary"] as? String == "Success with the next session")
        #expect(sessions.last?["id"] as? String == "tutorial-3@streakcal.example")
        let source = try #require(sessions.last?["source"] as? [String: Any])
        #expect(source["file"] as? String == sample)
        #expect(source["line"] as? Int == 22)
        #expect(result.standardOutput.hasPrefix("{\n  \"date\" : \"2024-02-25\",\n"))
    }

    @Test("Grid rows are the weekly goal's weeks unless --first-weekday says otherwise")
    func gridsFollowWeeklyGoal() throws {
        func header(_ extra: [String]) throws -> String? {
            let result = try streakcal(["report", sample] + week + extra)
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardOutput.components(separatedBy: "\n").first { $0.hasPrefix("Su") || $0.hasPrefix("Mo") || $0.hasPrefix("We") }
        }
        #expect(try header([]) == "Su Mo Tu We Th Fr Sa")
        #expect(try header(["--period-goal", "week:3 days"]) == "Mo Tu We Th Fr Sa Su")
        #expect(try header(["--period-goal", "week:3 days", "--week-starts", "wed"]) == "We Th Fr Sa Su Mo Tu")
        #expect(try header(["--period-goal", "week:3 days", "--first-weekday", "sun"]) == "Su Mo Tu We Th Fr Sa")
        #expect(try header(["--period-goal", "month:10 days"]) == "Su Mo Tu We Th Fr Sa")
        let layout = try streakcal(["layout", "--month", "2024-02", "--period-goal", "week:3 days"])
        #expect(layout.standardOutput.components(separatedBy: "\n").dropFirst().first == "Mo Tu We Th Fr Sa Su", "\(layout.standardOutput)")
    }

    @Test("A weekly goal's weeks follow --first-weekday unless --week-starts or the rules file's weekStarts says")
    func weeklyGoalFollowsFirstWeekday() throws {
        try withTemporaryFolder("week-starts") { folder in
            let saturdays = folder.appendingPathComponent("saturdays.json").path
            try #"{"periodGoal": "week:3 days", "weekStarts": "sat"}"#.write(toFile: saturdays, atomically: true, encoding: .utf8)
            let habitFile = folder.appendingPathComponent("habit.json").path
            try #"{"habits": [{"name": "All", "filter": "all", "periodGoal": "week:3 days"}]}"#
                .write(toFile: habitFile, atomically: true, encoding: .utf8)
            /// The last day of the report's first week (the window starts on Tuesday 2024-02-20).
            func firstWeekEnd(_ extra: [String]) throws -> String? {
                let result = try streakcal(["report", sample, "--format", "json"] + week + extra)
                #expect(result.status == 0, "\(result.standardError)")
                let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
                let report = (json?["habits"] as? [[String: Any]])?.first ?? json
                return ((report?["periods"] as? [[String: Any]])?.first)?["end"] as? String
            }
            #expect(try firstWeekEnd(["--period-goal", "week:3 days"]) == "2024-02-25")  // Monday weeks
            #expect(try firstWeekEnd(["--period-goal", "week:3 days", "--first-weekday", "sun"]) == "2024-02-24")
            #expect(try firstWeekEnd(["--period-goal", "week:3 days", "--first-weekday", "sun", "--week-starts", "wed"]) == "2024-02-20")
            #expect(try firstWeekEnd(["--rules", saturdays, "--first-weekday", "sun"]) == "2024-02-23")
            #expect(try firstWeekEnd(["--rules", saturdays, "--week-starts", "sun"]) == "2024-02-24")
            // A habit's weekly goal from a rules file follows them too.
            #expect(try firstWeekEnd(["--rules", habitFile]) == "2024-02-25")
            #expect(try firstWeekEnd(["--rules", habitFile, "--first-weekday", "sun"]) == "2024-02-24")
            #expect(try firstWeekEnd(["--rules", habitFile, "--week-starts", "wed"]) == "2024-02-20")
        }
    }

    @Test("layout --calendar scores with the report's options: --points, --day-start, --rules")
    func layoutScoring() throws {
        func marks(_ extra: [String]) throws -> String {
            let result = try streakcal(["layout", "--month", "2024-02", "--calendar", sample, "--tz", "UTC", "--format", "json"] + extra)
            #expect(result.status == 0, "\(result.standardError)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let months = try #require(object["months"] as? [[String: Any]])
            let cells = try #require(months.first?["weeks"] as? [[[String: Any]]]).flatMap { $0 }
            return cells.filter { ($0["date"] as? String).map { $0 >= "2024-02-20" && $0 <= "2024-02-26" } ?? false }
                .map { ($0["status"] as? String).map { String($0.prefix(1)) } ?? "-" }.joined()
        }
        // As the report: met on the 20th, partial on the 24th, met on the 25th and 26th.
        let plain = try marks([])
        #expect(plain == "mnnnpmm", "\(plain)")
        // One session a day is met with --points count --required 1.
        #expect(try marks(["--points", "count", "--required", "1"]) == "mnnnmmm")
        // With days starting at 04:00 the 03:12 session of the 25th counts toward the 24th.
        #expect(try marks(["--day-start", "04:00"]) != plain)
        let rules = FileManager.default.temporaryDirectory.appendingPathComponent("layout-rules-\(UUID().uuidString).json")
        try Data(#"{"required": 30}"#.utf8).write(to: rules)
        defer { try? FileManager.default.removeItem(at: rules) }
        #expect(try marks(["--rules", rules.path]) == "mnnnmmm")
    }
}

/// Shell completion of `--tz` (issue 33): the zone names, asked of the binary as the shell
/// completes (the completion scripts name the custom completion).
@Suite("Completion of zone names")
struct ZoneCompletionTests {
    @Test("bash completes after a bare `streakcal FILE` as after `streakcal report FILE`, and offers files first")
    func bareFileCompletion() throws {
        try withTemporaryFolder("completion") { folder in
            let script = try streakcal(["--generate-completion-script", "bash"])
            #expect(script.status == 0)
            try script.standardOutput.write(to: folder.appendingPathComponent("streakcal.bash"), atomically: true, encoding: .utf8)
            for name in ["work.ics", "notes.txt"] {
                #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data()))
            }
            // What bash does on a tab: the words so far, the function the script registered, its replies.
            let driver = #"""
                source streakcal.bash
                complete_line() {
                    COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
                    read -ra COMP_WORDS <<<"$COMP_LINE"
                    [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
                    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
                    COMPREPLY=()
                    _streakcal streakcal "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '; echo
                }
                complete_line "streakcal "
                complete_line "streakcal wo"
                complete_line "streakcal work.ics --fo"
                complete_line "streakcal work.ics --format "
                complete_line "streakcal work.ics --tz Europe/Be"
                complete_line "streakcal report work.ics --fo"
                """#
            let binaryFolder = URL(fileURLWithPath: try streakcalPath()).deletingLastPathComponent().path
            let result = try run("/bin/bash", ["-c", driver], environment: ["PATH": binaryFolder + ":/usr/bin:/bin", "LC_ALL": "C"],
                                 currentDirectory: folder.path)
            #expect(result.status == 0, "\(result.standardError)")
            let replies = result.standardOutput.components(separatedBy: "\n")
            #expect(replies.first == "--help --version -h annotate batch card help layout report sessions totals work.ics ")
            #expect(replies.dropFirst(1).first == "work.ics ")
            #expect(replies.dropFirst(2).first == "--format ")
            #expect(replies.dropFirst(3).first == "csv html json md svg text ")
            #expect(replies.dropFirst(4).first == "Europe/Belgrade Europe/Berlin ")
            #expect(replies.dropFirst(5).first == "--format ")
            // zsh and fish are taught the same (checked by hand with zsh 5.9's zpty and fish 3.6's
            // complete -C; neither shell is on the test machines): their scripts carry the changes.
            let zsh = try streakcal(["--generate-completion-script", "zsh"]).standardOutput
            #expect(zsh.contains("_files -g '*.ics' && ret=0"))
            #expect(zsh.contains("words=(report \"${words[@]}\")"))
            let fish = try streakcal(["--generate-completion-script", "fish"]).standardOutput
            #expect(fish.contains("set unparsed_tokens 'report' $unparsed_tokens"))
            #expect(fish.contains("'__streakcal_should_offer_completions_for_positional \"streakcal\" -eq 1' -fa '(for p in"))
        }
    }

    @Test("--tz completes to the IANA names that start with what is typed")
    func zoneNames() throws {
        let result = try streakcal(["---completion", "report", "--", "--tz", "0", "9", "Europe/Be"])
        #expect(result.status == 0, "\(result.standardError)")
        let names = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(names.contains("Europe/Berlin"))
        #expect(names.contains("Europe/Belgrade"))
        #expect(names.allSatisfy { $0.hasPrefix("Europe/Be") }, "\(names)")
        let script = try streakcal(["--generate-completion-script", "bash"])
        #expect(script.standardOutput.contains("---completion report -- --tz"), "the bash script does not ask the binary for --tz")
    }
}
