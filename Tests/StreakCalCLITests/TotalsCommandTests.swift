import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `streakcal totals` (issue 47): where the time went, in every format, with group names that are
/// user text.
@Suite("streakcal totals")
struct TotalsCommandTests {
    /// Categories and summaries a spreadsheet, a page or a terminal must not obey.
    static let hostile = """
        BEGIN:VCALENDAR
        X-WR-CALNAME:Log
        BEGIN:VEVENT
        UID:1
        DTSTART:20240101T090000Z
        DTEND:20240101T103000Z
        SUMMARY:=HYPERLINK("http://x")
        CATEGORIES:<script>alert(1)</script>,Work
        END:VEVENT
        BEGIN:VEVENT
        UID:2
        DTSTART:20240102T233000Z
        DTEND:20240103T013000Z
        SUMMARY:Bell\u{07}\u{1B}[31mred
        CATEGORIES:\(String(repeating: "Very long category name ", count: 8))
        END:VEVENT
        BEGIN:VEVENT
        UID:3
        DTSTART;VALUE=DATE:20240105
        SUMMARY:Vacation
        END:VEVENT
        END:VCALENDAR
        """

    static let window = ["--tz", "UTC", "--from", "2024-01-01", "--to", "2024-01-31"]

    @Test("CSV: exactly period,group,sessions,minutes,points,metDays,days; formulas neutralised; minutes split at midnight")
    func csv() throws {
        let run = try streakcal(["totals", "-", "--by", "summary", "--per", "day", "--format", "csv"] + Self.window, input: Self.hostile)
        #expect(run.status == 0, "\(run.standardError)")
        // CRLF, as RFC 4180 says ("\r\n" is one Character).
        let lines = run.standardOutput.split(separator: "\r\n").map(String.init)
        #expect(lines.first == "period,group,sessions,minutes,points,metDays,days")
        #expect(lines.contains("2024-01-01,\"'=HYPERLINK(\"\"http://x\"\")\",1,90,90,,"))
        #expect(lines.contains { $0.hasPrefix("2024-01-02,") && $0.hasSuffix(",1,30,120,,") })
        #expect(lines.contains { $0.hasPrefix("2024-01-03,") && $0.hasSuffix(",0,90,0,,") })
        #expect(lines.contains("2024-01-05,Vacation,1,0,0,,"))
        #expect(!run.standardOutput.contains("\u{1B}"))
    }

    @Test("JSON: rows, each group's totals and average over every period of the window, every session once")
    func json() throws {
        let run = try streakcal(["totals", "-", "--per", "week", "--format", "json"] + Self.window, input: Self.hostile)
        #expect(run.status == 0, "\(run.standardError)")
        let document = try jsonObject(run.standardOutput)
        #expect(document["grouping"] as? String == "category" && document["period"] as? String == "week")
        let periods = try #require(document["periods"] as? [String])
        #expect(periods == ["2024-01-01", "2024-01-08", "2024-01-15", "2024-01-22", "2024-01-29"])
        let groups = try #require(document["groups"] as? [[String: Any]])
        let work = try #require(groups.first { $0["group"] as? String == "Work" })
        #expect(work["minutes"] as? Int == 90 && work["sessions"] as? Int == 1)
        #expect((work["average"] as? [String: Any])?["minutes"] as? Double == 18)
        #expect(groups.contains { $0["group"] as? String == "(none)" })
        let total = try #require(document["total"] as? [String: Any])
        #expect(total["sessions"] as? Int == 3 && total["minutes"] as? Int == 210)
    }

    /// The table's lines: those before the diagnostics listed under it.
    static func tableLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").prefix { !$0.contains(": note: ") && !$0.contains(": warning: ") }
    }

    @Test("Text: control characters shown, long names cut, at most 80 columns with the bars")
    func text() throws {
        let run = try streakcal(["totals", "-", "--by", "summary"] + Self.window, input: Self.hostile)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardOutput.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
        #expect(run.standardOutput.contains("Bell\\u{07}"))
        #expect(Self.tableLines(run.standardOutput).allSatisfy { $0.count <= 80 }, "\(run.standardOutput)")
        #expect(run.standardOutput.contains("█"))
        let categories = try streakcal(["totals", "-"] + Self.window, input: Self.hostile)
        #expect(categories.standardOutput.contains("Very long category name…"))
        #expect(Self.tableLines(categories.standardOutput).allSatisfy { $0.count <= 80 }, "\(categories.standardOutput)")
    }

    @Test("SVG and HTML: names escaped, well-formed, no script, light and dark")
    func pictures() throws {
        for format in ["svg", "html"] {
            let run = try streakcal(["totals", "-", "--format", format] + Self.window, input: Self.hostile)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(!run.standardOutput.contains("<script"), "\(format)")
            #expect(run.standardOutput.contains("&lt;script&gt;"), "\(format)")
            #expect(run.standardOutput.contains("prefers-color-scheme: dark"), "\(format)")
            #expect(!run.standardOutput.contains("href") && !run.standardOutput.contains("url("), "\(format): no outside links")
        }
        let svg = try streakcal(["totals", "-", "--format", "svg"] + Self.window, input: Self.hostile).standardOutput
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
    }

    @Test("Habits: met days out of the days of each period; --by habit without habits is a usage error")
    func habits() throws {
        let run = try streakcal(
            ["totals", "-", "--by", "habit", "--habit", "Work=categories:work", "--required", "60", "--per", "month", "--format", "csv"] + Self.window,
            input: Self.hostile)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("2024-01-01,Work,1,90,90,1,31"), "\(run.standardOutput)")
        let none = try streakcal(["totals", "-", "--by", "habit"] + Self.window, input: Self.hostile)
        #expect(none.status == 64 && none.standardError.contains("--by habit needs habits"))
    }

    @Test("--top keeps the largest groups and folds the rest into (other); out of range is refused")
    func top() throws {
        let run = try streakcal(["totals", "-", "--by", "summary", "--top", "1", "--format", "csv"] + Self.window, input: Self.hostile)
        #expect(run.status == 0, "\(run.standardError)")
        let groups = Set(run.standardOutput.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",")[1] })
        #expect(groups.count == 2 && groups.contains("(other)"), "\(run.standardOutput)")
        let zero = try streakcal(["totals", "-", "--top", "0"] + Self.window, input: Self.hostile)
        #expect(zero.status == 64 && zero.standardError.contains("--top must be 1 to 10000"))
    }

    @Test("The output's extension chooses the format, as report's does")
    func outputExtension() throws {
        try withTemporaryFolder("totals") { folder in
            let path = folder.appendingPathComponent("time.md").path
            let run = try streakcal(["totals", "-", "-o", path] + Self.window, input: Self.hostile)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("# Time by category per week, 2024-01-01 to 2024-01-31 (UTC)"))
        }
    }
}
