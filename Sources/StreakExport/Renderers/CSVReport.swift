package import CalendarDiagnostics
package import Streaks

/// How the lines of a CSV table end (``TotalsReport/csv(lineEnding:)``).
public enum CSVLineEnding: String, Hashable, Sendable, CaseIterable {
    /// `\r\n`, as RFC 4180 says.
    case crlf
    /// `\n`.
    case lf

    var text: String { self == .crlf ? "\r\n" : "\n" }
}

/// A streak report as CSV: a header, then one row per day of the window.
///
/// The columns `date,points,sessions,status` are a contract (more may be added on the right; a
/// batch's reports have the calendar's `id` first, ``calendarID``): a
/// report scored by `StreakRules` other than the simple case adds `required,fraction` (empty on a
/// rest day), and named habits add `habit`, with one block of rows per habit after the calendar's
/// own (whose `habit` is empty). The
/// text follows RFC 4180: lines end with CRLF (choose `.lf` for tools that want Unix lines; the last
/// line ends too), and a field that holds a comma, a double quote, CR or LF is quoted, with its
/// quotes doubled.
///
/// ```swift
/// print(CSVReport(report: report, lineEnding: .lf).render(), terminator: "")
/// // date,points,sessions,status
/// // 2024-02-20,100,1,met
/// // 2024-02-21,0,0,none
/// // ...
/// ```
package struct CSVReport: Sendable {
    package typealias LineEnding = CSVLineEnding

    /// The report to write.
    package var report: StreakReport
    /// How lines end; CRLF by default.
    package var lineEnding: LineEnding

    /// Each named habit's report.
    package var habits: [HabitReport]

    /// The calendar's id, as a batch names it: when given, an `id` column comes first, so that a
    /// batch's reports put together are one table.
    package var calendarID: String?

    package init(report: StreakReport, habits: [HabitReport] = [], lineEnding: LineEnding = .crlf, calendarID: String? = nil) {
        self.report = report
        self.habits = habits
        self.lineEnding = lineEnding
        self.calendarID = calendarID
    }

    /// The header's fields.
    package static let columns = ["date", "points", "sessions", "status"]

    /// The CSV text, each line (the last too) ending with ``lineEnding``: written row by row into
    /// one string, so that a report of millions of days costs about its own size.
    package func render() -> String {
        let extended = !report.rules.isSimple || !habits.isEmpty
        var header = CSVReport.columns
        if calendarID != nil { header.insert("id", at: 0) }
        if extended { header += ["required", "fraction"] }
        if !habits.isEmpty { header.append("habit") }
        let end = lineEnding.text
        // The id is text from outside, as a habit's name is: a field of its own.
        let idField = calendarID.map { CSVReport.field($0) + "," } ?? ""
        var text = header.map(CSVReport.field).joined(separator: ",") + end
        text.reserveCapacity((report.days.count + 1) * (1 + habits.count) * (extended ? 36 : 24))
        for (name, part) in [(nil as String?, report)] + habits.map({ ($0.name, $0.report) }) {
            // Dates, numbers and statuses are plain fields; only a habit's name is text from outside.
            let habitField = habits.isEmpty ? nil : "," + CSVReport.field(name ?? "")
            for day in part.days {
                text += idField
                text += day.date.description
                text += ","
                text += String(day.points)
                text += ","
                text += String(day.sessions)
                text += ","
                text += day.status.rawValue
                if extended {
                    text += ","
                    text += String(day.required)
                    text += ","
                    if let fraction = day.fraction { text += String(JSONReport.rounded(fraction)) }
                }
                if let habitField { text += habitField }
                text += end
            }
        }
        return text
    }

    /// `value` as one RFC 4180 field: unchanged, or in double quotes with its quotes doubled when it
    /// holds a comma, a quote, CR or LF. Other control characters, which RFC 4180 text does not
    /// hold and which would act on a terminal showing the file (ESC, C1, bidi overrides, ...), are
    /// shown as `\u{XX}` (`String.escapingControlCharacters`); tab stays.
    ///
    /// A value that a spreadsheet would read as a formula — it starts with `=`, `+`, `-`, `@`, tab
    /// or CR (OWASP's CSV injection list) — gets a `'` in front, which spreadsheets show as text;
    /// quoting alone does not stop them. Every text field of a CSV report goes through here.
    ///
    /// ```swift
    /// print(CSVReport.field("plain"))
    /// print(CSVReport.field("a, \"b\""))
    /// print(CSVReport.field("=SUM(A1)"))
    /// // Prints:
    /// // plain
    /// // "a, ""b"""
    /// // '=SUM(A1)
    /// ```
    package static func field(_ value: String) -> String {
        var value = value
        if let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
            value = "'" + value
        }
        if value.unicodeScalars.contains(where: { $0.isTerminalControl() && $0 != "\r" && $0 != "\n" }) {
            var visible = ""
            for scalar in value.unicodeScalars {
                if scalar == "\r" || scalar == "\n" {
                    visible.unicodeScalars.append(scalar)
                } else {
                    visible += String(scalar).escapingControlCharacters()
                }
            }
            value = visible
        }
        let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return value }
        return "\"" + value.replacing("\"", with: "\"\"") + "\""
    }
}

/// The CSV format: the calendar's report (below), the habits' rows after the calendar's.
///
/// A streak report as CSV: a header, then one row per day of the window.
///
/// The columns `date,points,sessions,status` are a contract (more may be added on the right; a
/// batch's reports have the calendar's `id` first): a
/// report scored by `StreakRules` other than the simple case adds `required,fraction` (empty on a
/// rest day), and named habits add `habit`, with one block of rows per habit after the calendar's
/// own (whose `habit` is empty). The
/// text follows RFC 4180: lines end with CRLF (choose `.lf` for tools that want Unix lines; the last
/// line ends too), and a field that holds a comma, a double quote, CR or LF is quoted, with its
/// quotes doubled.
public struct CSVReportRenderer: ReportRenderer {
    public static let needsSessions = false
    public static let drawsDays = false
    public var presentation: ReportPresentation

    public init(presentation: ReportPresentation = ReportPresentation()) {
        self.presentation = presentation
    }

    public func render(_ content: ReportContent) -> String {
        CSVReport(report: content.report, habits: content.habits).render()
    }
}
