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

        @Option(help: "Output format (default: the --output file's extension, .txt .json .csv .md .svg .html or .htm; else text).")
        var format: ReportFormat?

        @Option(name: [.short, .long], help: ArgumentHelp(
            "Write the report to this file, atomically (through symbolic links; devices, pipes and folders are refused); default, - or /dev/stdout: standard output.",
            valueName: "file"), completion: .file())
        var output: String?

        @OptionGroup var presentation: PresentationOptions

        @Option(help: "Month grids, or heatmaps (a column per week) for text, svg and html: auto (for windows longer than \(ReportView.longestMonthWindow) days, rolling when the window ends today, else year), month, year (a heatmap per calendar year) or rolling (the last \(ReportView.rollingWeeks) weeks).")
        var view: ViewChoice = .auto

        @Option(help: "Colour the text report: auto (on a terminal, unless NO_COLOR is set or TERM is dumb), always, or never. The marks stay either way.")
        var color: ColorChoice = .auto

        func run() throws {
            try failing {
                let format = ReportFormat.chosen(self.format, forOutput: output)
                if self.format == nil, format != .text, let output {
                    StandardError.print("streakcal: note: writing \(format.rawValue.uppercased()), as the extension of \(output) says".escapingControlCharacters(keepingTabs: false))
                }
                let (from, to) = try window.days(scoring)
                var settings = try calendar.settings(from: from, to: to, scoring: scoring, rules: streakRules, presentation: presentation)
                settings.view = view.view
                // Streamed: sessions are counted on their days as they are read, and kept only for
                // a format that lists them.
                let scored = try settings.scored(try calendar.sources(from: from, to: to), for: format)
                let colors = format == .text
                    && (color == .always || (color == .auto && meansStandardOutput(output) && standardOutputTakesColors))
                // On a terminal that shows both standard output and standard error, the
                // diagnostics printed on standard error are not listed again under the report.
                var shown = scored
                if format == .text, meansStandardOutput(output), standardOutputAndErrorShareATerminal {
                    shown.imported.diagnostics = []
                }
                let text = try format.render(shown, with: settings, terminalColors: colors)
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
            abstract: "Lists one day's sessions in start order with their points and local times.")

        @OptionGroup var calendar: CalendarOptions

        // The option groups are siblings, never nested: ArgumentParser's debug builds check every
        // group again for each level above it, which made each start-up of a test binary seconds.
        @OptionGroup var scoring: ScoringOptions

        @OptionGroup(title: "Streak rules") var streakRules: RulesOptions

        @Option(help: ArgumentHelp("The day to list, YYYY-MM-DD.", valueName: "yyyy-mm-dd"), transform: Day.parsing)
        var on: Day

        /// `--format` of `sessions`: the cards as text, or as JSON.
        enum SessionsFormat: String, CaseIterable, ExpressibleByArgument {
            case text, json
        }

        @Option(help: "text (the cards) or json (each session's times, points, summary and source line).")
        var format: SessionsFormat = .text

        func run() throws {
            try failing {
                let day = try calendar.settings(from: on, to: on, scoring: scoring, rules: streakRules).sessions(on: on, in: try calendar.sources(from: on, to: on))
                let failed = calendar.printDiagnostics(day.diagnostics)
                try emit(format == .json ? day.cards.json(diagnostics: day.diagnostics) : day.cards.render(), to: nil)
                if failed { throw ExitCode(1) }
            }
        }
    }
}
