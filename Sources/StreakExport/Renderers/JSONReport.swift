import Foundation
public import CalendarDiagnostics
public import Streaks

/// A streak report as JSON, in the shape `streakcal report --format json` promises.
///
/// The keys `generator` (`StreakCal 0.1.0`), `timeZone`, `requiredPoints`, `from`, `to`, `days`
/// (`date`, `points`, `sessions`, `status`), `currentStreak` and `longestStreak` (`length`, `start`,
/// `end`; the days `null` for an empty streak) and `diagnostics` (`severity`, `file`, `line`,
/// `column`, `message`) and `sources` (the calendars: `file` as given, `name` from `X-WR-CALNAME`
/// or the file's name) are a contract; other keys may be added.
///
/// Scored by `StreakRules` other than the simple case, a report adds each day's `required` and
/// `fraction`, `schedule`, `streakUnit`, `bestStreaks`, `score`, `freezesUsed`, `freezesLeft`,
/// `freezesEarned`, more `totals` (`daysRest`, `daysSkipped`, `daysFrozen`, `skipMarkers`) and,
/// under a period goal, `periods`. With named habits, `habits` holds one section per habit (the
/// same keys as the report's, plus `name` and `filter`) and `totals.unmatchedSessions` counts the
/// sessions no habit took.
///
/// ```swift
/// let json = try JSONReport(report: report, diagnostics: []).render()
/// // {"timeZone": "UTC", "requiredPoints": 100, "from": "2024-02-20", ...}
/// ```
public struct JSONReport: Encodable, Sendable {
    /// The maker and its version (`StreakCalVersion.generator`).
    public var generator = StreakCalVersion.generator
    public var timeZone: String
    public var requiredPoints: Int
    public var dayStart: String
    public var from: Day
    public var to: Day
    public var days: [DayTotal]
    public var currentStreak: Streak
    public var longestStreak: Streak
    public var totals: Totals
    public var diagnostics: [Diagnostic]
    /// The report itself, for what only rules add.
    public var report: StreakReport
    /// One section per named habit.
    public var habits: [HabitReport]
    /// Sessions that matched no habit (when habits are named).
    public var unmatchedSessions: Int
    /// The calendars the report is about: `sources`, each `file` and `name`.
    public var sources: [ReportSource]

    /// Whole-window figures.
    public struct Totals: Encodable, Sendable {
        public var points: Int
        public var sessions: Int
        public var daysMet: Int
        public var daysPartial: Int
        public var daysNone: Int
    }

    /// - Parameters:
    ///   - report: The report (of every session, or of those the habits took).
    ///   - diagnostics: What the import said.
    ///   - habits: Each named habit's report.
    ///   - unmatchedSessions: The sessions no habit took.
    ///   - sources: The calendars the report is about.
    public init(
        report: StreakReport, diagnostics: [Diagnostic], habits: [HabitReport] = [], unmatchedSessions: Int = 0,
        sources: [ReportSource] = []
    ) {
        let counts = report.statusCounts
        self.timeZone = report.goal.timeZone.identifier
        self.requiredPoints = report.goal.requiredPoints
        self.dayStart = report.goal.dayStart.description
        self.from = report.from
        self.to = report.to
        self.days = report.days
        self.currentStreak = report.currentStreak
        self.longestStreak = report.longestStreak
        self.totals = Totals(
            points: report.totalPoints, sessions: report.totalSessions,
            daysMet: counts[.met] ?? 0, daysPartial: counts[.partial] ?? 0, daysNone: counts[.none] ?? 0)
        self.diagnostics = diagnostics
        self.report = report
        self.habits = habits
        self.unmatchedSessions = unmatchedSessions
        self.sources = sources
    }

    /// A number as the JSON shows it: rounded to 4 decimals.
    static func rounded(_ value: Double) -> Double {
        (value * 10_000).rounded() / 10_000
    }

    /// A report's members (besides the document's own), in a writer and in an encoder alike.
    private enum Member {
        case streak(Streak)
        case streaks([Streak])
        case integer(Int)
        case number(Double)
        case string(String)
        case days([DayTotal], extended: Bool)
        case periods([PeriodTotal])
        case totals([(key: String, value: Int)])
        case diagnostics([Diagnostic])
        case habits([HabitReport], unmatched: Int)
        case sources([ReportSource])
    }

