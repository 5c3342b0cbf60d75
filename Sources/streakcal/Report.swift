import ArgumentParser
import Foundation
import StreakCal

extension StreakCalCommand {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Totals sessions per day, scores every day against the goal and prints the streaks.")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json, csv, md, svg, html
        }

        @OptionGroup var calendar: CalendarOptions

        @Option(help: "First day of the report, YYYY-MM-DD (default: the day of the earliest session).")
        var from: String?

        @Option(help: "Last day of the report, YYYY-MM-DD (default: today in the report's zone).")
        var to: String?

        @Option(help: "Output format.")
        var format: Format = .text

        @Option(name: [.short, .long], help: "Write the report to this file, atomically (through symbolic links; devices, pipes and folders are refused); default, - or /dev/stdout: standard output.")
        var output: String?

        @OptionGroup var presentation: PresentationOptions

        func validate() throws {
            let first = try parseDay(from, option: "--from")
            let last = try parseDay(to, option: "--to")
            if let first, let last, first > last {
                throw ValidationError("--from \(first) is after --to \(last).")
            }
        }

        func run() throws {
            try failing {
                // Streamed: sessions are counted on their days as they are read and kept only for
                // the HTML report's session cards.
                let scored = try calendar.scored(
                    from: try parseDay(from, option: "--from"), through: try parseDay(to, option: "--to"),
                    keepingSessions: format == .html)
                let imported = scored.imported
                let report = scored.report
                let rules = try presentation.rules()
                let firstWeekday = presentation.firstWeekday.weekday
                let text: String
                switch format {
                case .text:
                    let colors = meansStandardOutput(output) && isatty(STDOUT_FILENO) == 1
                        && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
                    text = TextReport(report: report, colors: colors, firstWeekday: firstWeekday, rules: rules).render()
                case .json:
                    text = try JSONReport(report: report, diagnostics: imported.diagnostics).render()
                case .csv:
                    text = CSVReport(report: report).render()
                case .md:
                    text = MarkdownReport(report: report, rules: rules, firstWeekday: firstWeekday).render()
                case .svg:
                    text = SVGReport(report: report, rules: rules, firstWeekday: firstWeekday).render()
                case .html:
                    text = HTMLReport(report: report, sessions: imported.sessions, rules: rules, firstWeekday: firstWeekday).render()
                }
                let failed = calendar.printDiagnostics(imported.diagnostics)
                try emit(text, to: output)
                if failed { throw ExitCode(1) }
            }
        }
    }

    struct Sessions: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lists one day's sessions in start order with their points and local times.")

        @OptionGroup var calendar: CalendarOptions

        @Option(help: "The day to list, YYYY-MM-DD.")
        var on: String

        func validate() throws {
            _ = try parseDay(on, option: "--on")
        }

        func run() throws {
            try failing {
                guard let day = try parseDay(on, option: "--on") else { return }
                let (imported, goal) = try calendar.load(from: day, through: day)
                let cards = SessionCards(day: day, goal: goal, from: imported.sessions)
                let failed = calendar.printDiagnostics(imported.diagnostics)
                try emit(cards.render(), to: nil)
                if failed { throw ExitCode(1) }
            }
        }
    }
}
