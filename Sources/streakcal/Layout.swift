import ArgumentParser
import Foundation
import StreakCal
import StreakCalRemote

extension StreakCalCommand {
    struct Layout: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "layout",
            abstract: "Prints month layouts: grids of weeks with cell frames for a width, optionally coloured by a calendar.")

        enum Format: String, CaseIterable, ExpressibleByArgument { case text, json, svg }
        enum Mode: String, CaseIterable, ExpressibleByArgument { case month, week }

        @Option(help: ArgumentHelp("The first month, YYYY-MM.", valueName: "yyyy-mm"))
        var month: CalendarMonth

        @Option(parsing: .unconditional, help: ArgumentHelp(
            "How many months (or, with --mode week, weeks) to lay out, stacked top to bottom (\(OptionRange.text(OptionRange.months))).",
            valueName: "n"))
        var months: Int = 1

        @Option(help: "month: whole months; week: one row, the week containing --date.")
        var mode: Mode = .month

        @Option(help: ArgumentHelp("With --mode week: a day in the first week, YYYY-MM-DD (default: the 1st of --month).", valueName: "yyyy-mm-dd"),
                transform: Day.parsing)
        var date: Day?

        @Option(help: "variable: 4 to 6 rows as the month needs; six: always 6.")
        var rows: RowPolicy = .variable

        @Flag(help: "Hide the days of neighbouring months (their cells keep their dates, with inMonth false).")
        var hideOutOfMonth = false

        @Option(parsing: .unconditional, help: ArgumentHelp(
            "The width to lay out, in points: 7 columns that differ by at most one point (\(OptionRange.text(OptionRange.width))).",
            valueName: "w"))
        var width: Int = 350

        @Option(parsing: .unconditional, help: ArgumentHelp(
            "The height of each month's header, in points (\(OptionRange.text(OptionRange.headerHeight))).", valueName: "h"))
        var headerHeight: Int = LayoutMetrics.defaultHeaderHeight

        @Option(help: "Output format (default: the --output file's extension, .txt .json or .svg, another refused; text for none).")
        var format: Format?

        @Option(name: [.short, .long], help: ArgumentHelp(
            "Write the layout to this file, atomically (through symbolic links; devices, pipes and folders are refused); default, - or /dev/stdout: standard output.",
            valueName: "file"), completion: .file())
        var output: String?

        @OptionGroup var presentation: PresentationOptions

        @Option(help: ArgumentHelp("Colour the days by this calendar's scores (repeatable; - for standard input; a folder for every *.ics file under it; an https://, http:// or webcal:// address is fetched).", valueName: "file"),
                completion: .file(extensions: ["ics"]))
        var calendar: [String] = []

        // With --calendar, the days are scored as `report` scores them: the same options.
        @OptionGroup(title: "With --calendar") var scoring: ScoringOptions

        @OptionGroup(title: "Streak rules, with --calendar") var streakRules: RulesOptions

        @OptionGroup(title: "Addresses") var downloads: DownloadArguments

        func validate() throws {
            try OptionRange.check(months, OptionRange.months, option: "--months")
            try OptionRange.check(width, OptionRange.width, option: "--width")
            try OptionRange.check(headerHeight, OptionRange.headerHeight, option: "--header-height")
        }

        func run() throws {
            try failing {
                let chosenFormat = try outputFormat(given: format, output: output, among: Format.allCases, text: .text)
                let first = month
                let week = mode == .week ? (date ?? first.firstDay) : nil
                // The rules first: a weekly goal's weeks give the grids' first weekday.
                let settings = try scoring.settings(from: nil, to: nil, rules: streakRules, presentation: presentation)
                let layouts = LayoutExport.stacked(
                    first: first, count: months, week: week,
                    metrics: LayoutMetrics(width: width, headerHeight: headerHeight),
                    firstWeekday: settings.firstWeekday, rowPolicy: rows,
                    outOfMonthDays: hideOutOfMonth ? .hidden : .shown)
                var export = LayoutExport(layouts: layouts, rules: try presentation.rules(), palette: presentation.palette.palette)
                var failed = false
                if !calendar.isEmpty {
                    // The calendar's days over exactly the laid-out range.
                    let days = layouts.flatMap { $0.cells.map(\.day) }
                    let window = (days.min() ?? first.firstDay)...(days.max() ?? first.firstDay)
                    var options = downloads.options
                    (options.firstDay, options.lastDay) = (window.lowerBound, window.upperBound)
                    let inputs = try CalendarInputs(calendar, downloads: options)
                    for entry in inputs.skipped {
                        StandardError.print("streakcal: note: skipped \(entry.input): \(entry.reason)".escapingControlCharacters(keepingTabs: false))
                    }
                    let scored = try settings.scored(inputs.sources, over: window, now: startTime)
                    export.report = scored.report
                    failed = printed(scored.imported.diagnostics, strict: false)
                }
                let text: String
                switch chosenFormat {
                case .json: text = export.json()
                case .text: text = export.text()
                case .svg: text = export.svg()
                }
                try emit(text, to: output)
                if failed { throw ExitCode(1) }
            }
        }
    }
}
