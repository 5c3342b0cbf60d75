import Foundation
import ArgumentParser
import StreakCal

extension StreakCalCommand {
    struct Annotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "annotate",
            abstract: "Writes the calendars back out with each day's status as an all-day event.",
            discussion: """
                The output keeps every property and component of the inputs and adds one all-day event \
                per day with sessions (or every day, with --all-days; with --habit, per habit and day): \
                its summary shows the points and the streak, COLOR and CATEGORIES the status, and \
                X-STREAKCAL-* properties the figures. Its UID is DAY.CALENDAR@DOMAIN \
                (2024-02-20.piano@streakcal.local; DAY.CALENDAR.HABIT@DOMAIN with habits), CALENDAR made \
                of the calendars' names. Annotating an annotated calendar replaces the old annotations \
                and keeps their UIDs. A TZID the inputs use without a VTIMEZONE gets one, made from the \
                IANA zone it names.
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

        @Flag(help: "Write the day events alone (no event of the inputs), for a calendar app that has the sessions already.")
        var onlyAnnotations = false

        // Read unconditionally, so that `--uid-domain -x.org` gets its message rather than "missing value".
        @Option(parsing: .unconditional, help: ArgumentHelp(
            "The domain after @ in the annotations' UIDs (2024-02-20.piano@DOMAIN), a DNS name such as example.com.",
            valueName: "domain"))
        var uidDomain: String = UIDDomain.standard.text

        func validate() throws {
            if onlyAnnotations, markSessions {
                throw ValidationError("--mark-sessions marks the inputs' events, which --only-annotations leaves out; give one of them.")
            }
            do {
                _ = try UIDDomain(uidDomain)
            } catch {
                throw ValidationError("--uid-domain \(error.description.escapingControlCharacters()).")
            }
        }

        /// A copy's error as the command says it: the error it holds (a read or write error says
        /// itself; a temporary file's failure is a command failure).
        private static func said<Failure: Error>(_ error: CalendarCopyError<Failure>) -> any Error {
            switch error {
            case .unreadable(let error): error
            case .scratch(let error): CommandFailure(error.description)
            case .output(let error): error
            }
        }

        func run() throws {
            try failing {
                let (from, to) = try window.days(scoring)
                let settings = try calendar.settings(from: from, to: to, scoring: scoring, rules: streakRules)
                // The file is started first: a path that cannot be written is said before the inputs are read.
                var file = meansStandardOutput(output) ? nil : try AtomicFileStream(path: output!)
                let sources = try calendar.sources(from: from, to: to)
                let domain = try UIDDomain(uidDomain)
                let annotated: AnnotatedCalendarCopy
                do throws(CalendarCopyError<Never>) {
                    annotated = try settings.annotatedCopy(
                        sources, includingEmptyDays: allDays, markingSessions: markSessions,
                        onlyAnnotations: onlyAnnotations, uidDomain: domain, now: startTime)
                } catch {
                    throw Self.said(error)
                }
                let failed = calendar.printDiagnostics(annotated.diagnostics)
                do {
                    if var stream = file.take() {
                        try annotated.write(to: &stream)
                        try stream.commit()
                    } else {
                        var standardOutput = StandardStream.output
                        try annotated.write(to: &standardOutput)
                    }
                } catch let error as CalendarCopyError<AtomicFile.WriteError> {
                    throw Self.said(error)
                } catch let error as CalendarCopyError<StandardStream.WriteError> {
                    throw Self.said(error)
                }
                if failed { throw ExitCode(1) }
            }
        }
    }
}
