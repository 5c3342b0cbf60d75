import Foundation
import StreakExport
import Streaks
import Testing

/// The tutorial's report with two habits, as every renderer takes it.
private func content(view: ReportView? = nil) throws -> ReportContent {
    let report = tutorialReport()
    let evens = try Habit(parsing: "Evens=summary:\"Session 0\" or summary:\"Session 2\" or summary:\"Session 4\"")
    let evensReport = StreakReport(sessions: tutorialSessions.filter(evens.filter.matches), goal: report.goal, window: report.from...report.to)
    return ReportContent(
        report: report, habits: [HabitReport(habit: evens, report: evensReport)], unmatchedSessions: 2, sessions: tutorialSessions,
        sources: [ReportSource(file: "tutorial-sample.ics")], today: try! Day(year: 2024, month: 2, day: 29))
}

@Suite("Renderers behind one protocol")
struct ReportRendererTests {
    @Test("Only HTML needs the sessions themselves; SVG and HTML draw every day")
    func needs() {
        let renderers: [any ReportRenderer.Type] = [
            TextReportRenderer.self, JSONReportRenderer.self, CSVReportRenderer.self, MarkdownReportRenderer.self,
            SVGReportRenderer.self, HTMLReportRenderer.self,
        ]
        #expect(renderers.map { $0.needsSessions } == [false, false, false, false, false, true])
        #expect(renderers.map { $0.drawsDays } == [false, false, false, false, true, true])
    }

    @Test("Each renderer gives its report type's document, the habits' sections after the calendar's")
    func sameAsTheReportTypes() throws {
        let content = try content()
        let presentation = ReportPresentation(firstWeekday: .monday)
        let (report, habits) = (content.report, content.habits)
        #expect(JSONReportRenderer(presentation: presentation).render(content) == JSONReport(
            report: report, diagnostics: [], habits: habits, unmatchedSessions: 2, sources: content.sources, today: content.today).render())
        #expect(CSVReportRenderer(presentation: presentation).render(content) == CSVReport(report: report, habits: habits).render())
        #expect(SVGReportRenderer(presentation: presentation).render(content) == SVGReport(
            report: report, firstWeekday: .monday, habits: habits, sources: content.sources, view: .month, today: content.today).render())
        var html = HTMLReport(
            report: report, sessions: tutorialSessions, firstWeekday: .monday, habits: habits, sources: content.sources, view: .month,
            today: content.today)
        html.unmatched = (content.unmatchedSessions, content.unmatchedSummaries)
        #expect(HTMLReportRenderer(presentation: presentation).render(content) == html.render())
        let text = TextReportRenderer(presentation: presentation).render(content)
        let calendar = TextReport(report: report, firstWeekday: .monday, sources: content.sources, view: .month, today: content.today).render()
        #expect(text.hasPrefix(calendar))
        #expect(text.contains("\nHabit: Evens (summary:\"Session 0\" or summary:\"Session 2\" or summary:\"Session 4\")\n"))
        #expect(text.hasSuffix("\nSessions no habit took: 2\n"))
        let markdown = MarkdownReportRenderer(presentation: presentation).render(content)
        #expect(markdown.hasPrefix(MarkdownReport(report: report, firstWeekday: .monday, sources: content.sources).render()))
        #expect(markdown.contains("\n## Habit: Evens\n\nFilter: `summary:\"Session 0\" or summary:\"Session 2\" or summary:\"Session 4\"`\n\n## Streak report\n"))
        #expect(markdown.contains("\n### February 2024\n"))
        #expect(markdown.hasSuffix("\nSessions no habit took: 2.\n"))
    }
}
