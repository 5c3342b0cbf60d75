import CalendarLayout
import Foundation
import ICalendar
import StreakExport
import Streaks
import Testing

private let piano = ReportSource(file: "exports/basic.ics", declaredName: "Piano <scales> & \"arpeggios\" | \u{1B}[2J")
private let running = ReportSource(file: "run/Running.ics")
private let problems = (1...8).map { index in
    Diagnostic(index == 8 ? .note : index == 1 ? .error : .warning, .points,
               at: CalendarDiagnostics.SourceLocation(file: "exports/basic.ics", line: index, column: 2), "problem \(index): <b>bold</b> | *x* \u{1B}[31m")
}

@Suite("Every report names its calendars and says what the import said")
struct ReportHeadingTests {
    @Test("Text: the name in the header line, the calendars on a line of their own, control characters escaped")
    func text() {
        let text = TextReport(report: tutorialReport(), sources: [piano, running], diagnostics: problems).render()
        #expect(text.hasPrefix("Streak report: Piano <scales> & \"arpeggios\" | \\u{1B}[2J and Running, 2024-02-20 to 2024-02-29, UTC"))
        #expect(text.contains("\nCalendars: Piano <scales> & \"arpeggios\" | \\u{1B}[2J (exports/basic.ics), Running (run/Running.ics)\n"))
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("\n8 diagnostics (1 error, 6 warnings, 1 note):\n  exports/basic.ics:1:2: error: problem 1"))
        #expect(text.hasSuffix("  and 3 more\n"))
        // One calendar named by its file needs no line of its own; without sources the header is as before.
        let one = TextReport(report: tutorialReport(), sources: [running]).render()
        #expect(one.hasPrefix("Streak report: Running, 2024-02-20 to 2024-02-29, UTC, goal 100 points a day\n\n"))
        #expect(!TextReport(report: tutorialReport()).render().contains("diagnostic"))
    }

    @Test("Markdown: the heading, a Calendars row, and a section with every diagnostic, all escaped")
    func markdown() {
        let markdown = MarkdownReport(report: tutorialReport(), sources: [piano, running], diagnostics: problems).render()
        #expect(markdown.hasPrefix("# Streak report: Piano \\<scales\\> \\& \"arpeggios\" \\| \\u{1B}\\[2J and Running\n"))
        #expect(markdown.contains("| Calendars | Piano \\<scales\\> \\& \"arpeggios\" \\| \\u{1B}\\[2J (exports/basic.ics), Running (run/Running.ics) |"))
        #expect(markdown.contains("\n## Diagnostics\n\n8 diagnostics (1 error, 6 warnings, 1 note).\n\n- exports/basic.ics:1:2: error: problem 1: \\<b\\>bold\\</b\\> \\| \\*x\\* \\u{1B}\\[31m\n"))
        #expect(markdown.components(separatedBy: "\n- exports/basic.ics:").count - 1 == 8)
        #expect(!markdown.contains("\u{1B}"))
    }

    @Test("SVG: the title and heading name the calendars; a count and the first five diagnostics close the picture")
    func svg() throws {
        let svg = SVGReport(report: tutorialReport(), sources: [piano], diagnostics: problems).render()
        #expect(try parsesAsXML(svg))
        #expect(svg.contains("<title id=\"title\">Streak report: Piano &lt;scales&gt; &amp; &quot;arpeggios&quot; | \u{FFFD}[2J, 2024-02-20 to 2024-02-29</title>"))
        #expect(svg.contains(">Calendar: Piano &lt;scales&gt; &amp; &quot;arpeggios&quot; | \u{FFFD}[2J (exports/basic.ics)</text>"))
        #expect(svg.contains(">8 diagnostics (1 error, 6 warnings, 1 note):</text>"))
        #expect(svg.contains(">exports/basic.ics:5:2: warning: problem 5: &lt;b&gt;bold&lt;/b&gt; | *x* \u{FFFD}[31m</text>"))
        #expect(!svg.contains("problem 6"))
        #expect(svg.contains(">and 3 more</text>"))
    }

    @Test("HTML: the title, the heading and the figures name the calendars; the diagnostics are a collapsible list")
    func html() throws {
        let html = HTMLReport(report: tutorialReport(), sessions: tutorialSessions, sources: [piano, running], diagnostics: problems).render()
        #expect(html.contains("<title>Streak report: Piano &lt;scales&gt; &amp; &quot;arpeggios&quot; | \u{FFFD}[2J and Running, 2024-02-20 to 2024-02-29</title>"))
        #expect(html.contains("<h1>Streak report: Piano &lt;scales&gt; &amp; &quot;arpeggios&quot; | \u{FFFD}[2J and Running</h1>"))
        #expect(html.contains("<div><dt>Calendars</dt><dd>Piano &lt;scales&gt;"))
        #expect(html.contains("<details class=\"diagnostics\" id=\"diagnostics\">\n<summary>8 diagnostics (1 error, 6 warnings, 1 note)</summary>\n<ol>"))
        #expect(html.contains("<li class=\"error\"><code>exports/basic.ics:1:2</code> <strong>error</strong>: problem 1: &lt;b&gt;bold&lt;/b&gt; | *x* \u{FFFD}[31m</li>"))
        let list = try #require(html.firstMatch(of: /<details class="diagnostics".*?<\/details>/.dotMatchesNewlines())).output
        #expect(list.components(separatedBy: "<li class=\"").count - 1 == 8)
        #expect(!html.contains("<b>bold"))
        let clean = HTMLReport(report: tutorialReport(), sessions: []).render()
        #expect(!clean.contains("class=\"diagnostics\"") && clean.contains("<h1>Streak report</h1>"))
    }

    @Test("JSON: sources with file and name, in order; none without sources")
    func json() throws {
        let json = JSONReport(report: tutorialReport(), diagnostics: [], sources: [piano, running]).render()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let listed = try #require(object["sources"] as? [[String: String]])
        #expect(listed == [["file": "exports/basic.ics", "name": piano.name], ["file": "run/Running.ics", "name": "Running"]])
        let none = JSONReport(report: tutorialReport(), diagnostics: []).render()
        #expect(none.contains("\"sources\" : [\n\n  ]"))
    }
}

