import ArgumentParser
import Foundation
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

        @Option(help: "First day to annotate, YYYY-MM-DD (default: the day of the earliest session).")
        var from: String?

        @Option(help: "Last day to annotate, YYYY-MM-DD (default: today in the report's zone).")
        var to: String?

        @Option(name: [.short, .long], help: "Write the annotated calendar to this file, atomically (through symbolic links; devices, pipes and folders are refused); default, - or /dev/stdout: standard output.")
        var output: String?

        @Flag(help: "Annotate every day of the window, also days without sessions.")
        var allDays = false

        @Flag(help: "Also give each single event its day's status (X-STREAKCAL-DAY-STATUS).")
        var markSessions = false

        func validate() throws {
            let first = try parseDay(from, option: "--from")
            let last = try parseDay(to, option: "--to")
            if let first, let last, first > last {
                throw ValidationError("--from \(first) is after --to \(last).")
            }
        }

        func run() throws {
            try failing {
                let first = try parseDay(from, option: "--from")
                let last = try parseDay(to, option: "--to")
                let (imported, goal, sources) = try calendar.loadSources(from: first, through: last)
                let now = Int64(Date().timeIntervalSince1970)
                let lastDay = last ?? goal.day(containing: now)
                let window = StreakReport.window(for: imported.sessions, goal: goal, from: first, to: lastDay)
                let report = StreakReport(sessions: imported.sessions, goal: goal, window: window)
                let annotation = CalendarAnnotation(report: report, includesEmptyDays: allDays)
                let written = annotation.write(sources, markingSessions: markSessions ? imported.sessions : nil, timestamp: now)
                let windowNote = ReportSettings.windowNote(
                    from: first, earliest: StreakReport.earliestDay(of: imported.sessions, goal: goal), to: lastDay,
                    at: imported.sessions.first?.source)
                let failed = calendar.printDiagnostics(imported.diagnostics + windowNote + written.diagnostics)
                try emit(written.text, to: output)
                if failed { throw ExitCode(1) }
            }
        }
    }
}
