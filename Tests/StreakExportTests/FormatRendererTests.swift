import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SnapshotSupport
import StreakExport
import Streaks
import Testing

/// A custom rule whose label and mark need escaping in every format.
private let trickyRules = DayPresentationRules.standard.prepending(
    when: .dates(try! Day(year: 2024, month: 2, day: 21)...Day(year: 2024, month: 2, day: 21)),
    show: DayPresentation(fill: RGBColor(red: 0x0A, green: 0x5C, blue: 0xA8), mark: "<", label: "a|b <i>&\"q\"'s *x*"))

/// Sessions whose summaries hold markup.
private let trickySessions = tutorialSessions + [
    Session(id: "x<1>", start: .floating(LocalDateTime(year: 2024, month: 2, day: 21, hour: 7)!),
            end: .floating(LocalDateTime(year: 2024, month: 2, day: 21, hour: 8)!), points: 0,
            summary: "<script>alert(\"x\")</script> & 'q'"),
    Session(id: "<id-only>", start: .floating(LocalDateTime(year: 2024, month: 2, day: 21, hour: 9)!),
            end: .floating(LocalDateTime(year: 2024, month: 2, day: 21, hour: 10)!), points: 0),
]

@Suite("CSV report")
struct CSVReportTests {
    @Test("One row per day after the header, CRLF line ends (snapshot)")
    func tutorial() throws {
        let csv = CSVReport(report: tutorialReport()).render()
        try assertSnapshot(csv, named: "tutorial.csv")
        let lines = csv.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines.count == 12 && lines.last == "")
        #expect(lines.first == "date,points,sessions,status")
        #expect(lines[1] == "2024-02-20,100,1,met")
        #expect(lines[6] == "2024-02-25,100,2,met")
        #expect(!csv.replacing("\r\n", with: "").contains("\n"))
    }

    @Test("LF line ends on request")
    func lf() {
        let csv = CSVReport(report: tutorialReport(), lineEnding: .lf).render()
        #expect(!csv.contains("\r"))
        #expect(csv == CSVReport(report: tutorialReport()).render().replacing("\r\n", with: "\n"))
    }

    @Test("RFC 4180 quoting", arguments: [
        ("plain", "plain"), ("", ""), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""), ("cr\r", "\"cr\r\""), ("crlf\r\n", "\"crlf\r\n\""), ("ünïcödé ✓", "ünïcödé ✓"),
    ])
    func quoting(value: String, expected: String) {
        #expect(CSVReport.field(value) == expected)
    }

    @Test("A field a spreadsheet reads as a formula gets a quote mark in front", arguments: [
        ("=1+1", "'=1+1"), ("+cmd", "'+cmd"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
        ("\rx", "\"'\rx\""), ("=A1,B1", "\"'=A1,B1\""), ("=\"x\"", "\"'=\"\"x\"\"\""), ("a=1", "a=1"), (" =1", " =1"),
        ("\u{1B}=1", "\\u{1B}=1"),
    ])
    func formulas(value: String, expected: String) {
        #expect(CSVReport.field(value) == expected)
    }

    @Test("A habit's name is neutralised in the habit column; every other field stays as it was")
    func habitColumn() throws {
        let report = tutorialReport()
        let habit = HabitReport(habit: Habit(name: "=cmd", filter: .all), report: report)
        let lines = CSVReport(report: report, habits: [habit]).render().split(separator: "\r\n").map(String.init)
        #expect(lines[0] == "date,points,sessions,status,required,fraction,habit")
        #expect(lines[1] == "2024-02-20,100,1,met,100,1.0,")
        #expect(lines[11] == "2024-02-20,100,1,met,100,1.0,'=cmd")
    }
}

