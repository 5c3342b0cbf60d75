import Foundation
public import ICalendar
public import Streaks

/// What a batch did with each calendar, in input order, as `summary.json` and as a table.
///
/// The JSON keys are a contract: `format`, `files` (each ``BatchFileResult``, with the calendar's
/// `name`), `totals` (`files`,
/// `failed`, `sessions`, `points`, `daysMet`), `elapsedSeconds` (`null` without timings) and
/// `skipped` (each ``SkippedInput``: `input` and `reason`; empty when nothing was passed over).
/// With habits, each file adds `habits` (``BatchFileResult/HabitResult``: `name`, `daysMet`,
/// `currentStreak`, `longestStreak`, `score`).
///
/// ```swift
/// print(summary.table(), terminator: "")
/// // FILE                 NAME                               SESSIONS  DAYS MET  CURRENT  LONGEST  DIAGNOSTICS  ERROR
/// // tutorial-sample.ics  FSCalendar streaks tutorial sample         5         3        0        2  1 warning
/// // missing.ics          missing                                   -         -        -        -  -            cannot read missing.ics: no such file
/// // 2 files, 1 failed
/// ```
public struct BatchSummary: Hashable, Sendable {
    /// The format of the reports.
    public var format: ReportFormat
    /// One result per calendar, in input order.
    public var files: [BatchFileResult]
    /// The whole batch's wall time, when timed.
    public var elapsedSeconds: Double?
    /// Entries of the folders walked that were passed over (not regular files, a file found
    /// again through a link), in walk order.
    public var skipped: [SkippedInput]
    /// Calendars not done because the batch was stopped (interrupted); 0 when it ran to the end.
    public var remaining = 0
    /// Reports in the output folder that no input of this run is named for (from earlier runs,
    /// over other inputs), by file name; listed only when the run was complete.
    public var stale: [String] = []
    /// Whether ``stale`` were removed (`--clean`).
    public var removedStale = false

    public init(format: ReportFormat, files: [BatchFileResult], elapsedSeconds: Double? = nil, skipped: [SkippedInput] = []) {
        self.format = format
        self.files = files
        self.elapsedSeconds = elapsedSeconds
        self.skipped = skipped
    }

    /// The calendars that failed: unreadable, unwritable, or with problems under `strict`.
    public var failed: [BatchFileResult] { files.filter { $0.error != nil } }

    /// Whether every calendar was done (the batch was not stopped).
    public var isComplete: Bool { remaining == 0 }

    /// The JSON text, pretty-printed with keys sorted, ending with a newline (`JSONWriter`, in
    /// `JSONEncoder`'s `.prettyPrinted` layout; the JSON contract lists the keys).
    public func json() -> String {
        json(entries: files.map(Self.jsonEntry))
    }

    /// `json()` with each file's object already written (`jsonEntry(of:)`, one per file, in order;
    /// a batch's workers write them as they finish, so that the summary is only put together).
    func json(entries: [[UInt8]]) -> String {
        String(decoding: jsonBytes(entries: entries), as: UTF8.self)
    }

