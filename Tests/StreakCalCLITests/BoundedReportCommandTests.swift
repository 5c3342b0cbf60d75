import Foundation
import StreakCal
import Testing

/// The reproducers of issue 29 about reports, habits and rules files (`../shared/repro/round3`),
/// each with its input made here: patterns, filters, rules files and windows of any size are
/// answered in bounded time and memory, or refused with a usage error that says where.
@Suite("Reports, habits and rules files: bounded")
struct BoundedReportCommandTests {
    /// A temporary folder for one test's files, removed at the end.
    private final class Folder {
        let path = NSTemporaryDirectory() + "bounded-report-\(UUID().uuidString)"

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// Writes `text` to `name` in the folder; its path.
        func file(_ name: String, _ text: String) throws -> String {
            let file = path + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            return file
        }
    }

    /// One event at 2024-01-01 09:00Z (X-POINTS 5) with `summary`.
    private static func calendar(summary: String = "a", points: Int = 5, more: String = "") -> String {
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240101T090000Z\r\nX-POINTS:\(points)\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\n"
            + more + "END:VCALENDAR\r\n"
    }

    private let oneDay = ["--tz", "UTC", "--from", "2024-01-01", "--to", "2024-01-01"]

    // habit-regex-redos.sh, habit-regex-quadratic-long-summary.sh