@Suite("Markdown report")
struct MarkdownReportTests {
    @Test("Summary table and a Sunday-first month grid with marks (snapshot)")
    func tutorial() throws {
        let markdown = MarkdownReport(report: tutorialReport()).render()
        try assertSnapshot(markdown, named: "tutorial.md")
        #expect(markdown.contains("| 18 | 19 | 20 ✓ | 21 · | 22 · | 23 · | 24 ◔ |"))
        #expect(markdown.hasPrefix("# Streak report\n"))
        #expect(markdown.contains("Marks: ✓ met; ◔ partial, under 1/3; ◑ partial, 1/3 to 2/3; ◕ partial, 2/3 or more; · none."))
        #expect(!markdown.contains("## Diagnostics"))
        #expect(markdown.contains("| Longest streak | 2 days (2024-02-25 to 2024-02-26) |"))
    }

    @Test("Monday first, two months (snapshot)")
    func mondayFirst() throws {
        let markdown = MarkdownReport(report: tutorialReport(to: try! Day(year: 2024, month: 3, day: 3)), firstWeekday: .monday).render()
        try assertSnapshot(markdown, named: "tutorial-monday.md")
        #expect(markdown.contains("| Mo | Tu | We | Th | Fr | Sa | Su |"))
        #expect(markdown.contains("|  |  |  | 1 | 2 | 3 | 4 |"))
        #expect(markdown.contains("## March 2024"))
        #expect(markdown.contains("|  |  |  |  | 1 · | 2 · | 3 · |"))
    }

    @Test("Every table row has 7 cells; labels and marks are escaped")
    func escaping() {
        let markdown = MarkdownReport(report: tutorialReport(), rules: trickyRules).render()
        #expect(markdown.contains("| 21 \\< |"))
        #expect(markdown.contains("\\< a\\|b \\<i\\>\\&\"q\"'s \\*x\\*"))
        let gridRows = markdown.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Figure") && $0.split(separator: "|").count != 2 }
        for row in gridRows where !row.contains("Window") {
            let unescapedBars = row.replacing("\\|", with: "").filter { $0 == "|" }.count
            #expect(unescapedBars == 8 || unescapedBars == 3, "\(row)")
        }
    }

    @Test("Markdown escaping", arguments: [("plain text", "plain text"), ("a|b", "a\\|b"), ("*_`[]<>~&\\", "\\*\\_\\`\\[\\]\\<\\>\\~\\&\\\\"), ("two\nlines", "two lines")])
    func escape(text: String, expected: String) {
        #expect(MarkdownReport.escape(text) == expected)
    }
}

@Suite("SVG report")
struct SVGReportTests {
    @Test("Standalone SVG with legend, figures and coloured cells (snapshot)")
    func tutorial() throws {
        let svg = SVGReport(report: tutorialReport()).render()
        try assertSnapshot(svg, named: "tutorial.svg")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"578\" height=\"532\" viewBox=\"0 0 578 532\""))
        #expect(svg.contains("Longest streak: 2 days (2024-02-25 to 2024-02-26)"))
        #expect(try fill(ofDay: "2024-02-20", in: svg) == "#0A5C45")
        #expect(try fill(ofDay: "2024-02-24", in: svg) == "#C6E8A8")
        #expect(try fill(ofDay: "2024-02-21", in: svg) == "#EBEDF0")
        let tutorial = SVGReport(report: tutorialReport(), rules: .tutorial).render()
        #expect(try fill(ofDay: "2024-02-20", in: tutorial) == "#1E8336")
        #expect(try fill(ofDay: "2024-02-24", in: tutorial) == "#D70015")
        #expect(try fill(ofDay: "2024-02-21", in: tutorial) == "#6C6C70")
        #expect(!svg.contains("id=\"day-2024-02-19\""))
        #expect(try parsesAsXML(svg))
    }

    @Test("Two months side by side, Monday first (snapshot)")
    func twoMonths() throws {
        let svg = SVGReport(report: tutorialReport(to: try! Day(year: 2024, month: 3, day: 3)), firstWeekday: .monday).render()
        try assertSnapshot(svg, named: "tutorial-monday.svg")
        #expect(svg.contains("id=\"month-2024-03\""))
        #expect(svg.contains("id=\"day-2024-03-03\""))
        #expect(try parsesAsXML(svg))
    }

    @Test("Cell frames come from the month layout: square 40-pixel cells on a 44-pixel pitch")
    func geometry() throws {
        let svg = SVGReport(report: tutorialReport()).render()
        // 2024-02-20 is a Tuesday in the fourth row (Sunday first); 2024-02-21 is next to it.
        #expect(svg.contains("<g id=\"day-2024-02-20\" class=\"day met\">"))
        let tuesday = try rect(ofDay: "2024-02-20", in: svg)
        let wednesday = try rect(ofDay: "2024-02-21", in: svg)
        let sunday = try rect(ofDay: "2024-02-25", in: svg)
        #expect(tuesday.width == 40 && tuesday.height == 40)
        #expect(wednesday.x - tuesday.x == 44 && wednesday.y == tuesday.y)
        #expect(sunday.y - tuesday.y == 44 && tuesday.x - sunday.x == 88)
    }

    @Test("Labels, marks and titles are XML-escaped")
    func escaping() throws {
        let svg = SVGReport(report: tutorialReport(), rules: trickyRules).render()
        #expect(svg.contains("a|b &lt;i&gt;&amp;&quot;q&quot;&#39;s *x*"))
        #expect(!svg.contains("<i>"))
        #expect(try parsesAsXML(svg))
    }
}