    /// The members of `report`'s body: what a habit section has too.
    private static func body(of report: StreakReport, extended: Bool, unmatchedSessions: Int?) -> [(String, Member)] {
        let counts = report.statusCounts
        var totals: [(key: String, value: Int)] = [
            ("daysMet", counts[.met] ?? 0), ("daysNone", counts[.none] ?? 0), ("daysPartial", counts[.partial] ?? 0),
            ("points", report.totalPoints), ("sessions", report.totalSessions),
        ]
        var members: [(String, Member)] = [
            ("currentStreak", .streak(report.currentStreak)),
            ("days", .days(report.days, extended: extended)),
            ("longestStreak", .streak(report.longestStreak)),
            ("requiredPoints", .integer(report.goal.requiredPoints)),
        ]
        if extended {
            totals += [
                ("daysFrozen", counts[.frozen] ?? 0), ("daysRest", counts[.rest] ?? 0),
                ("daysSkipped", counts[.skipped] ?? 0), ("skipMarkers", report.skipMarkers),
            ]
            members += [
                ("bestStreaks", .streaks(report.bestStreaks)),
                ("freezesEarned", .integer(report.freezesEarned)),
                ("freezesLeft", .integer(report.freezesLeft)),
                ("freezesUsed", .integer(report.freezesUsed)),
                ("schedule", .string(report.rules.schedule.description)),
                ("score", .number(rounded(report.score))),
                ("streakUnit", .string(report.streakUnit)),
            ]
            if report.rules.periodGoal != nil { members.append(("periods", .periods(report.periods))) }
        }
        if let unmatchedSessions { totals.append(("unmatchedSessions", unmatchedSessions)) }
        members.append(("totals", .totals(totals.sorted { $0.key < $1.key })))
        return members
    }

    /// Whether the JSON shows what rules add: anything but the simple case, or named habits.
    private var isExtended: Bool { !report.rules.isSimple || !habits.isEmpty }

    private var members: [(String, Member)] {
        var members = Self.body(of: report, extended: isExtended, unmatchedSessions: habits.isEmpty ? nil : unmatchedSessions)
        members += [
            ("dayStart", .string(dayStart)),
            ("diagnostics", .diagnostics(diagnostics)),
            ("from", .string(from.description)),
            ("generator", .string(generator)),
            ("sources", .sources(sources)),
            ("timeZone", .string(timeZone)),
            ("to", .string(to.description)),
        ]
        if !habits.isEmpty { members.append(("habits", .habits(habits, unmatched: unmatchedSessions))) }
        return members.sorted { $0.0 < $1.0 }
    }

    /// The JSON text, pretty-printed with keys sorted (the same input gives the same bytes), ending with a newline.
    ///
    /// The text is what `JSONEncoder` gives for this value with `.prettyPrinted`, `.sortedKeys` and
    /// `.withoutEscapingSlashes` (a test holds them equal), written directly: a ten-year report has
    /// thousands of days, and the encoder's generic machinery cost more than the import of a small file.
    public func render() throws -> String {
        var json = PrettyJSON()
        json.bytes.reserveCapacity(1_024 + (days.count * 110) * (1 + habits.count) + diagnostics.count * 300)
        json.open("{")
        Self.write(members, into: &json, indent: 2)
        return json.document()
    }

    private static func write(_ members: [(String, Member)], into json: inout PrettyJSON, indent: Int) {
        for (index, (name, member)) in members.enumerated() {
            json.key(name, indent: indent, first: index == 0)
            write(member, into: &json, indent: indent)
        }
    }

