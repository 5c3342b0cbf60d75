import Foundation
import ArgumentParser
import StreakCal

extension StreakCalCommand {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Totals sessions per day, scores every day against the goal and prints the streaks.",
            discussion: """
                Points come from each event's X-POINTS property; a calendar none of whose events has it \
                (an export from Google, Apple or Outlook) counts each session's minutes, with a note \
                (--points auto, the default). Example: streakcal report work.ics --required 60 --tz Europe/Berlin
                """)

        @OptionGroup var calendar: CalendarOptions

        // The option groups are siblings, never nested: ArgumentParser's debug builds check every
        // group again for each level above it, which made each start-up of a test binary seconds.
        @OptionGroup var scoring: ScoringOptions

        @OptionGroup(title: "Streak rules") var streakRules: RulesOptions

        @OptionGroup var window: WindowOptions

        @Option(help: "Output format (default: the --output file's extension, .txt .json .csv .md .svg .html or .htm, another refused; text for none).")
        var format: ReportFormat?

        @Option(name: [.short, .long], help: ArgumentHelp(
            "Write the report to this file, atomically (through symbolic links; devices, pipes and folders are refused); default, - or /dev/stdout: standard output.",
            valueName: "file"), completion: .file())
        var output: String?

        @OptionGroup var presentation: PresentationOptions

        @Option(help: "Month grids, or heatmaps (a column per week) for text, svg and html: auto (for windows longer than \(ReportView.longestMonthWindow) days, rolling when the window ends today, else year), month, year (a heatmap per calendar year), rolling (the last \(ReportView.rollingWeeks) weeks), or hours (a 7 × 24 heatmap of the minutes by weekday and hour, which JSON gets as weekdayHours).")
        var view: ViewChoice = .auto

        @Option(help: "Colour the text report: auto (on a terminal, unless NO_COLOR is set or TERM is dumb), always, or never. The marks stay either way.")
        var color: ColorChoice = .auto

        func run() throws {
            try failing {
                let format = try outputFormat(given: self.format, output: output, among: ReportFormat.allCases, text: .text)
                let (from, to) = try window.days(scoring)
                var settings = try calendar.settings(from: from, to: to, scoring: scoring, rules: streakRules, presentation: presentation)
                settings.view = view.view
                // Streamed: sessions are counted on their days as they are read, and kept only for
                // a format that lists them.
                let scored = try settings.scored(try calendar.sources(from: from, to: to), for: format, now: startTime)
                let colors = format == .text
                    && (color == .always || (color == .auto && meansStandardOutput(output) && standardOutputTakesColors))
                // On a terminal that shows both standard output and standard error, the
                // diagnostics printed on standard error are not listed again under the report.
                var shown = scored
                if format == .text, meansStandardOutput(output), standardOutputAndErrorShareATerminal {
                    shown.imported.diagnostics = []
                }
                let text = format.render(shown, with: settings, terminalColors: colors)
                let failed = calendar.printDiagnostics(scored.imported.diagnostics)
                if format.drawsDays, let note = ReportView.drawingNote(for: scored.report) {
                    StandardError.print("streakcal: warning: \(note); narrow --from and --to to draw other years")
                }
                try emit(text, to: output)
                if failed { throw ExitCode(1) }
            }
        }
    }

    struct Sessions: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sessions",
            abstract: "Lists a day's sessions (or every day's of a window: an agenda) in start order, with their points and local times.",
            discussion: """
                One day: --on DAY (YYYY-MM-DD, today or yesterday; default today). An agenda: --from, --to or \
                --last, each day that has sessions. Sessions that start after now are listed as planned and \
                not counted (--count-planned counts them).
                """)

        @OptionGroup var calendar: CalendarOptions

        // The option groups are siblings, never nested: ArgumentParser's debug builds check every
        // group again for each level above it, which made each start-up of a test binary seconds.
        @OptionGroup var scoring: ScoringOptions

        @OptionGroup(title: "Streak rules") var streakRules: RulesOptions

        @Option(help: ArgumentHelp("The day to list: YYYY-MM-DD, today or yesterday (default: today).", valueName: "day"),
                transform: { (text: String) throws -> DayArgument in try DayArgument.parsing(text) })
        var on: DayArgument?

        @OptionGroup var window: WindowOptions

        /// `--format` of `sessions`: the cards as text, or as JSON.
        enum SessionsFormat: String, CaseIterable, ExpressibleByArgument {
            case text, json
        }

        @Option(help: "text (the cards) or json (each session's times, points, summary, source line and whether it is planned).")
        var format: SessionsFormat = .text

        func validate() throws {
            if on != nil, window.isGiven { throw ValidationError("--on names one day; --from, --to and --last a window: give one or the other.") }
        }

        func run() throws {
            try failing {
                let (from, to) = try window.isGiven ? window.days(scoring) : { let day = try window.day(on ?? .daysBeforeToday(0), scoring); return (day, day) }()
                let last = to ?? window.today(scoring)
                let first = from ?? last
                let settings = try calendar.settings(from: first, to: last, scoring: scoring, rules: streakRules)
                let agenda = try settings.sessions(over: first...last, in: try calendar.sources(from: first, to: last), now: startTime)
                let failed = calendar.printDiagnostics(agenda.diagnostics)
                if first == last {
                    try emit(format == .json ? agenda.days[0].json(diagnostics: agenda.diagnostics) : agenda.days[0].render(), to: nil)
                } else if format == .json {
                    try emit(SessionCards.json(agenda: agenda.days, diagnostics: agenda.diagnostics), to: nil)
                } else {
                    let busy = agenda.days.filter { !$0.sessions.isEmpty }
                    let zone = settings.timeZone?.identifier ?? agenda.days[0].goal.timeZone.identifier
                    let text = busy.isEmpty ? "No sessions from \(first) to \(last) (\(zone.escapingControlCharacters()))\n"
                        : busy.map { $0.render() }.joined(separator: "\n")
                    try emit(text, to: nil)
                }
                if failed { throw ExitCode(1) }
            }
        }
    }
}
