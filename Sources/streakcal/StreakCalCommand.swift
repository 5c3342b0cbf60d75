public import ArgumentParser
import Foundation
public import StreakCal
import StreakCalRemote

@main
struct StreakCalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streakcal",
        abstract: "Scores each day's activity in iCalendar files against a points goal.",
        version: StreakCalVersion.current,
        subcommands: [Report.self, Sessions.self, Totals.self, Card.self, Annotate.self, Layout.self, Batch.self],
        defaultSubcommand: Report.self)

    static func main() {
        AllocatorSettings.apply()
        do {
            var command = try parseAsRoot(systemArguments)
            try command.run()
        } catch {
            exit(showing: error)
        }
    }

    /// The command line as the system gave it: an argument that is not UTF-8 (a file name from an
    /// old archive) keeps its bytes (``FileName``), where `CommandLine.arguments` would make them
    /// U+FFFD and the file unreachable.
    static var systemArguments: [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { argument in
                FileName.string(fromSystem: UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
            }
        }
    }

    /// Ends the process as `exit(withError:)` does, but with the message's control characters
    /// shown as `\u{XX}` (`String.escapingControlCharacters`), as every other line the command
    /// prints for people shows them: ArgumentParser's messages quote the values it refuses
    /// (`--from`, `--format`, an unknown option...) as they were typed. Help, the version and
    /// completion scripts (exit status 0) go to standard output as they are, and a failure to
    /// write them (`--help > /dev/full`) is an error with exit status 1, not a silent success.
    static func exit(showing error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exitPrinting(CompletionScripts.taught(fullMessage(for: error))) }
        var message = fullMessage(for: error)
        // One style for every error the command prints: ArgumentParser's "Error: " becomes the
        // "streakcal: error: " the command's own errors start with.
        if message.hasPrefix("Error: ") { message = "streakcal: error: " + message.dropFirst("Error: ".count) }
        if !message.isEmpty {
            StandardError.print(message.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.description.escapingControlCharacters() }.joined(separator: "\n"))
        }
        Foundation.exit(code.rawValue)
    }

    /// Writes a successful ending's text (help, the version, a completion script) to standard
    /// output and exits 0, or says why it could not and exits 1.
    private static func exitPrinting(_ message: String) -> Never {
        do {
            if !message.isEmpty { try StandardStream.output.write(message + "\n") }
        } catch {
            StandardError.print("streakcal: error: \(String(describing: error).escapingControlCharacters(keepingTabs: false))")
            Foundation.exit(1)
        }
        Foundation.exit(0)
    }
}

/// The documented range of every numeric option, checked in `validate()` (exit status 64 outside it).
///
/// Numeric options read their value unconditionally, so `--required -5` reaches the check
/// (instead of `-5` being taken for an option) and gets its message.
enum OptionRange {
    /// `--required`: points a day needs.
    static let required = GoalSchedule.pointsRange
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
    /// `--timeout`: seconds a fetch may take (a millisecond to a day).
    static let timeout = 0.001...86_400.0
    /// `--connect-timeout`: seconds to wait for a connection (a millisecond to an hour).
    static let connectTimeout = 0.001...3_600.0

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

    /// Seconds: a usage error naming the option, the value and the range when `value` is outside
    /// `range` (or not a number).
    static func check(seconds value: Double, _ range: ClosedRange<Double>, option: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) must be \(range.lowerBound) to \(Int(range.upperBound)) seconds, not \(value).")
        }
    }
}

// Values read from the command line once, as the types the library takes: an option that does not
// parse is a usage error that names it (exit status 64).

extension Day: ExpressibleByArgument {
    /// `YYYY-MM-DD`; a date that does not exist (2023-02-29) is refused.
    public init?(argument: String) {
        self.init(argument)
    }

    /// `YYYY-MM-DD`, or why not: a usage error then says "2024-02 has 29 days" rather than only
    /// that the value is invalid (an `@Option`'s `transform`).
    static func parsing(_ text: String) throws(DayArgumentError) -> Day {
        if let day = Day(text) {
            guard Day.commandLineRange.contains(day) else { throw DayArgumentError(outOfRange: text) }
            return day
        }
        throw DayArgumentError(text)
    }