    private static func write(_ member: Member, into json: inout PrettyJSON, indent: Int) {
        switch member {
        case .streak(let streak): json.streak(streak, indent: indent)
        case .streaks(let streaks):
            json.open("[")
            for (index, streak) in streaks.enumerated() {
                json.element(indent: indent + 2, first: index == 0)
                json.streak(streak, indent: indent + 2)
            }
            json.close("]", indent: indent, empty: streaks.isEmpty)
        case .integer(let value): json.integer(value)
        case .number(let value): json.number(value)
        case .string(let value): json.string(value)
        case .totals(let members):
            json.open("{")
            for (index, member) in members.enumerated() {
                json.key(member.key, indent: indent + 2, first: index == 0)
                json.integer(member.value)
            }
            json.close("}", indent: indent, empty: members.isEmpty)
        case .days(let days, let extended): writeArray(days, into: &json, indent: indent) { writeDay($1, extended: extended, into: &$0, indent: $2) }
        case .periods(let periods): writeArray(periods, into: &json, indent: indent, writePeriod)
        case .diagnostics(let diagnostics): writeArray(diagnostics, into: &json, indent: indent, writeDiagnostic)
        case .sources(let sources):
            writeArray(sources, into: &json, indent: indent) { json, source, inner in
                json.key("file", indent: inner, first: true)
                json.string(source.file)
                json.key("name", indent: inner)
                json.string(source.name)
            }
        case .habits(let habits, _):
            writeArray(habits, into: &json, indent: indent) { json, habit, inner in write(habitMembers(habit), into: &json, indent: inner) }
        }
    }

    /// An array of objects, one per element, each written by `members` at the members' indent.
    private static func writeArray<Element>(
        _ elements: [Element], into json: inout PrettyJSON, indent: Int,
        _ members: (inout PrettyJSON, Element, Int) -> Void
    ) {
        json.open("[")
        for (index, element) in elements.enumerated() {
            json.element(indent: indent + 2, first: index == 0)
            json.open("{")
            members(&json, element, indent + 4)
            json.close("}", indent: indent + 2, empty: false)
        }
        json.close("]", indent: indent, empty: elements.isEmpty)
    }

    private static func writeDay(_ day: DayTotal, extended: Bool, into json: inout PrettyJSON, indent inner: Int) {
        json.key("date", indent: inner, first: true)
        json.date(day.date)
        if extended {
            json.key("fraction", indent: inner)
            json.optional(day.fraction) { $0.number(rounded($1)) }
        }
        json.key("points", indent: inner)
        json.integer(day.points)
        if extended {
            json.key("required", indent: inner)
            json.integer(day.required)
        }
        json.key("sessions", indent: inner)
        json.integer(day.sessions)
        json.key("status", indent: inner)
        json.string(day.status.rawValue)
    }

    private static func writePeriod(_ json: inout PrettyJSON, _ period: PeriodTotal, _ inner: Int) {
        json.key("end", indent: inner, first: true)
        json.date(period.days.upperBound)
        json.key("fraction", indent: inner)
        json.number(rounded(period.fraction))
        json.key("metDays", indent: inner)
        json.integer(period.metDays)
        json.key("points", indent: inner)
        json.integer(period.points)
        json.key("start", indent: inner)
        json.date(period.days.lowerBound)
        json.key("status", indent: inner)
        json.string(period.status.rawValue)
        json.key("target", indent: inner)
        switch period.target {
        case .points(let points): json.integerObject([("points", points)], indent: inner)
        case .metDays(let days): json.integerObject([("days", days)], indent: inner)
        }
    }

    private static func writeDiagnostic(_ json: inout PrettyJSON, _ diagnostic: Diagnostic, _ inner: Int) {
        json.key("code", indent: inner, first: true)
        json.string(diagnostic.code.rawValue)
        json.key("column", indent: inner)
        json.integer(diagnostic.location.column)
        json.key("file", indent: inner)
        json.string(diagnostic.location.file)
        json.key("line", indent: inner)
        json.integer(diagnostic.location.line)
        json.key("message", indent: inner)
        json.string(diagnostic.message)
        json.key("severity", indent: inner)
        json.string(diagnostic.severity.rawValue)
        if let sourceLine = diagnostic.sourceLine {
            json.key("sourceLine", indent: inner)
            json.string(sourceLine)
        }
    }

    private static func habitMembers(_ habit: HabitReport) -> [(String, Member)] {
        (body(of: habit.report, extended: true, unmatchedSessions: nil)
            + [("filter", .string(habit.habit.filter.description)), ("name", .string(habit.habit.name))])
            .sorted { $0.0 < $1.0 }
    }