    /// `json(entries:)` as UTF-8 bytes, as `summary.json` is written.
    func jsonBytes(entries: [[UInt8]]) -> [UInt8] {
        let entries = entries.count == files.count ? entries : files.map(Self.jsonEntry)
        let totals = self.totals
        var json = JSONWriter(layout: .pretty)
        json.bytes.reserveCapacity(512 + entries.reduce(0) { $0 + $1.count + 6 })
        json.open("{")
        json.key("complete", indent: 2, first: true)
        json.boolean(isComplete)
        json.key("elapsedSeconds", indent: 2)
        json.optional(elapsedSeconds) { $0.number($1) }
        json.key("files", indent: 2)
        json.open("[")
        for (index, entry) in entries.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.bytes += entry
        }
        json.close("]", indent: 2, empty: files.isEmpty)
        json.key("format", indent: 2)
        json.string(format.rawValue)
        json.key("generator", indent: 2)
        json.string(StreakCalVersion.generator)
        json.key("remaining", indent: 2)
        json.integer(remaining)
        json.key("skipped", indent: 2)
        json.open("[")
        for (index, skip) in skipped.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.open("{")
            json.key("input", indent: 6, first: true)
            json.string(skip.input)
            json.key("reason", indent: 6)
            json.string(skip.reason)
            json.close("}", indent: 4, empty: false)
        }
        json.close("]", indent: 2, empty: skipped.isEmpty)
        json.key("stale", indent: 2)
        json.open("[")
        for (index, name) in stale.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.string(name)
        }
        json.close("]", indent: 2, empty: stale.isEmpty)
        json.key("staleRemoved", indent: 2)
        json.boolean(removedStale)
        json.key("totals", indent: 2)
        totalsEntry(totals, into: &json)
        return json.documentBytes()
    }

    /// One file's object in `summary.json`, from its `{` to its `}`, as it stands there (its
    /// members at an indent of 6): the same wherever in the list it goes.
    static func jsonEntry(of file: BatchFileResult) -> [UInt8] {
        jsonEntry(of: file, layout: .pretty)
    }

    /// ``jsonEntry(of:)`` in `layout`; compact, `habits` is there even when empty (a batch's manifest).
    static func jsonEntry(of file: BatchFileResult, layout: JSONWriter.Layout) -> [UInt8] {
        var json = JSONWriter(layout: layout)
        json.bytes.reserveCapacity(520)
        json.open("{")
        json.key("currentStreak", indent: 6, first: true)
        json.optional(file.currentStreak) { $0.streak($1, indent: 6) }
        json.key("days", indent: 6)
        json.optional(file.days) { $0.integer($1) }
        json.key("daysMet", indent: 6)
        json.optional(file.daysMet) { $0.integer($1) }
        json.key("diagnostics", indent: 6)
        json.integerObject([
            ("errors", file.diagnostics.errors), ("notes", file.diagnostics.notes),
            ("warnings", file.diagnostics.warnings),
        ], indent: 6)
        json.key("elapsedSeconds", indent: 6)
        json.optional(file.elapsedSeconds) { $0.number($1) }
        json.key("error", indent: 6)
        json.optional(file.error) { $0.string($1) }
        json.key("errorCode", indent: 6)
        json.optional(file.errorCode) { $0.string($1.rawValue) }
        if !file.habits.isEmpty || layout == .compact { habitsEntry(file.habits, into: &json) }
        json.key("id", indent: 6)
        json.optional(file.id) { $0.string($1) }
        json.key("input", indent: 6)
        json.string(file.input)
        json.key("longestStreak", indent: 6)
        json.optional(file.longestStreak) { $0.streak($1, indent: 6) }
        json.key("name", indent: 6)
        json.string(file.name)
        json.key("output", indent: 6)
        json.optional(file.output) { $0.string($1) }
        json.key("points", indent: 6)
        json.optional(file.points) { $0.integer($1) }
        json.key("sessions", indent: 6)
        json.optional(file.sessions) { $0.integer($1) }
        json.key("unit", indent: 6)
        json.optional(file.unit) { $0.string($1.rawValue) }
        json.key("zone", indent: 6)
        json.optional(file.zone) { $0.string($1) }
        json.close("}", indent: 4, empty: false)
        return json.bytes
    }

    /// A file's `habits`, each `currentStreak`, `daysMet`, `longestStreak`, `name` and `score`.
    private static func habitsEntry(_ habits: [BatchFileResult.HabitResult], into json: inout JSONWriter) {
        json.key("habits", indent: 6)
        json.open("[")
        for (index, habit) in habits.enumerated() {
            json.element(indent: 8, first: index == 0)
            json.open("{")
            json.key("currentStreak", indent: 10, first: true)
            json.streak(habit.currentStreak, indent: 10)
            json.key("daysMet", indent: 10)
            json.integer(habit.daysMet)
            json.key("longestStreak", indent: 10)
            json.streak(habit.longestStreak, indent: 10)
            json.key("name", indent: 10)
            json.string(habit.name)
            json.key("score", indent: 10)
            json.number((habit.score * 10_000).rounded() / 10_000)
            json.close("}", indent: 8, empty: false)
        }
        json.close("]", indent: 6, empty: habits.isEmpty)
    }

    /// `totals`: counts, and points by what they count (minutes and X-POINTS are not added
    /// together: `points` is their sum only when every calendar counts the same, else `null`).
    private func totalsEntry(_ totals: Totals, into json: inout JSONWriter) {
        json.open("{")
        json.key("daysMet", indent: 4, first: true)
        json.integer(totals.daysMet)
        json.key("failed", indent: 4)
        json.integer(totals.failed)
        json.key("files", indent: 4)
        json.integer(totals.files)
        json.key("points", indent: 4)
        json.optional(totals.pointsByUnit.count <= 1 ? totals.pointsByUnit.first?.points ?? 0 : nil) { $0.integer($1) }
        json.key("pointsByUnit", indent: 4)
        json.open("{")
        for (index, (unit, points)) in totals.pointsByUnit.enumerated() {
            json.key(unit.rawValue, indent: 6, first: index == 0)
            json.integer(points)
        }
        json.close("}", indent: 4, empty: totals.pointsByUnit.isEmpty)
        json.key("sessions", indent: 4)
        json.integer(totals.sessions)
        json.close("}", indent: 2, empty: false)
    }

    /// The sums over the calendars that did not fail to read.
    private struct Totals {
        var files: Int
        var failed: Int
        var sessions: Int
        /// Points summed per unit, in the units' order (`points`, `minutes`, `sessions`), units
        /// no calendar counts left out.
        var pointsByUnit: [(unit: PointsUnit, points: Int)]
        var daysMet: Int
    }

    /// The sums over the calendars that did not fail to read.
    private var totals: Totals {
        var byUnit: [PointsUnit: Int] = [:]
        for file in files {
            guard let unit = file.unit, let points = file.points else { continue }
            let (sum, overflow) = byUnit[unit, default: 0].addingReportingOverflow(points)
            byUnit[unit] = overflow ? Int.max : sum
        }
        return Totals(
            files: files.count, failed: failed.count,
            sessions: files.reduce(0) { $0 + ($1.sessions ?? 0) },
            pointsByUnit: PointsUnit.allCases.compactMap { unit in byUnit[unit].map { (unit, $0) } },
            daysMet: files.reduce(0) { $0 + ($1.daysMet ?? 0) })
    }

    /// A table of the calendars, one line each, and a line of totals.
    ///
    /// Text for a terminal: control characters in file names and errors, tabs included, are shown
    /// as `\u{XX}` (`String.escapingControlCharacters`), so every row is one line and a name
    /// cannot act on the terminal.
    public func table() -> String {
        let header = ["FILE", "NAME", "SESSIONS", "DAYS MET", "CURRENT", "LONGEST", "DIAGNOSTICS", "ERROR"]
        var rows = [header]
        rows.reserveCapacity(files.count + 1)
        for file in files {
            let figure = { (value: Int?) in value.map(String.init) ?? "-" }
            rows.append([
                file.input.escapingControlCharacters(keepingTabs: false), file.name.escapingControlCharacters(keepingTabs: false),
                figure(file.sessions), figure(file.daysMet),
                figure(file.currentStreak?.length), figure(file.longestStreak?.length),
                file.sessions == nil ? "-" : file.diagnostics.description,
                (file.error ?? "").escapingControlCharacters(keepingTabs: false),
            ])
            for habit in file.habits {
                rows.append([
                    "", "  " + habit.name.escapingControlCharacters(keepingTabs: false), "", String(habit.daysMet),
                    String(habit.currentStreak.length), String(habit.longestStreak.length), "", "",
                ])
            }
        }
        // Widths in characters, counted once a cell (most cells are ASCII: their bytes).
        let cellWidths = rows.map { $0.map(Self.width) }
        var widths = [Int](repeating: 0, count: header.count)
        for row in cellWidths {
            for column in row.indices { widths[column] = max(widths[column], row[column]) }
        }
        let numeric = 2...5  // SESSIONS to LONGEST, right-aligned
        var text: [UInt8] = []
        text.reserveCapacity((widths.reduce(0, +) + 2 * widths.count + 1) * rows.count + 64)
        for (row, rowWidths) in zip(rows, cellWidths) {
            let lineStart = text.count
            for column in row.indices {
                if column > 0 { text += [0x20, 0x20] }
                let padding = repeatElement(UInt8(0x20), count: widths[column] - rowWidths[column])
                if column == row.count - 1 {
                    text += row[column].utf8
                } else if numeric.contains(column) {
                    text += padding
                    text += row[column].utf8
                } else {
                    text += row[column].utf8
                    text += padding
                }
            }
            while text.count > lineStart, text.last == 0x20 { text.removeLast() }
            text.append(0x0A)
        }
        var summaryLine = ""
        let failures = failed.count
        summaryLine += "\(files.count) \(files.count == 1 ? "file" : "files"), \(failures) failed"
        if !skipped.isEmpty { summaryLine += ", \(skipped.count) skipped" }
        if remaining > 0 { summaryLine += ", interrupted with \(remaining) not done" }
        if let elapsedSeconds { summaryLine += ", in \(Self.twoDecimals(elapsedSeconds)) s" }
        return String(decoding: text, as: UTF8.self) + summaryLine + "\n"
    }

    /// `value` as `%.2f` writes it.
    static func twoDecimals(_ value: Double) -> String { String(format: "%.2f", value) }

    /// A cell's width in characters: its byte count when it is ASCII, else its `count`.
    private static func width(_ cell: String) -> Int {
        let isASCII = cell.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? cell.utf8.allSatisfy { $0 < 0x80 }
        return isASCII ? cell.utf8.count : cell.count
    }
}

