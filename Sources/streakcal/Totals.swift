public import ArgumentParser
public import StreakCal

extension StreakCalCommand {
    struct Totals: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "totals",
            abstract: "Where the time went: sessions, minutes and points per category, summary, calendar or habit, per day, week, month or year.",
            discussion: """
                Minutes are each session's time within each period (a session across midnight counts in both \
                days); all-day events count none; sessions after now are planned and not counted. An event with \
                several categories counts in each. Example: streakcal totals work.ics --by category --per week --last 12w
                """)

        @OptionGroup var calendar: CalendarOptions

        // The option groups are siblings, never nested (see `Report`).
        @OptionGroup var scoring: ScoringOptions

        @OptionGroup(title: "Streak rules") var streakRules: RulesOptions

        @OptionGroup var window: WindowOptions

        @Option(help: "What a group is: category (each CATEGORIES value; (none) for events without), summary (the SUMMARY, trimmed), calendar, or habit (each --habit or rules-file habit, with its met days).")
        var by: TimeTotals.Grouping = .category

        @Option(help: "How long a period is: day, week (starting as --week-starts says, Monday by default), month or year.")
        var per: TimeTotals.Period = .week

        @Option(parsing: .unconditional, help: ArgumentHelp(
            "Keep the N largest groups (by minutes, then points) and fold the others into (other); 1 to 10000.", valueName: "n"))
        var top: Int?

        @Option(help: "Output format (default: the --output file's extension, .txt .json .csv .md .svg .html or .htm, another refused; text for none).")
        var format: ReportFormat?

        @Option(name: [.short, .long], help: ArgumentHelp(
            "Write the table to this file, atomically (through symbolic links; devices, pipes and folders are refused); default, - or /dev/stdout: standard output.",
            valueName: "file"), completion: .file())
        var output: String?

        @Option(help: "The colours of svg and html pages: standard, github, high-contrast or tutorial (the groups' colours are Okabe and Ito's, whatever the palette).")
        var palette: PaletteName = .standard

        func validate() throws {
            if let top { try OptionRange.check(top, 1...TimeTotals.maximumGroups, option: "--top") }
        }

        func run() throws {
            try failing {
                let format = try outputFormat(given: self.format, output: output, among: ReportFormat.allCases, text: .text)
                let (from, to) = try window.days(scoring)
                var settings = try calendar.settings(from: from, to: to, scoring: scoring, rules: streakRules)
                settings.palette = palette.palette
                if by == .habit, settings.habits.isEmpty {
                    throw ValidationError("--by habit needs habits: give --habit NAME=FILTER or a --rules file with habits.")
                }
                var scored = try settings.totals(try calendar.sources(from: from, to: to), by: by, per: per, now: startTime)
                guard var totals = scored.timeTotals else { throw CommandFailure("no totals were made") }
                if let top { totals = totals.keepingLargest(top) }
                var shown = scored.imported.diagnostics
                if format == .text, meansStandardOutput(output), standardOutputAndErrorShareATerminal { shown = [] }
                let page = TotalsReport(
                    totals, sources: scored.sources, timeZone: scored.report.goal.timeZone.identifier, diagnostics: shown,
                    palette: settings.palette)
                scored.timeTotals = totals
                let text = switch format {
                case .text: page.text()
                case .json: page.json()
                case .csv: page.csv()
                case .md: page.markdown()
                case .svg: page.svg()
                case .html: page.html()
                }
                let failed = calendar.printDiagnostics(scored.imported.diagnostics)
                try emit(text, to: output)
                if failed { throw ExitCode(1) }
            }
        }
    }
}

extension TimeTotals.Grouping: ExpressibleByArgument {}
extension TimeTotals.Period: ExpressibleByArgument {}

