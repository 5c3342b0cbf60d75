import Foundation
public import ICalendar
public import Streaks

/// A streak report as JSON, in the shape `streakcal report --format json` promises.
///
/// The keys `timeZone`, `requiredPoints`, `from`, `to`, `days` (`date`, `points`, `sessions`,
/// `status`), `currentStreak` and `longestStreak` (`length`, `start`, `end`; the days `null` for an
/// empty streak) and `diagnostics` (`severity`, `file`, `line`, `column`, `message`) are a contract;
/// other keys may be added.
///
/// ```swift
/// let json = try JSONReport(report: report, diagnostics: []).render()
/// // {"timeZone": "UTC", "requiredPoints": 100, "from": "2024-02-20", ...}
/// ```
public struct JSONReport: Encodable, Sendable {
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
        let writer = PrettyJSON()
        writer.object(indent: 0) { object in
            object.member("currentStreak") { $0.streak(currentStreak, indent: 2) }
            object.member("dayStart") { $0.string(dayStart) }
            object.member("days") { value in
                value.array(days, indent: 2) { value, day in
                    value.object(indent: 4) { entry in
                        entry.member("date") { $0.string(day.date.description) }
                        entry.member("points") { $0.integer(day.points) }
                        entry.member("sessions") { $0.integer(day.sessions) }
                        entry.member("status") { $0.string(day.status.rawValue) }
                    }
                }
            }
            object.member("diagnostics") { value in
                value.array(diagnostics, indent: 2) { value, diagnostic in
                    value.object(indent: 4) { entry in
                        entry.member("code") { $0.string(diagnostic.code.rawValue) }
                        entry.member("column") { $0.integer(diagnostic.location.column) }
                        entry.member("file") { $0.string(diagnostic.location.file) }
                        entry.member("line") { $0.integer(diagnostic.location.line) }
                        entry.member("message") { $0.string(diagnostic.message) }
                        entry.member("severity") { $0.string(diagnostic.severity.rawValue) }
                        if let sourceLine = diagnostic.sourceLine { entry.member("sourceLine") { $0.string(sourceLine) } }
                    }
                }
            }
            object.member("from") { $0.string(from.description) }
            object.member("longestStreak") { $0.streak(longestStreak, indent: 2) }
            object.member("requiredPoints") { $0.integer(requiredPoints) }
            object.member("timeZone") { $0.string(timeZone) }
            object.member("to") { $0.string(to.description) }
            object.member("totals") { value in
                value.object(indent: 2) { entry in
                    entry.member("daysMet") { $0.integer(totals.daysMet) }
                    entry.member("daysNone") { $0.integer(totals.daysNone) }
                    entry.member("daysPartial") { $0.integer(totals.daysPartial) }
                    entry.member("points") { $0.integer(totals.points) }
                    entry.member("sessions") { $0.integer(totals.sessions) }
                }
            }
        }
        writer.text += "\n"
        return writer.text
    }
}

/// JSON text in `JSONEncoder`'s pretty-printed layout: two-space indents, `"key" : value`, empty
/// arrays and objects as an opening and a closing line with a blank line between.
private final class PrettyJSON {
    var text = ""

    /// The members of one object, written in the order given (the caller sorts the keys).
    struct Members {
        fileprivate let writer: PrettyJSON
        fileprivate let indent: Int
        fileprivate var count = 0

        mutating func member(_ key: String, _ value: (PrettyJSON) -> Void) {
            writer.text += count == 0 ? "\n" : ",\n"
            writer.text += String(repeating: " ", count: indent + 2)
            writer.string(key)
            writer.text += " : "
            value(writer)
            count += 1
        }
    }

    func object(indent: Int, _ body: (inout Members) -> Void) {
        text += "{"
        var members = Members(writer: self, indent: indent)
        body(&members)
        text += members.count == 0 ? "\n\n" : "\n"
        text += String(repeating: " ", count: indent) + "}"
    }

    func array<Element>(_ elements: [Element], indent: Int, _ write: (PrettyJSON, Element) -> Void) {
        text += "["
        let padding = String(repeating: " ", count: indent + 2)
        for (index, element) in elements.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            text += padding
            write(self, element)
        }
        text += elements.isEmpty ? "\n\n" : "\n"
        text += String(repeating: " ", count: indent) + "]"
    }

    func streak(_ streak: Streak, indent: Int) {
        object(indent: indent) { entry in
            entry.member("end") { value in streak.end.map { value.string($0.description) } ?? value.null() }
            entry.member("length") { $0.integer(streak.length) }
            entry.member("start") { value in streak.start.map { value.string($0.description) } ?? value.null() }
        }
    }

    func integer(_ value: Int) {
        text += String(value)
    }

    func null() {
        text += "null"
    }

    /// A string with `JSONEncoder`'s escapes: quote, backslash, `\n` `\r` `\t` `\b` `\f`, other
    /// control characters as `\u00XX`; slashes and everything else as they are.
    func string(_ value: String) {
        text += "\""
        var plainStart = value.utf8.startIndex
        var index = plainStart
        let utf8 = value.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            let escape: String?
            switch byte {
            case 0x22: escape = "\\\""
            case 0x5C: escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escape = nil
            }
            if let escape {
                text += String(Substring(utf8[plainStart..<index]))
                text += escape
                plainStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        text += String(Substring(utf8[plainStart..<utf8.endIndex]))
        text += "\""
    }
}
