import Foundation
@testable import StreakExport
import Streaks
import Testing

/// The HTML score chart cut its last month label ("De", issue 46.9) when a month began near the
/// window's end: over every last day of three years, at a phone's and a page's width, every month
/// label of the score chart lies whole inside the drawing, and no two overlap.
@Suite("The score chart's month labels")
struct ChartLabelTests {
    /// The month labels under the plot: where each starts and ends, and its text.
    static func labels(in elements: [String], baseline: Int) -> [(start: Int, end: Int, text: String)] {
        elements.compactMap { element in
            guard element.hasPrefix("<text x=\""), element.contains(" y=\"\(baseline)\" ") else { return nil }
            let x = Int(element.dropFirst("<text x=\"".count).prefix { $0 != "\"" })!
            let text = String(element.split(separator: ">")[1].prefix { $0 != "<" })
            let width = ProgressCharts.labelWidth(text)
            return element.contains("text-anchor=\"end\"") ? (x - width, x, text) : (x, x + width, text)
        }
    }

    @Test("Every label whole and apart, every last day of 2025-2027, at 340 and 900 points", arguments: [340, 900])
    func labelsFit(width: Int) {
        var labelled = 0
        for last in DateSweepTests.lastDays {
            let report = DateSweepTests.report(to: last, days: 120)
            let charts = ProgressCharts(report: report, width: width, firstWeekday: .monday) { _, _ in "" }
            let (elements, _) = charts.scoreChart(top: 0)
            let labels = Self.labels(in: elements, baseline: 30 + ProgressCharts.plotHeight + 16)
            for label in labels where label.start < 0 || label.end > width {
                Issue.record("\(last): \(label.text) at \(label.start)..<\(label.end) outside 0..<\(width)")
            }
            for (before, after) in zip(labels, labels.dropFirst()) where after.start < before.end {
                Issue.record("\(last): \(before.text) and \(after.text) overlap")
            }
            // A window of 120 days holds four 1sts at least: some are labelled.
            if labels.count >= 2 { labelled += 1 }
        }
        #expect(labelled == DateSweepTests.lastDays.count)
    }

    @Test("A month beginning three days before the window ends is labelled at the right edge")
    func lastMonthAtTheEdge() throws {
        let report = DateSweepTests.report(to: try Day(year: 2024, month: 12, day: 3), days: 338)
        let charts = ProgressCharts(report: report, width: 900, firstWeekday: .monday) { _, _ in "" }
        let labels = Self.labels(in: charts.scoreChart(top: 0).0, baseline: 136)
        #expect(labels.last?.text == "Dec")
        #expect(labels.last?.end == 900)
    }

    @Test("The bar charts' titles name the unit counted: Minutes per week, Sessions per month")
    func barTitlesNameTheUnit() throws {
        var report = DateSweepTests.report(to: try Day(year: 2024, month: 12, day: 3), days: 100)
        for (unit, word) in [(PointsUnit.minutes, "Minutes"), (.sessions, "Sessions"), (.points, "Points")] {
            report.goal.unit = unit
            let charts = ProgressCharts(report: report, width: 900, firstWeekday: .monday) { _, _ in "" }
            #expect(charts.weekBars(top: 0).0.first?.contains(">\(word) per week, against the goal</text>") == true)
            #expect(charts.monthBars(top: 0).0.first?.contains(">\(word) per month, against the goal</text>") == true)
        }
    }
}