/// What happened to one calendar of a batch.
///
/// The figures are `null` when the calendar could not be read; `error` says why a calendar failed
/// (it may also be set beside the figures, for a report that could not be written, or for problems
/// under `strict`).
public struct BatchFileResult: Hashable, Sendable, Codable {
    /// The calendar's id: in a batch, its path relative to the folder given (``BatchInput/id``);
    /// in JSON Lines, the record's `id`.
    public var id: String?
    /// The input as the user knows it.
    public var input: String
    /// The calendar's name: its `X-WR-CALNAME`, else the file's name (``/Streaks/ReportSource``).
    public var name: String
    /// The report's file name in the output folder, when written (or, without writing, when rendered).
    public var output: String?
    /// Sessions in the report's window.
    public var sessions: Int?
    /// Points in the report's window.
    public var points: Int?
    /// Days in the report's window.
    public var days: Int?
    /// Days that met the goal.
    public var daysMet: Int?
    /// The streak that reaches the report's last day (or the day before, while it is open).
    public var currentStreak: Streak?
    /// The longest streak in the window.
    public var longestStreak: Streak?
    /// The calendar's diagnostics, by severity.
    public var diagnostics: DiagnosticCounts
    /// Why the calendar failed, if it did.
    public var error: String?
    /// What kind of read error ``error`` is, when the calendar could not be read (`not-found`,
    /// `permission-denied`, `refused`, …: ``/ICalendar/CalendarReadError/Code``); `nil` when it was
    /// read, also when it failed later (a report that could not be written, problems under `strict`).
    public var errorCode: CalendarReadError.Code?
    /// The time this calendar took, when timed.
    public var elapsedSeconds: Double?
    /// Each named habit's figures, in the habits' order (empty without habits).
    public var habits: [HabitResult] = []
    /// What the points count (`points`, `minutes` or `sessions`), when scored.
    public var unit: PointsUnit?
    /// The zone the calendar was scored in (given, or the calendar's own), when scored.
    public var zone: String?