    /// The days a command line may name or reach: years 1 to 9999, the years an iCalendar DATE
    /// writes with its four digits (RFC 5545 §3.3.4), so that nothing written or read can be
    /// before year 1 (`annotate` wrote `00-50101` for -0005-01-01).
    static let commandLineRange: ClosedRange<Day> = Day(normalizingYear: 1, month: 1, day: 1)...Day(normalizingYear: 9999, month: 12, day: 31)
}

/// Why a day on the command line is not one.
struct DayArgumentError: Error, CustomStringConvertible {
    let description: String

    init(outOfRange text: String) {
        description = "\(text) is not a day from 0001-01-01 to 9999-12-31, the days an iCalendar date can hold"
    }

    init(_ text: String) {
        description = Self.reason(text)
    }

    private static func reason(_ text: String) -> String {
        // A year of five digits or more (10000-01-01) is a day, but not one a date can hold.
        if let day = Day("+" + text), !Day.commandLineRange.contains(day) {
            return DayArgumentError(outOfRange: text).description
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else {
            return "a day is written YYYY-MM-DD, such as 2024-02-29"
        }
        return DayError(year: year, month: month, day: day).description
    }
}

extension DayStart: ExpressibleByArgument {
    /// `HH:MM`, from 00:00 to 23:59.
    public init?(argument: String) {
        self.init(argument)
    }
}

extension CalendarMonth: ExpressibleByArgument {
    /// `YYYY-MM`.
    public init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else { return nil }
        self.init(year: year, month: month)
    }
}

extension ReportFormat: ExpressibleByArgument {}

extension JSONLinesBatch.Order: ExpressibleByArgument {}

extension RowPolicy: ExpressibleByArgument {}

/// Where points come from, as the CLI spells it.
enum PointsOption: String, CaseIterable, ExpressibleByArgument {
    case auto
    case xPoints = "x-points"
    case minutes
    case count
}

