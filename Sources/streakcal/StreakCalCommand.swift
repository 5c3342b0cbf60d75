import ArgumentParser
import Foundation
import StreakCal

@main
struct StreakCalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streakcal",
        abstract: "Scores each day's activity in iCalendar files against a points goal.",
        subcommands: [Report.self, Sessions.self, Annotate.self, Layout.self, Batch.self],
        defaultSubcommand: Report.self)
}

/// The documented range of every numeric option, checked in `validate()` (exit status 64 outside it).
///
/// Numeric options read their value unconditionally, so `--required -5` reaches the check
/// (instead of `-5` being taken for an option) and gets its message.
enum OptionRange {
    /// `--required`: points a day needs.
    static let required = 1...1_000_000_000
    /// `--max-instances`: instances one recurrence rule may add.
    static let maxInstances = 1...10_000_000
    /// `--jobs`: calendars a batch works on at once.
    static let jobs = 1...256
    /// `layout --months`: months (or weeks) laid out.
    static let months = 1...1200
    /// `layout --width`: points across.
    static let width = 7...100_000
    /// `layout --header-height`: points per month header.
    static let headerHeight = 0...10_000

    /// "1 to 10000000", as help texts and messages print a range.
    static func text(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound) to \(range.upperBound)"
    }

    /// Throws a usage error naming the option, the value and the range when `value` is outside `range`.
    static func check(_ value: Int, _ range: ClosedRange<Int>, option: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) must be \(text(range)), not \(value).")
        }
    }
}

/// Where points come from, as the CLI spells it.
enum PointsOption: String, ExpressibleByArgument, CaseIterable {
    case xPoints = "x-points"
    case minutes
    case count
}

/// How days are scored: the goal, where points come from, the zone and the day start, and how far
/// recurrence goes (report, sessions, annotate, batch).
struct ScoringOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Points a day needs to count as met (\(OptionRange.text(OptionRange.required))).", valueName: "n"))
    var required: Int = 100

    @Option(help: "Where points come from: x-points (a property), minutes (length), count (1 per session).")
    var points: PointsOption = .xPoints

    @Option(help: "The property that carries points, with --points x-points.")
    var pointsProperty: String = "X-POINTS"

    @Option(help: "IANA time zone of the report (default: the calendar's X-WR-TIMEZONE, else the system zone).")
    var tz: String?

    @Option(help: "When a day begins, HH:MM: with 04:00, 00:00 to 03:59 belongs to the previous day.")
    var dayStart: String = "00:00"

    @Option(parsing: .unconditional, help: ArgumentHelp("Most instances one recurrence rule may add to the report's window (\(OptionRange.text(OptionRange.maxInstances))).", valueName: "n"))
    var maxInstances: Int = RecurrenceExpansion.defaultMaximumInstancesPerRule

    func validate() throws {
        try OptionRange.check(required, OptionRange.required, option: "--required")
        try OptionRange.check(maxInstances, OptionRange.maxInstances, option: "--max-instances")
        guard DayStart(dayStart) != nil else { throw ValidationError("--day-start takes HH:MM from 00:00 to 23:59, not '\(dayStart.escapingControlCharacters())'.") }
        if let tz, TimeZone(identifier: tz) == nil { throw ValidationError("--tz: unknown time zone '\(tz.escapingControlCharacters())'; use an IANA name such as Europe/Berlin.") }
        guard pointsProperty.range(of: #"^[A-Za-z0-9-]+$"#, options: .regularExpression) != nil else {
            throw ValidationError("--points-property takes a property name such as X-POINTS, not '\(pointsProperty.escapingControlCharacters())'.")
        }
    }

    var pointsRule: PointsRule {
        switch points {
        case .xPoints: .property(pointsProperty.uppercased())
        case .minutes: .minutes
        case .count: .count
        }
    }

    /// The day start the option names (validated to parse).
    var dayStartValue: DayStart { DayStart(dayStart) ?? .midnight }
}

/// Options shared by every command that reads named calendars and scores days.
struct CalendarOptions: ParsableArguments {
    @Argument(help: "iCalendar files to read; - reads standard input. Several files merge into one report.")
    var files: [String]

    @OptionGroup var scoring: ScoringOptions