@Suite("streakcal layout --format svg")
struct LayoutSVGTests {
    private func layouts(header: Int = 44, width: Int = 350) -> [MonthLayout] {
        LayoutExport.stacked(
            first: CalendarMonth(year: 2024, month: 2), count: 2, metrics: LayoutMetrics(width: width, headerHeight: header),
            firstWeekday: .monday, rowPolicy: .variable, outOfMonthDays: .shown)
    }

    @Test("Each month: its title and weekday names in the header, at the layout's frames; no legend without a report")
    func plain() throws {
        let svg = LayoutExport(layouts: layouts()).svg()
        #expect(try parsesAsXML(svg))
        #expect(svg.contains(">February 2024</text>") && svg.contains(">March 2024</text>"))
        #expect(svg.components(separatedBy: ">Mo</text>").count - 1 == 2)
        let names = svg.matches(of: /fill="#57606A">(Mo|Tu|We|Th|Fr|Sa|Su)<\/text>/).prefix(7).map { String($0.output.1) }
        #expect(names == ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"])
        #expect(svg.contains("<title>February 2024 to March 2024</title>"))
        let height = layouts().map(\.frame.maxY).max() ?? 0
        #expect(svg.contains("height=\"\(height)\""))
        // Days of neighbouring months: the secondary text colour, at least 4.5:1 on the page.
        #expect(svg.contains("<g id=\"day-2024-01-29\" class=\"outside\"><rect"))
        #expect(ReportPalette.standard.page.secondaryText.contrastRatio(with: .white) >= 4.5)
        let outside = try #require(svg.range(of: "<g id=\"day-2024-01-29\" class=\"outside\">"))
        #expect(svg[outside.upperBound...].prefix(300).contains("fill=\"#57606A\">29</text>"))
    }

    @Test("Coloured by a report: fills, marks in cells of 24 points or more, a legend of what is shown")
    func colored() throws {
        let export = LayoutExport(layouts: layouts(), report: tutorialReport())
        let svg = export.svg()
        #expect(try parsesAsXML(svg))
        #expect(svg.contains("<g id=\"day-2024-02-20\"><title>Tuesday, 20 February 2024: met, 100/100 points</title><rect"))
        #expect(svg.contains("fill=\"#0A5C45\"") && svg.contains("fill=\"#C6E8A8\""))
        #expect(svg.contains(">✓</text>") && svg.contains(">◔</text>"))
        // The legend: what the days show (met, the first partial level, none), below the months.
        #expect(svg.contains(">met</text>") && svg.contains(">partial, under 1/3</text>") && svg.contains(">none</text>"))
        #expect(!svg.contains(">partial, 2/3 or more</text>"))
        let monthsHeight = layouts().map(\.frame.maxY).max() ?? 0
        #expect(!svg.contains("height=\"\(monthsHeight)\""))
        // Small cells: numbers only.
        let small = LayoutExport(layouts: layouts(width: 140), report: tutorialReport()).svg()
        #expect(small.components(separatedBy: ">✓</text>").count - 1 == 1)  // the legend's swatch only
    }

    @Test("Headers too low for both lines keep the title, then nothing")
    func lowHeaders() {
        #expect(LayoutExport(layouts: layouts(header: 20)).svg().contains(">February 2024</text>"))
        #expect(!LayoutExport(layouts: layouts(header: 20)).svg().contains(">Mo</text>"))
        #expect(!LayoutExport(layouts: layouts(header: 8)).svg().contains(">February 2024</text>"))
    }
}