    // MARK: Encodable, for the test that holds `render()` to `JSONEncoder`.

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct Encoded: Encodable {
        let members: [(String, Member)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (name, member) in members {
                let key = Key(name)
                switch member {
                case .streak(let streak): try container.encode(streak, forKey: key)
                case .streaks(let streaks): try container.encode(streaks, forKey: key)
                case .integer(let value): try container.encode(value, forKey: key)
                case .number(let value): try container.encode(value, forKey: key)
                case .string(let value): try container.encode(value, forKey: key)
                case .totals(let members):
                    try container.encode(Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) }), forKey: key)
                case .days(let days, let extended):
                    try container.encode(days.map { EncodedDay(day: $0, extended: extended) }, forKey: key)
                case .periods(let periods): try container.encode(periods.map(EncodedPeriod.init), forKey: key)
                case .diagnostics(let diagnostics): try container.encode(diagnostics, forKey: key)
                case .habits(let habits, _):
                    try container.encode(habits.map { Encoded(members: JSONReport.habitMembers($0)) }, forKey: key)
                case .sources(let sources): try container.encode(sources, forKey: key)
                }
            }
        }
    }

    private struct EncodedDay: Encodable {
        let day: DayTotal
        let extended: Bool

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(day.date, forKey: Key("date"))
            try container.encode(day.points, forKey: Key("points"))
            try container.encode(day.sessions, forKey: Key("sessions"))
            try container.encode(day.status, forKey: Key("status"))
            if extended {
                try container.encode(day.fraction.map(JSONReport.rounded), forKey: Key("fraction"))
                try container.encode(day.required, forKey: Key("required"))
            }
        }
    }

    private struct EncodedPeriod: Encodable {
        let period: PeriodTotal

        init(_ period: PeriodTotal) {
            self.period = period
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(period.days.upperBound, forKey: Key("end"))
            try container.encode(JSONReport.rounded(period.fraction), forKey: Key("fraction"))
            try container.encode(period.metDays, forKey: Key("metDays"))
            try container.encode(period.points, forKey: Key("points"))
            try container.encode(period.days.lowerBound, forKey: Key("start"))
            try container.encode(period.status, forKey: Key("status"))
            switch period.target {
            case .points(let points): try container.encode(["points": points], forKey: Key("target"))
            case .metDays(let days): try container.encode(["days": days], forKey: Key("target"))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try Encoded(members: members).encode(to: encoder)
    }
}

/// JSON text in `JSONEncoder`'s pretty-printed layout, as bytes: two-space indents,
/// `"key" : value`, empty arrays and objects as an opening and a closing line with a blank line
/// between. The caller writes keys in sorted order.
package struct PrettyJSON {
    package var bytes: [UInt8] = []

    package init() {}

    package mutating func open(_ bracket: StaticString) {
        bytes.append(bracket.utf8Start.pointee)
    }

    /// The end of an object or array whose members started at `indent + 2`.
    package mutating func close(_ bracket: StaticString, indent: Int, empty: Bool) {
        bytes.append(0x0A)
        if empty { bytes.append(0x0A) }
        spaces(indent)
        bytes.append(bracket.utf8Start.pointee)
    }

    /// A member's key, on its own line after a comma unless it is the first.
    package mutating func key(_ name: String, indent: Int, first: Bool = false) {
        element(indent: indent, first: first)
        string(name)
        bytes.append(contentsOf: [0x20, 0x3A, 0x20])
    }

    /// A member's key, on its own line after a comma unless it is the first.
    package mutating func key(_ name: StaticString, indent: Int, first: Bool = false) {
        element(indent: indent, first: first)
        bytes.append(0x22)
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(0x22)  // `" : `
        bytes.append(0x20)
        bytes.append(0x3A)
        bytes.append(0x20)
    }

    /// The start of an array element or member line.
    package mutating func element(indent: Int, first: Bool) {
        if !first { bytes.append(0x2C) }
        bytes.append(0x0A)
        spaces(indent)
    }

    private mutating func spaces(_ count: Int) {
        for _ in 0..<count { bytes.append(0x20) }
    }

    package mutating func streak(_ streak: Streak, indent: Int) {
        open("{")
        key("end", indent: indent + 2, first: true)
        optional(streak.end) { $0.string($1.description) }
        key("length", indent: indent + 2)
        integer(streak.length)
        key("start", indent: indent + 2)
        optional(streak.start) { $0.string($1.description) }
        close("}", indent: indent, empty: false)
    }

    /// `write` for a value, or `null`.
    package mutating func optional<Value>(_ value: Value?, _ write: (inout PrettyJSON, Value) -> Void) {
        if let value { write(&self, value) } else { null() }
    }

    /// The text of a document whose outermost object is still open: closed, with a final newline.
    package mutating func document() -> String {
        String(decoding: documentBytes(), as: UTF8.self)
    }

    /// `document()` as UTF-8 bytes, for a file: no `String` made (and its bytes checked) on the way.
    package mutating func documentBytes() -> [UInt8] {
        close("}", indent: 0, empty: false)
        bytes.append(0x0A)
        return bytes
    }

    /// An object of integer members (keys in sorted order), its members at `indent + 2`.
    package mutating func integerObject(_ members: [(key: StaticString, value: Int)], indent: Int) {
        open("{")
        for (index, member) in members.enumerated() {
            key(member.key, indent: indent + 2, first: index == 0)
            integer(member.value)
        }
        close("}", indent: indent, empty: members.isEmpty)
    }

    package mutating func integer(_ value: Int) {
        guard value >= 0 else {
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        digits(value, width: 1)
    }

    /// A day as `Day.description` writes it (`2025-03-01`), without making the string for the
    /// common four-digit year.
    package mutating func date(_ day: Day) {
        let (year, month, dayOfMonth) = day.components
        guard (0...9999).contains(year) else { return string(day.description) }
        bytes.append(0x22)
        digits(year, width: 4)
        bytes.append(0x2D)
        digits(month, width: 2)
        bytes.append(0x2D)
        digits(dayOfMonth, width: 2)
        bytes.append(0x22)
    }

    /// A non-negative number in decimal, padded with zeros to `width` digits.
    private mutating func digits(_ value: Int, width: Int) {
        var divisor = 1
        var count = 1
        while value / divisor >= 10 {
            divisor *= 10
            count += 1
        }
        for _ in count..<max(count, width) { bytes.append(0x30) }
        var rest = value
        while divisor > 0 {
            bytes.append(0x30 + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// A number as `JSONEncoder` writes a `Double`: its shortest round-trip text, without `.0`.
    package mutating func number(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func null() {
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    /// A string with `JSONEncoder`'s escapes (`appendJSONString`).
    package mutating func string(_ value: String) {
        bytes.appendJSONString(value)
    }
}

extension [UInt8] {
    /// Appends `value` as a JSON string with `JSONEncoder`'s escapes: quote, backslash, `\n` `\r`
    /// `\t` `\b` `\f`, other control characters as `\u00XX`; slashes and everything else as they
    /// are. Runs of bytes that need no escape are copied whole (a report embedded in a JSON Lines
    /// record has thousands of quotes and line breaks), and nothing is allocated per escape.
    package mutating func appendJSONString(_ value: String) {
        append(0x22)
        var value = value
        value.withUTF8 { utf8 in
            reserveCapacity(count + utf8.count + 1)
            var run = 0  // the first byte not copied yet
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                run = index + 1
                append(0x5C)
                switch byte {
                case 0x22, 0x5C: append(byte)
                case 0x0A: append(0x6E)  // n
                case 0x0D: append(0x72)  // r
                case 0x09: append(0x74)  // t
                case 0x08: append(0x62)  // b
                case 0x0C: append(0x66)  // f
                default:
                    append(0x75)  // u00XX
                    append(0x30)
                    append(0x30)
                    append(jsonHexDigits[Int(byte >> 4)])
                    append(jsonHexDigits[Int(byte & 0x0F)])
                }
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        append(0x22)
    }
}

private let jsonHexDigits: [UInt8] = Array("0123456789abcdef".utf8)

/// The JSON format: ``JSONReport``, with a section per habit.
public struct JSONReportRenderer: ReportRenderer {
    public static let needsSessions = false
    public static let drawsDays = false
    public var presentation: ReportPresentation

    public init(presentation: ReportPresentation = ReportPresentation()) {
        self.presentation = presentation
    }

    public func render(_ content: ReportContent) throws -> String {
        try JSONReport(
            report: content.report, diagnostics: content.diagnostics, habits: content.habits,
            unmatchedSessions: content.unmatchedSessions, sources: content.sources).render()
    }
}