    @Flag(help: "Exit with a non-zero status if the calendars have any warning or error.")
    var strict = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one iCalendar file, or - for standard input.") }
    }

    /// Reads the calendars, expanding recurring events over `from...through`, and works out the goal.
    func load(from: Day?, through: Day?) throws -> (CalendarImport, StreakGoal) {
        let (imported, goal, _) = try loadSources(from: from, through: through)
        return (imported, goal)
    }

    /// `load`, also returning the inputs' bytes (read once) for commands that write them back out.
    func loadSources(from: Day?, through: Day?) throws -> (CalendarImport, StreakGoal, [CalendarSource]) {
        var sources: [CalendarSource] = []
        do {
            for file in files { sources.append(try CalendarSource.read(path: file)) }
        } catch {
            throw CommandFailure(error.description)
        }
        let imported: CalendarImport
        // The report zone is known only after reading (X-WR-TIMEZONE); today in UTC plus a day is
        // later than today anywhere, and the report drops what lies after its last day.
        let expansion = RecurrenceExpansion(
            from: from, through: through ?? Day(daysSince1970: Int(Date().timeIntervalSince1970 / 86_400) + 1),
            maximumInstancesPerRule: scoring.maxInstances)
        imported = SessionImporter(pointsRule: scoring.pointsRule, expansion: expansion).importCalendars(sources)
        let (result, zone) = imported.inReportZone(requested: scoring.tz)
        let goal = StreakGoal(requiredPoints: scoring.required, timeZone: zone, dayStart: scoring.dayStartValue)
        return (result, goal, sources)
    }

    /// The files read as a stream and scored (`ReportSettings.scored(paths:keepingSessions:now:)`).
    func scored(from: Day?, through: Day?, keepingSessions: Bool) throws -> ScoredCalendar {
        let settings = ReportSettings(
            requiredPoints: scoring.required, pointsRule: scoring.pointsRule, timeZone: scoring.tz,
            dayStart: scoring.dayStartValue, from: from, to: through, maximumInstancesPerRule: scoring.maxInstances)
        do {
            return try settings.scored(paths: files, keepingSessions: keepingSessions)
        } catch let error as CalendarReadError {
            throw CommandFailure(error.description)
        }
    }

    /// Prints diagnostics on standard error; returns whether --strict makes them fail the command.
    func printDiagnostics(_ diagnostics: [Diagnostic]) -> Bool {
        for diagnostic in diagnostics {
            StandardError.print(diagnostic.description)
        }
        let serious = diagnostics.filter { $0.severity >= .warning }.count
        if serious > 0 {
            StandardError.print("\(serious) \(serious == 1 ? "problem" : "problems") in the input (\(diagnostics.count) \(diagnostics.count == 1 ? "diagnostic" : "diagnostics") in all)")
        }
        return strict && serious > 0
    }
}

/// Parses a `YYYY-MM-DD` option.
func parseDay(_ text: String?, option: String) throws -> Day? {
    guard let text else { return nil }
    guard let day = Day(text) else { throw ValidationError("\(option) takes a date YYYY-MM-DD, not '\(text.escapingControlCharacters())'.") }
    return day
}

/// Whether an `--output` value means standard output: none, `-`, or `/dev/stdout` (written as a
/// stream: following that link would replace whatever file standard output is, or fail on a pipe).
func meansStandardOutput(_ path: String?) -> Bool {
    path == nil || path == "-" || path == "/dev/stdout"
}

/// Writes a command's output to standard output, or atomically to `path` (``AtomicFile``); a
/// failure is a `CommandFailure` (one line on standard error, exit status 1).
func emit(_ text: String, to path: String?) throws {
    guard let path, !meansStandardOutput(path) else {
        do {
            try StandardStream.output.write(text)
        } catch {
            throw CommandFailure(error.description)
        }
        return
    }
    do {
        try AtomicFile.write(text, to: path)
    } catch {
        throw CommandFailure(error.description)
    }
}

/// A failure that is not a usage error: one line on standard error, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Lines for people on standard error.
enum StandardError {
    /// Writes `text` and a newline; if standard error itself cannot be written, there is no one to tell.
    static func print(_ text: String) {
        try? StandardStream.error.write(text + "\n")
    }
}

extension ParsableCommand {
    /// Runs `body`, turning a `CommandFailure` into one line on standard error (control
    /// characters of paths and reasons shown as `\u{XX}`) and exit status 1.
    func failing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as CommandFailure {
            StandardError.print("streakcal: error: \(failure.description.escapingControlCharacters(keepingTabs: false))")
            throw ExitCode(1)
        }
    }
}
