import Foundation
import ICalendar
import Streaks

/// One calendar of a batch from its sources to its figures and report: the one step a folder's
/// file (``BatchReport``), a JSON Lines record and so a Spark row (``JSONLinesBatch``) all take,
/// so that the same calendar gives the same row whichever way it came in.
struct BatchScoring: Sendable {
    /// The batch's settings, before a calendar's own (``CalendarOverrides``).
    var settings: ReportSettings
    var format: ReportFormat
    /// The instant "today" is taken from, in seconds since 1970.
    var now: Int64
    /// Whether a warning or an error about the input fails the calendar.
    var strict: Bool

    /// What became of one calendar.
    struct Outcome: Sendable {
        var result: BatchFileResult
        /// The report, unless the calendar failed before it was rendered.
        var report: String?
        /// The calendar's diagnostics.
        var diagnostics: [Diagnostic] = []
    }

    /// Reads, scores and renders `sources` as one calendar, under `overrides`.
    ///
    /// - Parameters:
    ///   - input: The input as the user knows it (``BatchFileResult/input``).
    ///   - id: The calendar's id (``BatchFileResult/id``): its report's name in a batch, a
    ///     record's `id` in JSON Lines; a CSV report carries it in its first column.
    func score(_ sources: [CalendarSource], input: String, id: String?, overrides: CalendarOverrides?) -> Outcome {
        var outcome = Outcome(result: BatchFileResult(input: input))
        outcome.result.id = id
        do {
            if let refusal = BatchInput.refusal(of: sources) { throw BatchFailure(description: refusal, code: .notACalendar) }
            // One file per worker: each file's components are parsed on the worker's own thread.
            var settings = overrides?.applied(to: settings) ?? settings
            settings.parallelism = 1
            let scored = try settings.scored(sources, for: format, now: now)
            outcome.result.record(scored)
            outcome.diagnostics = scored.imported.diagnostics
            outcome.report = try render(scored, with: settings, id: id)
            if strict, let failure = Self.strictFailure(outcome.result.diagnostics) { outcome.result.error = failure }
        } catch {
            outcome.result.error = String(describing: error)
            outcome.result.errorCode = (error as? CalendarReadError)?.code ?? (error as? BatchFailure)?.code
        }
        return outcome
    }

    /// The report; a CSV report with an `id` column first when the calendar has an id, so that
    /// a batch's CSV files can be put together into one table.
    private func render(_ scored: ScoredCalendar, with settings: ReportSettings, id: String?) throws -> String {
        guard format == .csv, let id else { return format.render(scored, with: settings) }
        return CSVReport(report: scored.report, habits: scored.habits, calendarID: id).render()
    }

    /// Why `--strict` fails a calendar with these diagnostics, if it does: errors and warnings
    /// about the input; notes (the report's window, its zone, planned days, how points were
    /// read, copies counted once) never do.
    static func strictFailure(_ counts: DiagnosticCounts) -> String? {
        let serious = counts.errors + counts.warnings
        guard serious > 0 else { return nil }
        return "\(serious) \(serious == 1 ? "problem" : "problems") in the input (strict)"
    }
}