    /// One habit's figures in a batch: by the habit's own rules.
    public struct HabitResult: Hashable, Sendable, Codable {
        public var name: String
        /// Days that met the habit's goal (or stayed within its limit).
        public var daysMet: Int
        public var currentStreak: Streak
        public var longestStreak: Streak
        /// The habit score after the last day, 0...1.
        public var score: Double

        public init(name: String, daysMet: Int, currentStreak: Streak, longestStreak: Streak, score: Double) {
            self.name = name
            self.daysMet = daysMet
            self.currentStreak = currentStreak
            self.longestStreak = longestStreak
            self.score = score
        }
    }

    public init(input: String) {
        self.input = input
        self.name = ReportSource.name(ofFile: input)
        self.diagnostics = DiagnosticCounts()
    }

    /// Reads an entry as `summary.json` (or a batch's manifest) writes it; `habits`, left out
    /// there when there are none, may be missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        input = try container.decode(String.self, forKey: .input)
        name = try container.decode(String.self, forKey: .name)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        output = try container.decodeIfPresent(String.self, forKey: .output)
        sessions = try container.decodeIfPresent(Int.self, forKey: .sessions)
        points = try container.decodeIfPresent(Int.self, forKey: .points)
        days = try container.decodeIfPresent(Int.self, forKey: .days)
        daysMet = try container.decodeIfPresent(Int.self, forKey: .daysMet)
        currentStreak = try container.decodeIfPresent(Streak.self, forKey: .currentStreak)
        longestStreak = try container.decodeIfPresent(Streak.self, forKey: .longestStreak)
        diagnostics = try container.decode(DiagnosticCounts.self, forKey: .diagnostics)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        errorCode = try container.decodeIfPresent(CalendarReadError.Code.self, forKey: .errorCode)
        elapsedSeconds = try container.decodeIfPresent(Double.self, forKey: .elapsedSeconds)
        habits = try container.decodeIfPresent([HabitResult].self, forKey: .habits) ?? []
        unit = try container.decodeIfPresent(PointsUnit.self, forKey: .unit)
        zone = try container.decodeIfPresent(String.self, forKey: .zone)
    }

    /// Takes the figures of a scored calendar.
    mutating func record(_ scored: ScoredCalendar) {
        let report = scored.report
        sessions = report.totalSessions
        points = report.totalPoints
        days = report.days.count
        daysMet = report.statusCounts[.met] ?? 0
        currentStreak = report.currentStreak
        longestStreak = report.longestStreak
        unit = report.goal.unit
        zone = report.goal.timeZone.identifier
        diagnostics = DiagnosticCounts(scored.imported.diagnostics)
        if let source = scored.sources.calendars.first { name = source.name }
        habits = scored.habits.map { habit in
            HabitResult(
                name: habit.name, daysMet: habit.report.statusCounts[.met] ?? 0,
                currentStreak: habit.report.currentStreak, longestStreak: habit.report.longestStreak, score: habit.report.score)
        }
    }
}

