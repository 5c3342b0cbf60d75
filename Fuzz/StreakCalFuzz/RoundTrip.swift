#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StreakCal

/// One input taken through everything `streakcal` does with a calendar — import, score, render in
/// every report format, annotate — and the annotated calendar read back, with the differential
/// oracle: the annotated calendar must have the same per-day totals as the original.
///
/// Every bound is fixed, so that one input cannot make huge output or depend on the clock: "today"
/// is 2024-02-29 12:00 UTC, recurring events are expanded from their start up to a year after today
/// with at most `maximumInstancesPerRule` instances per rule, and the report covers `reportDays`
/// days from the earliest session's day.
///
/// ```swift
/// let failure = RoundTrip().check(Array("BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240226T090000Z\r\nX-POINTS:120\r\nEND:VEVENT\r\n".utf8))
/// print(failure == nil)
/// // Prints "true"
/// ```
struct RoundTrip {
    /// The fixed "today" of every run.
    static let today = try! Day(year: 2024, month: 2, day: 29)
    /// The fixed "now": noon UTC on `today`, in seconds since 1970 (the annotations' DTSTAMP).
    static let now = Int64(today.daysSince1970) * 86_400 + 43_200
    /// Days in the report window (about three months).
    static let reportDays = 92
    /// The most instances one recurrence rule may add.
    static let maximumInstancesPerRule = 64
    /// The name the input is read under (diagnostics and session sources carry it).
    static let inputName = "input.ics"
    /// The name the annotated calendar is read back under.
    static let annotatedName = "annotated.ics"

    /// The importer both readings use: points from `X-POINTS`, the fixed expansion, one thread (the
    /// results do not depend on it, and a fuzzer is faster without thread start-ups per input).
    let importer: SessionImporter

    init() {
        var importer = SessionImporter(
            pointsRule: .xPoints,
            expansion: RecurrenceExpansion(
                from: nil, through: Self.today.advanced(by: 366),
                maximumInstancesPerRule: Self.maximumInstancesPerRule))
        importer.parallelism = 1
        self.importer = importer
    }

    /// `bytes` imported; `nil` only if reading memory failed, which the import promises never happens.
    private func imported(_ bytes: [UInt8], name: String) -> CalendarImport? {
        try? importer.importSessions(from: .bytes(bytes, name: name))
    }

    /// Runs the whole round trip on `bytes`; returns what the oracle found wrong, or `nil`.
    func check(_ bytes: [UInt8]) -> String? {
        // Import and score, as `streakcal report` does with its default zone (X-WR-TIMEZONE, else
        // the zone of the events' TZIDs, else the process's zone, which the fuzzer pins to UTC).
        guard let input = imported(bytes, name: Self.inputName) else { return "bytes in memory could not be read" }
        let (original, zone) = input.inReportZone(requested: nil, fallback: .utc)
        let goal = StreakGoal(requiredPoints: 100, timeZone: zone, dayStart: .midnight)
        let originalTotals = DayFigures.totals(of: original.sessions, goal: goal)
        let first = originalTotals.keys.min() ?? Self.today
        let window = first...first.advanced(by: Self.reportDays - 1)
        let report = StreakReport(sessions: original.sessions, goal: goal, window: window)

        // Every report format, as `streakcal report --format ...` renders it.
        let settings = ReportSettings(requiredPoints: goal.requiredPoints)
        let scored = ScoredCalendar(imported: original, report: report)
        for format in ReportFormat.allCases {
            do {
                _ = format.render(scored, with: settings)
            } catch {
                return "the \(format.rawValue) report cannot be rendered: \(error)"
            }
        }

        // Annotate, as `streakcal annotate --mark-sessions` does, and read the result back.
        let annotation = CalendarAnnotation(report: report)
        guard let written = try? annotation.write(
            [.bytes(bytes, name: Self.inputName)], markingSessions: original.sessions, timestamp: Self.now)
        else { return "bytes in memory could not be annotated" }
        guard let rereadInput = imported(Array(written.text.utf8), name: Self.annotatedName) else {
            return "the annotated calendar could not be read back"
        }
        let (reread, rereadZone) = rereadInput.inReportZone(requested: nil, fallback: .utc)
        // Without X-WR-TIMEZONE the report is in the zone the events' TZIDs name (issue 46.7), found
        // by the import's first pass over the text; in a damaged input that pass may not see a
        // TZID (a NUL in its line, a component that does not close) which the annotated copy,
        // written clean, shows. There the zone may change, as the totals may, and the damage has
        // been said; in every other input it must not.
        let damaged = Self.isDamaged(original.diagnostics) || Self.isDamaged(written.diagnostics)
        if rereadZone.identifier != zone.identifier, !damaged {
            return "the report zone changed from \(zone.identifier) to \(rereadZone.identifier) (X-WR-TIMEZONE: \(original.declaredTimeZone ?? "none") before, \(reread.declaredTimeZone ?? "none") after)"
        }
        let rereadTotals = DayFigures.totals(of: reread.sessions, goal: goal)
        guard let differences = DayFigures.differences(original: originalTotals, reread: rereadTotals) else { return nil }
        // A damaged input (a line that is no content line, bytes that are no UTF-8, BEGIN and END that
        // do not pair, a line libical rejects) is read as well as it can be, and annotate leaves out
        // what it cannot write, each time with a warning: there the totals may differ, and what
        // changed has been said. Every other input must come back with the same totals.
        if Self.isDamaged(original.diagnostics) || Self.isDamaged(written.diagnostics) { return nil }
        return differences + Self.listing("the import", original.diagnostics) + Self.listing("the writer", written.diagnostics)
            + (getenv("STREAKCAL_FUZZ_SHOW_ANNOTATED") != nil ? "\nthe annotated calendar:\n" + written.text : "")
    }

