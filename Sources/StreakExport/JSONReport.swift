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
    public func render() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