@Suite("HTML report")
struct HTMLReportTests {
    @Test("One self-contained page: figures, legend, month grid, session cards (snapshot)")
    func tutorial() throws {
        let html = HTMLReport(report: tutorialReport(), sessions: tutorialSessions).render()
        try assertSnapshot(html, named: "tutorial.html")
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        for external in ["<script", "<link", "src=", "url(", "@import", "http://", "https://"] {
            #expect(!html.contains(external), "no external assets or scripts: \(external)")
        }
        #expect(html.contains("<td id=\"d-2024-02-20\" class=\"p0\""))
        #expect(html.contains(".p0 { background: #0A5C45; color: #FFFFFF; box-shadow: none; }"))
        #expect(html.contains("<td id=\"d-2024-02-24\" class=\"p1\""))
        #expect(html.contains(".p1 { background: #C6E8A8; color: #1D1D1F; box-shadow: inset 0 0 0 1px #D0D7DE; }"))
        #expect(html.contains("<td id=\"d-2024-02-21\" class=\"p4\""))
        #expect(html.contains(".p4 { background: #EBEDF0; color: #1D1D1F; box-shadow: inset 0 0 0 1px #D0D7DE; }"))
        // Dark mode: the same classes, the palette's dark fills, undoing light borders.
        #expect(html.contains("@media (prefers-color-scheme: dark) {\n  .p0 { background: #8FE3B5; color: #1D1D1F; box-shadow: none; }\n  .p1 { background: #1F4A3A; color: #E6EDF3; box-shadow: none; }"))
        #expect(html.contains("<meta name=\"color-scheme\" content=\"light dark\">"))
    }

    @Test("Status as text, not colour alone: a mark and a label for screen readers in every cell of the window")
    func accessibility() {
        let html = HTMLReport(report: tutorialReport(), sessions: tutorialSessions).render()
        #expect(html.contains("<caption>February 2024</caption>"))
        #expect(html.contains("<th scope=\"col\" abbr=\"Sunday\">Su</th>"))
        #expect(html.contains("<a class=\"day\" href=\"#s-2024-02-20\"><span class=\"n\">20</span><span class=\"m\" aria-hidden=\"true\">✓</span><span class=\"sr\">: met, 100 of 100 points, 1 session</span></a>"))
        #expect(html.contains("<span class=\"day\"><span class=\"n\">21</span><span class=\"m\" aria-hidden=\"true\">·</span><span class=\"sr\">: none, 0 of 100 points, 0 sessions</span></span>"))
        let cells = html.components(separatedBy: "<td id=\"d-").count - 1
        let labels = html.components(separatedBy: "<span class=\"sr\">").count - 1
        #expect(cells == 29 && labels == 10)
        #expect(html.contains("<td id=\"d-2024-02-19\" class=\"p5\"><span class=\"day\"><span class=\"n\">19</span>"))
    }