/// How days are scored: the goal, where points come from, the zone and the day start, and how far
/// recurrence goes (report, sessions, annotate, batch).
struct ScoringOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Points a day needs to count as met (\(OptionRange.text(OptionRange.required))); default 100, or the rules file's.", valueName: "n"))
    var required: Int?

    @Option(help: "Where points come from: auto (the X-POINTS property where events carry it; if none does, minutes, with a note), x-points (the property only), minutes (length), count (1 per session).")
    var points: PointsOption = .auto

    @Option(help: "The property that carries points, with --points auto or x-points.")
    var pointsProperty: String = "X-POINTS"

    // Completed with the zone names (asked of the binary when the shell completes, so that a
    // start-up does not list them).
    @Option(help: "IANA time zone of the report, such as Europe/Berlin or Etc/GMT-5 (default: the calendar's X-WR-TIMEZONE, else the zone of its events' times, else the system zone). GMT+5 and UTC-3 are refused: POSIX and Etc/GMT+5 read the sign the other way round from ISO 8601.",
            completion: .custom { _, _, prefix in TimeZone.knownTimeZoneIdentifiers.filter { $0.hasPrefix(prefix) }.sorted() })
    var tz: String?

    @Option(help: ArgumentHelp("When a day begins, HH:MM: with 04:00, 00:00 to 03:59 belongs to the previous day.", valueName: "hh:mm"))
    var dayStart: DayStart = .midnight

    @Option(parsing: .unconditional, help: ArgumentHelp("Most instances one recurrence rule may add to the report's window (\(OptionRange.text(OptionRange.maxInstances))).", valueName: "n"))
    var maxInstances: Int = RecurrenceExpansion.defaultMaximumInstancesPerRule

    @Flag(help: "Count sessions that start after now, as done (by default they are planned: not counted, and days after today are upcoming).")
    var countPlanned = false

    /// The library's settings for these options, the rule options and `presentation`'s, over the
    /// days `from` through `to`.
    /// The settings the options give. Grids start on `presentation`'s first weekday; without
    /// `presentation` (totals), `firstWeekday` is the first day of the weeks (`--week-starts`, the
    /// rules file's `weekStarts`, else Monday).
    func settings(from: Day?, to: Day?, rules: RulesOptions, presentation: PresentationOptions? = nil) throws -> ReportSettings {
        var settings = ReportSettings(
            requiredPoints: required, pointsRule: pointsRule, timeZone: tz.flatMap(TimeZoneRules.init(identifier:)),
            dayStart: dayStart, from: from, to: to, maximumInstancesPerRule: maxInstances,
            dayPresentation: try presentation?.rules())
        settings.fallbackTimeZone = systemTimeZone
        settings.palette = presentation?.palette.palette ?? .standard
        settings.countsPlannedSessions = countPlanned
        let weekStart = try rules.apply(to: &settings, required: required, firstWeekday: presentation?.firstWeekday?.weekday)
        // Grids start on --first-weekday, else as the settings derive it from the rules (ReportSettings.firstWeekday).
        if let presentation {
            if let given = presentation.firstWeekday { settings.firstWeekday = given.weekday }
        } else {
            settings.firstWeekday = weekStart
        }
        return settings
    }

    func validate() throws {
        if let required { try OptionRange.check(required, OptionRange.required, option: "--required") }
        try OptionRange.check(maxInstances, OptionRange.maxInstances, option: "--max-instances")
        if let tz, let problem = TimeZoneRules.offsetSpellingProblem(tz) {
            throw ValidationError("--tz: \(problem.escapingControlCharacters()).")
        }
        if let tz, TimeZoneRules(identifier: tz) == nil {
            throw ValidationError("--tz: unknown time zone '\(tz.escapingControlCharacters())'; use an IANA name such as Europe/Berlin.")
        }
        let isNameByte = { (byte: UInt8) in (0x41...0x5A).contains(byte | 0x20 ^ 0x20) || (0x30...0x39).contains(byte) || byte == 0x2D }
        guard !pointsProperty.isEmpty, pointsProperty.utf8.allSatisfy(isNameByte) else {
            throw ValidationError("--points-property takes a property name such as X-POINTS, not '\(pointsProperty.escapingControlCharacters())'.")
        }
    }

    var pointsRule: PointsRule {
        switch points {
        case .auto: .automatic(pointsProperty.uppercased())
        case .xPoints: .property(pointsProperty.uppercased())
        case .minutes: .minutes
        case .count: .count
        }
    }
}

/// The time the command started, in seconds since 1970, read once: "now" for every report, today
/// for `--to today`, and the annotations' DTSTAMP. The library reads no clock: it is given this.
let startTime = Int64(Date().timeIntervalSince1970.rounded(.down))

/// The machine's zone (`TZ`, else `/etc/localtime`), read once: the report's zone when neither
/// `--tz` nor the calendar names one, and the zone `today` is read in without `--tz`. The library
/// reads no zone of the machine: it is given this one (`ReportSettings.fallbackTimeZone`).
let systemTimeZone = TimeZoneRules(identifier: TimeZone.current.identifier) ?? .utc

/// The first and last day of a report.
struct WindowOptions: ParsableArguments {
    @Option(name: .customLong("from"), help: ArgumentHelp(
        "First day: YYYY-MM-DD, today or yesterday (default: the day of the earliest session, at most ten years back).",
        valueName: "day"), transform: DayArgument.parsing)
    var fromArgument: DayArgument?

    @Option(name: .customLong("to"), help: ArgumentHelp(
        "Last day: YYYY-MM-DD, today or yesterday (default: today in the report's zone).", valueName: "day"),
            transform: DayArgument.parsing)
    var toArgument: DayArgument?

    @Option(help: ArgumentHelp(
        "The last N days, weeks, months or years up to --to (default today): 30d, 12w, 6m, 1y.", valueName: "span"))
    var last: DaySpan?

    /// Whether any of `--from`, `--to` and `--last` is given.
    var isGiven: Bool { fromArgument != nil || toArgument != nil || last != nil }

    /// Today in `scoring`'s zone (`--tz`, else the system's: the zone a calendar declares is not
    /// known before it is read) and day start.
    func today(_ scoring: ScoringOptions) -> Day {
        let zone = scoring.tz.flatMap { TimeZoneRules(identifier: $0) } ?? systemTimeZone
        return StreakGoal(timeZone: zone, dayStart: scoring.dayStart).day(containing: startTime)
    }

