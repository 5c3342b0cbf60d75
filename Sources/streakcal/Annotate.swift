import ArgumentParser
import StreakCal

extension StreakCalCommand {
    struct Annotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Writes the calendars back out with each day's status as an all-day event.",
            discussion: """
                The output keeps every property and component of the inputs and adds one all-day event \
                per day with sessions (or every day, with --all-days): its summary shows the points and \
                the streak, COLOR and CATEGORIES the status, and X-STREAKCAL-* properties the figures. \
                Annotating an annotated calendar replaces the old annotations.
                """)

        @OptionGroup var calendar: CalendarOptions

        // The option groups are siblings, never nested: ArgumentParser's debug builds check every
        // group again for each level above it, which made each start-up of a test binary seconds.
        @OptionGroup var scoring: ScoringOptions

        @OptionGroup(title: "Streak rules") var streakRules: RulesOptions

        @OptionGroup var window: WindowOptions

        @Option(name: [.short, .long], help: ArgumentHelp(
            "Write the annotated calendar to this file, atomically (through symbolic links; devices, pipes and folders are refused); default, - or /dev/stdout: standard output.",
            valueName: "file"), completion: .file(extensions: ["ics"]))
        var output: String?

        @Flag(help: "Annotate every day of the window, also days without sessions.")
        var allDays = false

        @Flag(help: "Also give each single event its day's status (X-STREAKCAL-DAY-STATUS).")
        var markSessions = false

        func run() throws {
            try failing {
                let annotated = try calendar.settings(from: window.from, to: window.to, scoring: scoring, rules: streakRules)
                    .annotated(calendar.sources, includingEmptyDays: allDays, markingSessions: markSessions)
                let failed = calendar.printDiagnostics(annotated.diagnostics)
                try emit(annotated.text, to: output)
                if failed { throw ExitCode(1) }
            }
        }
    }
}