/// How many diagnostics of each severity a calendar has.
///
/// ```swift
/// print(DiagnosticCounts(errors: 1, warnings: 2, notes: 0))
/// // Prints "1 error, 2 warnings"
/// ```
public struct DiagnosticCounts: Hashable, Sendable, Codable {
    public var errors: Int
    public var warnings: Int
    public var notes: Int

    public init(errors: Int = 0, warnings: Int = 0, notes: Int = 0) {
        self.errors = errors
        self.warnings = warnings
        self.notes = notes
    }

    /// Counts `diagnostics` by severity.
    public init(_ diagnostics: [Diagnostic]) {
        self.init()
        for diagnostic in diagnostics {
            switch diagnostic.severity {
            case .error: errors += 1
            case .warning: warnings += 1
            case .note: notes += 1
            }
        }
    }
}

extension DiagnosticCounts: CustomStringConvertible {
    /// "1 error, 2 warnings, 1 note", leaving out zeros; "none" for none.
    public var description: String {
        let parts = [(errors, "error"), (warnings, "warning"), (notes, "note")]
            .filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}

/// The summary as a table for machines (`streakcal batch --summary-format csv|jsonl`): one row per
/// calendar, written as each is done, with the columns ``columns``.
///
/// `unit` is what the calendar's points count (`points`, `minutes` or `sessions`); `zone` the
/// zone it was scored in; `currentStreak` and `longestStreak` are lengths in days; `warnings`
/// and `errors` count its diagnostics; `error` says why it failed, and `errorCode`, when it could
/// not be read, which read error that was (``BatchFileResult/errorCode``). Figures of a calendar that
/// could not be read are empty (CSV) or `null` (JSON Lines).
///
/// ```swift
/// print(BatchSummaryTable.csvHeader, terminator: "")
/// // id,input,name,unit,zone,sessions,points,daysMet,currentStreak,longestStreak,warnings,errors,error,errorCode
/// ```
public enum BatchSummaryTable {
    /// The columns, in order: a contract.
    public static let columns = [
        "id", "input", "name", "unit", "zone", "sessions", "points", "daysMet", "currentStreak", "longestStreak",
        "warnings", "errors", "error", "errorCode",
    ]

