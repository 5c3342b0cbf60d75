import Foundation
public import ICalendar
public import Streaks

/// A streak report as JSON, in the shape `streakcal report --format json` promises.
///
/// The keys `generator` (`StreakCal 0.1.0`), `timeZone`, `requiredPoints`, `from`, `to`, `days`
/// (`date`, `points`, `sessions`, `status`), `currentStreak` and `longestStreak` (`length`, `start`,
/// `end`; the days `null` for an empty streak) and `diagnostics` (`severity`, `file`, `line`,
/// `column`, `message`) are a contract; other keys may be added.
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

    /// Whole-window figures.
    public struct Totals: Encodable, Sendable {
        public var points: Int
        public var sessions: Int
        public var daysMet: Int
        public var daysPartial: Int
        public var daysNone: Int
    }

    public init(report: StreakReport, diagnostics: [Diagnostic]) {
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
    }

    /// The JSON text, pretty-printed with keys sorted (the same input gives the same bytes), ending with a newline.
    ///
    /// The text is what `JSONEncoder` gives for this value with `.prettyPrinted`, `.sortedKeys` and
    /// `.withoutEscapingSlashes` (a test holds them equal), written directly: a ten-year report has
    /// thousands of days, and the encoder's generic machinery cost more than the import of a small file.
    public func render() throws -> String {
        var json = PrettyJSON()
        json.bytes.reserveCapacity(1_024 + days.count * 110 + diagnostics.count * 300)
        json.open("{")
        json.key("currentStreak", indent: 2, first: true)
        json.streak(currentStreak, indent: 2)
        json.key("dayStart", indent: 2)
        json.string(dayStart)
        json.key("days", indent: 2)
        json.open("[")
        for (index, day) in days.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.open("{")
            json.key("date", indent: 6, first: true)
            json.date(day.date)
            json.key("points", indent: 6)
            json.integer(day.points)
            json.key("sessions", indent: 6)
            json.integer(day.sessions)
            json.key("status", indent: 6)
            json.string(day.status.rawValue)
            json.close("}", indent: 4, empty: false)
        }
        json.close("]", indent: 2, empty: days.isEmpty)
        json.key("diagnostics", indent: 2)
        json.open("[")
        for (index, diagnostic) in diagnostics.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.open("{")
            json.key("code", indent: 6, first: true)
            json.string(diagnostic.code.rawValue)
            json.key("column", indent: 6)
            json.integer(diagnostic.location.column)
            json.key("file", indent: 6)
            json.string(diagnostic.location.file)
            json.key("line", indent: 6)
            json.integer(diagnostic.location.line)
            json.key("message", indent: 6)
            json.string(diagnostic.message)
            json.key("severity", indent: 6)
            json.string(diagnostic.severity.rawValue)
            if let sourceLine = diagnostic.sourceLine {
                json.key("sourceLine", indent: 6)
                json.string(sourceLine)
            }
            json.close("}", indent: 4, empty: false)
        }
        json.close("]", indent: 2, empty: diagnostics.isEmpty)
        json.key("from", indent: 2)
        json.string(from.description)
        json.key("generator", indent: 2)
        json.string(generator)
        json.key("longestStreak", indent: 2)
        json.streak(longestStreak, indent: 2)
        json.key("requiredPoints", indent: 2)
        json.integer(requiredPoints)
        json.key("timeZone", indent: 2)
        json.string(timeZone)
        json.key("to", indent: 2)
        json.string(to.description)
        json.key("totals", indent: 2)
        json.integerObject([
            ("daysMet", totals.daysMet), ("daysNone", totals.daysNone), ("daysPartial", totals.daysPartial),
            ("points", totals.points), ("sessions", totals.sessions),
        ], indent: 2)
        return json.document()
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
        close("}", indent: 0, empty: false)
        bytes.append(0x0A)
        return String(decoding: bytes, as: UTF8.self)
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

    /// A string with `JSONEncoder`'s escapes: quote, backslash, `\n` `\r` `\t` `\b` `\f`, other
    /// control characters as `\u00XX`; slashes and everything else as they are.
    package mutating func string(_ value: String) {
        bytes.append(0x22)
        for byte in value.utf8 {
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
            case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }
}