    /// A day argument (`today`, `yesterday`, a date) read as `days(_:)` reads them.
    func day(_ argument: DayArgument, _ scoring: ScoringOptions) throws -> Day {
        argument.day(today: today(scoring))
    }

    /// The first and last day, `today` and `yesterday` read in `scoring`'s zone and day start (``today(_:)``).
    func days(_ scoring: ScoringOptions) throws -> (from: Day?, to: Day?) {
        let today = today(scoring)
        let to = toArgument?.day(today: today) ?? (last != nil ? today : nil)
        let from = last.map { $0.firstDay(endingOn: to ?? today) } ?? fromArgument?.day(today: today)
        if let from, let to, from > to { throw ValidationError("--from \(from) is after --to \(to).") }
        if let from, !Day.commandLineRange.contains(from), let last {
            throw ValidationError("--last \(last.count)\(last.unit.rawValue) reaches back to \(from), before 0001-01-01, the first day an iCalendar date can hold.")
        }
        return (from, to)
    }

    func validate() throws {
        if last != nil, fromArgument != nil { throw ValidationError("--last and --from both give the first day: give one.") }
        if case .day(let from)? = fromArgument, case .day(let to)? = toArgument, from > to {
            throw ValidationError("--from \(from) is after --to \(to).")
        }
    }
}

/// A day on the command line: `YYYY-MM-DD`, `today` or `yesterday` (in the report's zone).
enum DayArgument: ExpressibleByArgument {
    case day(Day)
    case daysBeforeToday(Int)

    init?(argument: String) {
        guard let day = try? Self.parsing(argument) else { return nil }
        self = day
    }

    /// `today`, `yesterday` (any case) or `YYYY-MM-DD`, or why not.
    static func parsing(_ argument: String) throws(DayArgumentError) -> DayArgument {
        switch argument.lowercased() {
        case "today": .daysBeforeToday(0)
        case "yesterday": .daysBeforeToday(1)
        default: .day(try Day.parsing(argument))
        }
    }

    func day(today: Day) -> Day {
        switch self {
        case .day(let day): day
        case .daysBeforeToday(let count): today.advanced(by: -count)
        }
    }
}

/// `--last`: a span of days, weeks, months or years (`30d`, `12w`, `6m`, `1y`) ending on a day.
struct DaySpan: ExpressibleByArgument {
    enum Unit: Character { case days = "d", weeks = "w", months = "m", years = "y" }
    var count: Int
    var unit: Unit

    init?(argument: String) {
        guard let last = argument.lowercased().last, let unit = Unit(rawValue: last),
              let count = Int(argument.dropLast()), (1...10_000).contains(count)
        else { return nil }
        (self.count, self.unit) = (count, unit)
    }

    /// The first day of the span that ends on `last`: `30d` ending 2024-03-30 starts 2024-03-01;
    /// `1m` ending 2024-03-31 starts 2024-03-01; `1y` ending 2024-12-31 starts 2024-01-01.
    func firstDay(endingOn last: Day) -> Day {
        switch unit {
        case .days: return last.advanced(by: -(count - 1))
        case .weeks: return last.advanced(by: -(7 * count - 1))
        case .months: return Self.day(monthsBefore: count, last).advanced(by: 1)
        case .years: return Self.day(monthsBefore: 12 * count, last).advanced(by: 1)
        }
    }

    /// The day `months` months before `day`, on the same day of the month or its month's last.
    private static func day(monthsBefore months: Int, _ day: Day) -> Day {
        let index = day.year * 12 + (day.month - 1) - months
        let month = index.remainderRoundingDown(dividingBy: 12) + 1
        let year = (index - (month - 1)) / 12
        let dayOfMonth = min(day.dayOfMonth, Day.daysInMonth(year: year, month: month))
        return Day(normalizingYear: year, month: month, day: dayOfMonth)
    }
}