    /// Whether diagnostics say that lines of the input could not be read as written: codes for the
    /// structure of the input (`malformed-line`, `encoding`, `structure`, `libical`) at warning or error.
    static func isDamaged(_ diagnostics: [Diagnostic]) -> Bool {
        diagnostics.contains { diagnostic in
            diagnostic.severity >= .warning && [.malformedLine, .encoding, .structure, .libical].contains(diagnostic.code)
        }
    }

    /// The first diagnostics of a step, to go with an oracle failure.
    private static func listing(_ step: String, _ diagnostics: [Diagnostic]) -> String {
        var text = diagnostics.isEmpty ? "\n\(step) reported nothing" : "\n\(step) reported:"
        for diagnostic in diagnostics.prefix(8) {
            text += "\n  \(diagnostic.location): \(diagnostic.severity.rawValue): \(diagnostic.message)"
        }
        if diagnostics.count > 8 { text += "\n  and \(diagnostics.count - 8) more" }
        return text
    }
}

/// What the oracle compares on each day: the points and the number of sessions counted on it.
///
/// ```swift
/// let totals = DayFigures.totals(of: sessions, goal: goal)
/// print(totals[try Day(year: 2024, month: 2, day: 26)] ?? DayFigures())
/// // Prints "120 points in 1 session"
/// ```
struct DayFigures: Hashable, CustomStringConvertible {
    /// The day's points (saturating at `Int.max`, as the report adds them).
    var points = 0
    /// The sessions counted on the day.
    var sessions = 0

    var description: String {
        "\(points) points in \(sessions) \(sessions == 1 ? "session" : "sessions")"
    }

    /// The figures of every day with a session, each session on its day in `goal`'s zone and day start.
    static func totals(of sessions: [Session], goal: StreakGoal) -> [Day: DayFigures] {
        var totals: [Day: DayFigures] = [:]
        for session in sessions {
            let day = session.day(in: goal.timeZone, dayStart: goal.dayStart)
            totals[day, default: DayFigures()].add(session.points)
        }
        return totals
    }

    /// Counts one session with `points` (points never wrap around: a sum past `Int.max` stays there).
    mutating func add(_ points: Int) {
        let (sum, overflow) = self.points.addingReportingOverflow(points)
        self.points = overflow ? Int.max : sum
        sessions += 1
    }

    /// The days whose figures differ, the first few of them spelled out; `nil` when none differ.
    static func differences(original: [Day: DayFigures], reread: [Day: DayFigures]) -> String? {
        let days = Set(original.keys).union(reread.keys).filter { original[$0] != reread[$0] }.sorted()
        guard !days.isEmpty else { return nil }
        let shown = days.prefix(5).map { day in
            "\(day): \(original[day] ?? DayFigures()) in the input, \(reread[day] ?? DayFigures()) in the annotated calendar"
        }
        let more = days.count > shown.count ? "; and \(days.count - shown.count) more days" : ""
        return "the annotated calendar's per-day totals differ from the input's on \(days.count) \(days.count == 1 ? "day" : "days"): "
            + shown.joined(separator: "; ") + more
    }
}
