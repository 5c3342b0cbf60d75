import Foundation
import ArgumentParser
import StreakCal

extension StreakCalCommand {
    struct Card: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "card",
            abstract: "Writes a small SVG card of the streaks for a README or a dashboard: current and longest streak, days met, the last weeks as a strip.",
            discussion: """
                The card is self-contained (no script, fonts or links), light or dark as the reader's \
                setting is, at most 30 KB. Under a period goal the streaks count weeks or months and \
                the strip shows them. Example: streakcal card piano.ics --required 30 --points minutes -o streak.svg
                """)

        @OptionGroup var calendar: CalendarOptions

        // The option groups are siblings, never nested (see `Report`).
        @OptionGroup var scoring: ScoringOptions

        @OptionGroup(title: "Streak rules") var streakRules: RulesOptions

        @OptionGroup var window: WindowOptions

        @Option(help: ArgumentHelp(
            "The card of this habit (one of --habit's or the rules file's habits) instead of the calendar's.", valueName: "name"))
        var cardHabit: String?

        @Option(parsing: .unconditional, help: ArgumentHelp(
            "Pixels across (\(OptionRange.text(StreakCard.widths))).", valueName: "n"))
        var width: Int = StreakCard.defaultWidth

        @Option(name: [.short, .long], help: ArgumentHelp(
            "Write the card to this file, atomically (through symbolic links; devices, pipes and folders are refused); default, - or /dev/stdout: standard output. An extension other than .svg is refused.",
            valueName: "file"), completion: .file(extensions: ["svg"]))
        var output: String?

        @Option(help: "The colours: standard (light to deep greens, chosen for colour-blind readers), github, high-contrast, or tutorial (FSCalendar's green, red and gray).")
        var palette: PaletteName = .standard

        func validate() throws {
            try OptionRange.check(width, StreakCard.widths, option: "--width")
            if let cardHabit, cardHabit.isEmpty { throw ValidationError("--card-habit needs a habit's name.") }
        }

        func run() throws {
            try failing {
                _ = try outputFormat(given: nil, output: output, among: [ReportFormat.svg], text: .svg)
                let (from, to) = try window.days(scoring)
                var settings = try calendar.settings(from: from, to: to, scoring: scoring, rules: streakRules)
                settings.palette = palette.palette
                if let cardHabit, !settings.habits.contains(where: { $0.name == cardHabit }) {
                    let names = settings.habits.map { "'\(RulesOptions.shown($0.name))'" }
                    throw ValidationError("--card-habit '\(RulesOptions.shown(cardHabit))' names no habit; "
                        + (names.isEmpty ? "give --habit NAME=FILTER or a --rules file with habits." : "the habits are \(names.joined(separator: ", "))."))
                }
                let scored = try settings.scored(try calendar.sources(from: from, to: to), for: .svg, now: startTime)
                var card = StreakCard(
                    report: scored.report, sources: scored.sources, today: scored.today, palette: settings.palette, width: width,
                    firstWeekday: settings.firstWeekday)
                if let cardHabit, let habit = scored.habits.first(where: { $0.name == cardHabit }) {
                    card = StreakCard(
                        habit: habit, sources: scored.sources, today: scored.today, palette: settings.palette, width: width,
                        firstWeekday: settings.firstWeekday)
                }
                let failed = calendar.printDiagnostics(scored.imported.diagnostics)
                try emit(card.svg(), to: output)
                if failed { throw ExitCode(1) }
            }
        }
    }
}