/// Options shared by every command that reads named calendars and scores days.
struct CalendarOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "iCalendar files to read; - reads standard input; a folder reads every *.ics file under it (a vdir); an https://, http:// or webcal:// address is fetched (and cached). Several are read as one.",
        valueName: "file"),
              completion: .file(extensions: ["ics"]))
    var files: [String]

    @Flag(help: "Exit with a non-zero status if the calendars have any warning or error.")
    var strict = false

    @OptionGroup(title: "Addresses") var downloads: DownloadArguments

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one iCalendar file, or - for standard input.") }
    }

    /// The calendars to read: a folder as every calendar file under it, in path order; the
    /// entries a folder holds that are not regular files are passed over with a warning; an
    /// address fetched (a CalDAV server asked for the days `from` through `to`).
    func sources(from: Day?, to: Day?) throws -> [CalendarSource] {
        var options = downloads.options
        (options.firstDay, options.lastDay) = (from, to)
        let inputs = try CalendarInputs(files, downloads: options)
        for entry in inputs.skipped {
            StandardError.print("streakcal: note: skipped \(entry.input): \(entry.reason)".escapingControlCharacters(keepingTabs: false))
        }
        return inputs.sources
    }

    /// The library's settings for these options.
    func settings(
        from: Day?, to: Day?, scoring: ScoringOptions, rules: RulesOptions, presentation: PresentationOptions? = nil
    ) throws -> ReportSettings {
        try scoring.settings(from: from, to: to, rules: rules, presentation: presentation)
    }

    /// Prints diagnostics on standard error, with a hint for the ones an option can change;
    /// returns whether --strict makes them fail the command.
    func printDiagnostics(_ diagnostics: [Diagnostic]) -> Bool {
        printed(diagnostics, strict: strict)
    }
}

/// Prints diagnostics (see `CalendarOptions.printDiagnostics`); `true` when `strict` and there is a
/// warning or error.
func printed(_ diagnostics: [Diagnostic], strict: Bool) -> Bool {
    for diagnostic in diagnostics {
        StandardError.print(diagnostic.description)
    }
    // The library names no option; the command says which one changes what was said.
    let hints: [(Diagnostic.Code, Diagnostic.Severity, String)] = [
        (.reportWindow, .note, "give --from YYYY-MM-DD to report on the earlier days"),
        (.points, .warning, "--points minutes counts minutes, --points count sessions, --points-property names another property"),
        (.points, .note, "--points count counts sessions, --points-property names another property"),
        (.planned, .note, "--count-planned counts sessions after now as done"),
        (.reportZone, .note, "--tz ZONE gives the report's zone"),
    ]
    for (code, severity, hint) in hints where diagnostics.contains(where: { $0.code == code && $0.severity == severity }) {
        StandardError.print("streakcal: hint: \(hint)")
    }
    if diagnostics.contains(where: { $0.code == .points && $0.message.contains("no minutes: all-day events") }) {
        StandardError.print("streakcal: hint: --skip-when 'summary:vacation' makes all-day vacations skip their days")
    }
    if diagnostics.contains(where: { $0.code == .recurrence && $0.message.contains("instances in the report's window") }) {
        StandardError.print("streakcal: hint: --max-instances raises the cap on instances per rule")
    }
    let serious = diagnostics.filter { $0.severity >= .warning }.count
    if serious > 0 {
        StandardError.print("\(serious) \(serious == 1 ? "problem" : "problems") in the input (\(diagnostics.count) \(diagnostics.count == 1 ? "diagnostic" : "diagnostics") in all)")
    }
    return strict && serious > 0
}

/// Whether an `--output` value means standard output: none, `-`, or `/dev/stdout` (written as a
/// stream: following that link would replace whatever file standard output is, or fail on a pipe).
func meansStandardOutput(_ path: String?) -> Bool {
    path == nil || path == "-" || path == "/dev/stdout"
}

/// Whether standard output is a terminal that takes colours (`NO_COLOR` unset or empty, `TERM` not `dumb`).
var standardOutputTakesColors: Bool {
    let environment = ProcessInfo.processInfo.environment
    return isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"].map(\.isEmpty) ?? true) && environment["TERM"] != "dumb"
}