    @Test("A backtracking pattern on 24 letters and '!', and .*run on 30,000 letters, answer at once", arguments: [
        ("Words=summary~^(\\w+\\s?)*$", String(repeating: "a", count: 24) + "!", "none"),
        ("Words=summary~^(\\w+\\s?)*$", String(repeating: "a", count: 24), "partial"),
        ("Run=summary~.*run", String(repeating: "a", count: 30_000), "none"),
        ("Run=summary~.*run", String(repeating: "a", count: 30_000) + "run", "partial"),
    ])
    func patternsInLinearTime(habit: String, summary: String, status: String) throws {
        let folder = try Folder()
        let path = try folder.file("r.ics", Self.calendar(summary: summary))
        let result = try streakcal(["report", path, "--format", "csv", "--habit", habit] + oneDay, timeLimit: .seconds(20))
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.standardError)")
        let name = String(habit.prefix { $0 != "=" })
        #expect(result.standardOutput.split(separator: "\r\n").last == "2024-01-01,\(status == "none" ? 0 : 5),\(status == "none" ? 0 : 1),\(status),100,\(status == "none" ? "0.0" : "0.05"),\(name)")
    }

    @Test("What the pattern engine cannot do is a usage error naming the habit and the place", arguments: [
        ("Twice=summary~(a)\\1", "--habit 'Twice=summary~(a)\\1': habit 'Twice': '(a)\\1' is not a regular expression StreakCal reads: backreferences (\\1, \\k<name>) are not supported (at character 18)."),
        ("Ahead=summary~run(?=s)", "--habit 'Ahead=summary~run(?=s)': habit 'Ahead': 'run(?=s)' is not a regular expression StreakCal reads: lookahead (?= and (?! is not supported (at character 18)."),
    ])
    func unsupportedPatterns(habit: String, message: String) throws {
        let folder = try Folder()
        let result = try streakcal(["report", try folder.file("a.ics", Self.calendar()), "--habit", habit] + oneDay)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    // habit-filter-deep-nesting-segv.sh

    @Test("30,000 'not's and 40,000 '(' are usage errors naming the habit; 30,000 terms joined by 'or' in a rules file are read")
    func deepFilters() throws {
        let folder = try Folder()
        let path = try folder.file("a.ics", Self.calendar())
        let nots = try streakcal(["report", path, "--habit", "A=" + String(repeating: "not ", count: 30_000) + "summary:a"] + oneDay)
        #expect(nots.status == 64)
        #expect(nots.standardError.contains("--habit 'A=not not not"))
        #expect(nots.standardError.contains("…': habit 'A': the filter is nested more than 32 deep (at character 3)."))
        let groups = try streakcal(["report", path, "--habit", "B=" + String(repeating: "(", count: 40_000) + "summary:a"] + oneDay)
        #expect(groups.status == 64)
        #expect(groups.standardError.contains("habit 'B': the filter is nested more than 32 deep (at character 35)."))

        let chain = (0..<30_000).map { _ in "summary:a" }.joined(separator: " or ")
        let rules = try folder.file("or.json", #"{"habits": {"A": "\#(chain)"}}"#)
        let read = try streakcal(["report", path, "--rules", rules, "--format", "csv"] + oneDay)
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardOutput.hasSuffix("2024-01-01,5,1,partial,100,0.05,A\r\n"))

        let deep = try folder.file("not.json", #"{"habits": {"Deep": "\#(String(repeating: "not ", count: 40))all"}}"#)
        let refused = try streakcal(["report", path, "--rules", deep] + oneDay)
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("\(deep):1:22: error: habit \"Deep\": the filter is nested more than 32 deep"))
    }

    // freezes-every-0.sh

    @Test("--freezes 'every 0', on the command line or in a rules file, is a usage error")
    func freezesEveryZero() throws {
        let folder = try Folder()
        let path = try folder.file("a.ics", Self.calendar(points: 100))
        let window = ["--tz", "UTC", "--from", "2024-01-01", "--to", "2024-01-03"]
        let option = try streakcal(["report", path, "--freezes", "every 0"] + window)
        #expect(option.status == 64)
        #expect(option.standardError.contains("--freezes 'every 0': freezes are earned every 1 or more met days, not every 0 (at character 7)."))
        let rules = try folder.file("r.json", "{\n  \"freezes\": \"1 + every 0\"\n}\n")
        let file = try streakcal(["report", path, "--rules", rules] + window)
        #expect(file.status == 64)
        #expect(file.standardError.contains("\(rules):2:25: error: freezes are earned every 1 or more met days, not every 0"))
        let one = try streakcal(["report", path, "--freezes", "every 1"] + window)
        #expect(one.status == 0)
        #expect(one.standardOutput.contains("Freezes: 1 used, 0 left (1 earned; rule: every 1)"))
    }

    // csv-habit-name-formula.sh

    @Test("Habit names that a spreadsheet reads as formulas are neutralised in CSV")
    func csvFormulas() throws {
        let folder = try Folder()
        let path = try folder.file("a.ics", Self.calendar())
        let rules = try folder.file("r.json", #"{"habits": {"=HYPERLINK(\"http://evil\",\"x\")": "all", "+cmd|' /C calc'!A0": "all", "@SUM(1)": "all", "-2+3": "all", "\tTab": "all", "Plain": "all"}}"#)
        let result = try streakcal(["report", path, "--rules", rules, "--format", "csv"] + oneDay)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\r\n").map(String.init) == [
            "date,points,sessions,status,required,fraction,habit",
            "2024-01-01,5,1,partial,100,0.05,",
            #"2024-01-01,5,1,partial,100,0.05,"'=HYPERLINK(""http://evil"",""x"")""#,
            "2024-01-01,5,1,partial,100,0.05,'+cmd|' /C calc'!A0",
            "2024-01-01,5,1,partial,100,0.05,'@SUM(1)",
            "2024-01-01,5,1,partial,100,0.05,'-2+3",
            "2024-01-01,5,1,partial,100,0.05,'\tTab",
            "2024-01-01,5,1,partial,100,0.05,Plain",
        ])
    }

    // tz-gmt-offset-sign.sh

    @Test("--tz GMT+5 and UTC-3 are refused with the IANA names to use; Etc/GMT+5 is UTC-05:00", arguments: [
        ("GMT+5", "--tz: 'GMT+5' is read two ways: as UTC+05:00 (ISO 8601) and as UTC-05:00 (POSIX TZ, and the IANA name Etc/GMT+5); name a zone such as Asia/Karachi, or write Etc/GMT-5 for UTC+05:00 (Etc/GMT+5 for UTC-05:00)."),
        ("UTC+05:30", "--tz: 'UTC+05:30' is read two ways: as UTC+05:30 (ISO 8601) and as UTC-05:30 (POSIX TZ); name a zone such as Asia/Kolkata."),
    ])
    func gmtOffsets(zone: String, message: String) throws {
        let folder = try Folder()
        let path = try folder.file("u.ics", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240601T120000Z\r\nDURATION:PT30M\r\nX-POINTS:5\r\nSUMMARY:noon UTC\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        for command in [["sessions", path, "--on", "2024-06-01"], ["report", path], ["layout", "--calendar", path, "--month", "2024-06"]] {
            let refused = try streakcal(command + ["--tz", zone])
            #expect(refused.status == 64, "\(command)")
            #expect(refused.standardError.contains(message), "\(refused.standardError)")
        }
        let west = try streakcal(["sessions", path, "--on", "2024-06-01", "--tz", "Etc/GMT+5"])
        #expect(west.standardOutput.split(separator: "\n").dropFirst().first?.contains("07:00–07:30") == true)
        let east = try streakcal(["sessions", path, "--on", "2024-06-01", "--tz", "Etc/GMT-5"])
        #expect(east.standardOutput.split(separator: "\n").dropFirst().first?.contains("17:00–17:30") == true)
        let zero = try streakcal(["sessions", path, "--on", "2024-06-01", "--tz", "GMT+0"])
        #expect(zero.status == 0)
    }

    // html-report-quadratic-window.sh

    @Test("A thousand-year window: every format answers; SVG and HTML draw the last 100 years and say so")
    func longWindow() throws {
        let folder = try Folder()
        let path = try folder.file("a.ics", Self.calendar())
        let window = ["--tz", "UTC", "--from", "2024-01-01", "--to", "3023-12-31"]
        for format in ["html", "svg"] {
            let result = try streakcal(["report", path, "--format", format] + window, timeLimit: .seconds(60))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains(
                "streakcal: warning: the days of 2924 to 3023 are drawn (at most 100 years); the figures count every day from 2024-01-01; narrow --from and --to to draw other years"))
            let years = format == "html" ? "<figure class=\"year\" id=\"year-" : "<g class=\"year\" id=\"year-"
            #expect(result.standardOutput.components(separatedBy: years).count - 1 == 100)
            #expect(result.standardOutput.contains(years + "2924\""))
            #expect(!result.standardOutput.contains(years + "2923\""))
            #expect(result.standardOutput.utf8.count < 12_000_000)
            #expect(result.standardOutput.contains("365242 days"))
        }
        for format in ["text", "csv", "json", "md"] {
            let result = try streakcal(["report", path, "--format", format] + window, timeLimit: .seconds(60))
            #expect(result.status == 0, "\(format): \(result.standardError)")
            #expect(result.standardError.isEmpty)
            #expect(result.standardOutput.contains("3023"))
        }
    }

    // rules-file-scaling.sh

    @Test("A rules file's entries are bounded: the first one too many is a located error")
    func rulesFileLimits() throws {
        let folder = try Folder()
        let path = try folder.file("a.ics", Self.calendar())
        let window = ["--tz", "UTC", "--from", "1000-01-01", "--to", "9000-12-31", "--format", "csv"]
        let schedule = (0..<10_001).map { "\"from \(Day(daysSince1970: -700_000 + $0 * 30)): \($0 % 500 + 1)\"" }
        let tooMany = try folder.file("sched.json", "{\"schedule\": [\n" + schedule.joined(separator: ",\n") + "\n]}\n")
        let refused = try streakcal(["report", path, "--rules", tooMany] + window)
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("\(tooMany):10002:1: error: \"schedule\" holds at most 10000 texts"))
        let habits = (0..<51).map { "\"H\($0)\": \"all\"" }.joined(separator: ", ")
        let manyHabits = try folder.file("habits.json", "{\"habits\": {\(habits)}}")
        let habitsRefused = try streakcal(["report", path, "--rules", manyHabits] + window)
        #expect(habitsRefused.status == 64)
        #expect(habitsRefused.standardError.contains("\(manyHabits):1:\(habits.split(separator: ",").prefix(50).joined(separator: ",").utf8.count + 15): error: a rules file names at most 50 habits"))
        let big = try folder.file("big.json", "{\"skipCategories\": [\"" + String(repeating: "x", count: 5 << 20) + "\"]}")
        let bigRefused = try streakcal(["report", path, "--rules", big] + window)
        #expect(bigRefused.status == 64)
        #expect(bigRefused.standardError.contains("\(big):1:1: error: a rules file is at most 4194304 bytes (4 MiB)"))
    }

    @Test("10,000 schedule entries and 10,000 skip ranges over 8,000 years: read and applied at once")
    func rulesFileAtTheLimit() throws {
        let folder = try Folder()
        let path = try folder.file("a.ics", Self.calendar())
        let window = ["--tz", "UTC", "--from", "1000-01-01", "--to", "9000-12-31", "--format", "csv"]
        // Entries every 300 days from year 54 on, the last from 8266 on; a skip range per year from 1000 to 8999.
        let starts = (0..<10_000).map { Day(daysSince1970: -700_000 + $0 * 300) }
        let schedule = starts.indices.map { "\"from \(starts[$0]): \($0 % 500 + 1)\"" }
        let skips = (0..<10_000).map { "\"\(String(format: "%04d", 1000 + $0 % 8000))-01-01..\(String(format: "%04d", 1000 + $0 % 8000))-12-31\"" }
        let rules = try folder.file("rules.json", "{\"schedule\": [" + schedule.joined(separator: ",") + "], \"skip\": [" + skips.joined(separator: ",") + "]}")
        let result = try streakcal(["report", path, "--rules", rules] + window, timeLimit: .seconds(120))
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\r\n")
        let first = try! Day(year: 1000, month: 1, day: 1)
        let last = try! Day(year: 9000, month: 12, day: 31)
        #expect(lines.count == 1 + first.distance(to: last) + 1)
        func required(on day: Day) -> Int {
            (starts.lastIndex { $0 <= day }).map { $0 % 500 + 1 } ?? 100
        }
        // 2024 is skipped (1,000 + 1,024 % 8,000); 9000 is not.
        let newYear = try! Day(year: 2024, month: 1, day: 1)
        let fraction = (Double(5) / Double(required(on: newYear)) * 10_000).rounded() / 10_000
        #expect(lines.contains("2024-01-01,5,1,skipped,\(required(on: newYear)),\(fraction)"))
        // Days after today are upcoming: not scored yet.
        #expect(lines.last == "9000-12-31,0,0,upcoming,\(required(on: last)),")
        let middle = try! Day(year: 9000, month: 6, day: 1)
        #expect(lines.contains("9000-06-01,0,0,upcoming,\(required(on: middle)),"))
    }
}