    @Test("Session cards: each day's sessions in start order, with points and local times")
    func cards() throws {
        let html = HTMLReport(report: tutorialReport(), sessions: tutorialSessions).render()
        let day = try #require(html.range(of: "<section class=\"cards-day\" id=\"s-2024-02-25\""))
        let early = try #require(html.range(of: "20 points</p><p class=\"pill\">03:12–04:12</p><p class=\"title\">Session 3</p>"))
        let later = try #require(html.range(of: "80 points</p><p class=\"pill\">06:30–07:30</p><p class=\"title\">Session 2</p>"))
        #expect(day.lowerBound < early.lowerBound && early.lowerBound < later.lowerBound)
        #expect(html.components(separatedBy: "<section class=\"cards-day\"").count - 1 == 4)
        let empty = HTMLReport(report: tutorialReport(), sessions: []).render()
        #expect(empty.contains("<p>No sessions from 2024-02-20 to 2024-02-29.</p>"))
        #expect(!empty.contains("href=\"#s-"))
    }

    @Test("Summaries, ids, labels and marks are HTML-escaped")
    func escaping() {
        let html = HTMLReport(report: tutorialReport(), sessions: trickySessions, rules: trickyRules).render()
        #expect(html.contains("<p class=\"title\">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</p>"))
        #expect(html.contains("<p class=\"title\">&lt;id-only&gt;</p>"))
        #expect(html.contains("aria-hidden=\"true\">&lt;</span>a|b &lt;i&gt;&amp;&quot;q&quot;&#39;s *x*</li>"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<i>"))
        #expect(!html.contains("<id-only>"))
    }

    @Test("The first weekday is honoured")
    func firstWeekday() {
        let html = HTMLReport(report: tutorialReport(), sessions: [], firstWeekday: .monday).render()
        #expect(html.contains("<thead><tr>\n<th scope=\"col\" abbr=\"Monday\">Mo</th>"))
        #expect(html.contains("<tr><td></td><td></td><td></td><td id=\"d-2024-02-01\" class=\"p5\"><span class=\"day\"><span class=\"n\">1</span>"))
    }
}

/// The `fill` of the rect in the group `day-<date>`.
func fill(ofDay date: String, in svg: String) throws -> String {
    let group = try #require(svg.range(of: "<g id=\"day-\(date)\""))
    let rest = svg[group.upperBound...]
    let fill = try #require(rest.range(of: "fill=\""))
    return String(rest[fill.upperBound...].prefix(7))
}

/// The x, y, width and height of the rect in the group `day-<date>`.
func rect(ofDay date: String, in svg: String) throws -> (x: Int, y: Int, width: Int, height: Int) {
    let group = try #require(svg.range(of: "<g id=\"day-\(date)\""))
    let rest = svg[group.upperBound...]
    let start = try #require(rest.range(of: "<rect "))
    let element = rest[start.upperBound...].prefix { $0 != ">" }
    func value(_ name: String) throws -> Int {
        let range = try #require(element.range(of: " \(name)=\"") ?? (element.hasPrefix("\(name)=\"") ? element.range(of: "\(name)=\"") : nil))
        return try #require(Int(element[range.upperBound...].prefix { $0 != "\"" }))
    }
    return (try value("x"), try value("y"), try value("width"), try value("height"))
}

/// Whether `text` is well-formed XML.
func parsesAsXML(_ text: String) throws -> Bool {
    let parser = XMLParser(data: Data(text.utf8))
    let ok = parser.parse()
    if !ok { Issue.record("XML error: \(String(describing: parser.parserError))") }
    return ok
}