/// Whether standard output and standard error are one terminal (as when a command is typed at
/// it), where a line written on both would be seen twice.
var standardOutputAndErrorShareATerminal: Bool {
    var output = stat(), error = stat()
    guard isatty(STDOUT_FILENO) == 1, isatty(STDERR_FILENO) == 1,
          fstat(STDOUT_FILENO, &output) == 0, fstat(STDERR_FILENO, &error) == 0 else { return false }
    return output.st_rdev == error.st_rdev
}

/// `--color`: when the text report is coloured.
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    /// On a terminal, unless `NO_COLOR` is set (to anything but the empty string) or `TERM` is `dumb`.
    case auto
    /// Always, also into files and pipes.
    case always
    /// Never.
    case never
}

/// Writes a command's output to standard output, or atomically to `path` (``AtomicFile``).
func emit(_ text: String, to path: String?) throws {
    guard let path, !meansStandardOutput(path) else {
        try StandardStream.output.write(text)
        return
    }
    try AtomicFile.write(text, to: path)
}

/// The format a command writes: `--format` when given; else the one `-o FILE`'s extension names,
/// with a note (issue 33); else text for a file without an extension. An extension naming none of
/// the command's formats is refused, naming the known ones: `-o x.pdf` wrote text (issue 46.9).
func outputFormat<Format: RawRepresentable<String> & Equatable>(
    given: Format?, output: String?, among formats: [Format], text: Format
) throws -> Format {
    if let given { return given }
    guard let output, !meansStandardOutput(output), let fileExtension = ReportFormat.fileExtension(of: output) else {
        return text
    }
    let named = ReportFormat(fileExtension: fileExtension).flatMap { Format(rawValue: $0.rawValue) }
    guard let format = named, formats.contains(format) else {
        let known = formats.compactMap { ReportFormat(rawValue: $0.rawValue) }
            .flatMap(\.fileExtensions).map { "." + $0 }
        throw CommandFailure("\(output): the extension .\(fileExtension) names no format this command writes (\(known.joined(separator: " "))); "
            + "rename the file or give --format")
    }
    if format != text {
        StandardError.print("streakcal: note: writing \(format.rawValue.uppercased()), as the extension of \(output) says".escapingControlCharacters(keepingTabs: false))
    }
    return format
}

/// `streakcal reprot f.ics` reads as `streakcal report reprot f.ics` (report is the default
/// subcommand), so a mistyped command name fails as a missing file: that error then says which
/// command was meant, as git does ("did you mean report?").
enum CommandNameSuggestion {
    /// Every subcommand's name, as the command's configuration lists them (a list of its own
    /// missed `totals` and `card`), and `help`.
    static let commands = StreakCalCommand.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]

    /// `error` with the suggestion, when it is about a missing file whose name is the command
    /// line's first word and a typing slip away from a command's; else `error` as it is.
    static func suggesting(for error: CalendarReadError) -> any Error {
        let arguments = StreakCalCommand.systemArguments
        guard arguments.count > 0, error.path == arguments[0], error.code == .notFound,
              let meant = closest(to: error.path)
        else { return error }
        return CommandFailure("\(error); '\(error.path)' is not a command: did you mean '\(meant)'?")
    }

    /// The command within two edits (insertions, deletions, substitutions, swaps of neighbours).
    static func closest(to word: String) -> String? {
        guard word.count >= 3, word.count <= 12, !word.contains("/"), !word.contains(".") else { return nil }
        return commands.map { ($0, distance(word.lowercased(), $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// The optimal string alignment distance between two words.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
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
    /// Runs `body`, turning a failure to read or write (a `CalendarReadError`, an
    /// `AtomicFile.WriteError`, a `StandardStream.WriteError`, a `CommandFailure`) into one line on
    /// standard error (control characters of paths and reasons shown as `\u{XX}`) and exit status 1.
    func failing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch let error as CleanExit {
            throw error
        } catch where error is CommandFailure || error is CalendarReadError || error is AtomicFile.WriteError
                    || error is StandardStream.WriteError {
            let said = (error as? CalendarReadError).map(CommandNameSuggestion.suggesting(for:)) ?? error
            StandardError.print("streakcal: error: \(String(describing: said).escapingControlCharacters(keepingTabs: false))")
            throw ExitCode(1)
        }
    }
}