    /// The CSV header line, CRLF-ended (RFC 4180).
    public static var csvHeader: String { columns.joined(separator: ",") + "\r\n" }

    /// One calendar's values, in ``columns``' order: text, a number, or nothing.
    private static func values(_ file: BatchFileResult) -> [Value] {
        let read = file.sessions != nil
        return [
            file.id.map(Value.text) ?? .none, .text(file.input), .text(file.name),
            file.unit.map { .text($0.rawValue) } ?? .none, file.zone.map(Value.text) ?? .none,
            file.sessions.map(Value.number) ?? .none, file.points.map(Value.number) ?? .none,
            file.daysMet.map(Value.number) ?? .none,
            file.currentStreak.map { .number($0.length) } ?? .none, file.longestStreak.map { .number($0.length) } ?? .none,
            read ? .number(file.diagnostics.warnings) : .none, read ? .number(file.diagnostics.errors) : .none,
            file.error.map(Value.text) ?? .none, file.errorCode.map { .text($0.rawValue) } ?? .none,
        ]
    }

    private enum Value {
        case text(String)
        case number(Int)
        case none
    }

    /// One calendar's CSV line, CRLF-ended; text fields neutralised as a CSV report's are
    /// (formulas, quotes, control characters, as ``/StreakExport/CSVReportRenderer`` does).
    public static func csvLine(_ file: BatchFileResult) -> String {
        values(file).map { value in
            switch value {
            case .text(let text): CSVReport.field(text)
            case .number(let number): String(number)
            case .none: ""
            }
        }.joined(separator: ",") + "\r\n"
    }

    /// One calendar's JSON line (keys in ``columns``' order, no spaces), `\n`-ended.
    public static func jsonLine(_ file: BatchFileResult) -> String {
        var json = JSONWriter(layout: .compact)
        json.open("{")
        for (index, (column, value)) in zip(columns, values(file)).enumerated() {
            json.key(column, indent: 2, first: index == 0)
            switch value {
            case .text(let text): json.string(text)
            case .number(let number): json.integer(number)
            case .none: json.null()
            }
        }
        json.close("}", indent: 0, empty: false)
        return json.text + "\n"
    }
}
