import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `streakcal card` (issue 48, part 3): a small SVG card of the streaks, for a README.
@Suite("streakcal card")
struct CardCommandTests {
    static let window = ["--tz", "UTC", "--to", "2024-02-29"]

    /// The strip's squares' classes, in day order.
    static func squares(_ svg: String) -> [String] {
        svg.split(separator: "\n").filter { $0.hasPrefix("<rect x=") }.compactMap { line in
            line.firstRange(of: "class=\"").map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
        }
    }

    @Test("The tutorial sample: the figures, the strip's squares by status, well-formed, written atomically with -o")
    func tutorial() throws {
        try withTemporaryFolder("card") { folder in
            let path = folder.appendingPathComponent("card.svg").path
            let run = try streakcal(["card", fixture("tutorial-sample.ics"), "-o", path] + Self.window)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.isEmpty)
            // The sample's one warning is said on standard error, not drawn.
            #expect(run.standardError.contains("warning: the event ends before it starts"))
            let svg = try String(contentsOfFile: path, encoding: .utf8)
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"495\" "))
            #expect(svg.contains("<desc id=\"desc\">Current streak: 0 days; longest streak: 2 days, 2024-02-25 to 2024-02-26; days met: 3 of 10</desc>"))
            for text in [">FSCalendar streaks tutorial sample</text>", ">100 points a day · to 2024-02-29</text>", ">2024-02-25 – 2024-02-26</text>",
                         ">Longest streak</text>", ">of 10 days</text>", ">The last 38 weeks</text>"] {
                #expect(svg.contains(text), "\(text)")
            }
            #expect(svg.contains("text-anchor=\"middle\">2</text>") && svg.contains("text-anchor=\"middle\">3</text>"))
            #expect(svg.utf8.count <= 30 * 1024 && !svg.contains("<script") && !svg.contains("href"))
            #expect(svg.contains("@media (prefers-color-scheme: dark)"))
            let parser = XMLParser(data: Data(svg.utf8))
            #expect(parser.parse(), "\(String(describing: parser.parserError))")
            // 38 weeks from Monday 2023-06-12 through Sunday 2024-03-03: 20, 25 and 26 February met,
            // the 24th a partial day under a third, the other days of the window without points.
            let squares = Self.squares(svg)
            #expect(squares.count == 38 * 7)
            #expect(svg.contains("data-first-day=\"2023-06-12\" data-last-day=\"2024-03-03\""))
            let first = 7 * 37  // Monday 2024-02-26
            #expect(Array(squares[(first - 7)...]) == ["up", "l4", "l0", "l0", "l0", "l1", "l4", "l4", "l0", "l0", "l0", "up", "up", "up"])
            #expect(squares.prefix(first - 6).allSatisfy { $0 == "up" })
            let standard = try streakcal(["card", fixture("tutorial-sample.ics")] + Self.window)
            #expect(standard.standardOutput == svg, "standard output holds the same card")
        }
    }

    @Test("--card-habit: one habit's card; a name no habit has, or no habits, is a usage error")
    func habit() throws {
        let habit = ["--habit", "Wins=summary:success"]
        let run = try streakcal(["card", fixture("tutorial-sample.ics"), "--card-habit", "Wins"] + habit + Self.window)
        #expect(run.status == 0, "\(run.standardError)")
        let svg = run.standardOutput
        #expect(svg.contains("<title id=\"title\">Streak card: Wins</title>"))
        #expect(svg.contains(">FSCalendar streaks tutorial sample · 100 points a day · to 2024-02-29</text>"))
        // Its sessions: 100 on the 20th, 80 on the 25th, 120 on the 26th.
        #expect(svg.contains("longest streak: 1 day, 2024-02-20; days met: 2 of 10"), "\(svg.prefix(600))")
        #expect(Array(Self.squares(svg).suffix(14)) == ["up", "l4", "l0", "l0", "l0", "l0", "l3", "l4", "l0", "l0", "l0", "up", "up", "up"])
        // Without --card-habit, the calendar's card, whatever the habits.
        let calendar = try streakcal(["card", fixture("tutorial-sample.ics")] + habit + Self.window)
        #expect(calendar.standardOutput.contains("days met: 3 of 10"))
        let unknown = try streakcal(["card", fixture("tutorial-sample.ics"), "--card-habit", "Losses"] + habit + Self.window)
        #expect(unknown.status == 64 && unknown.standardError.contains("--card-habit 'Losses' names no habit; the habits are 'Wins'."), "\(unknown.standardError)")
        #expect(unknown.standardOutput.isEmpty)
        let none = try streakcal(["card", fixture("tutorial-sample.ics"), "--card-habit", "Wins"] + Self.window)
        #expect(none.status == 64 && none.standardError.contains("give --habit NAME=FILTER"), "\(none.standardError)")
    }

    @Test("--width: 200 to 600 pixels; outside is refused with exit status 64", arguments: [199, 601, 0, -5, 100_000])
    func badWidth(width: Int) throws {
        let run = try streakcal(["card", fixture("tutorial-sample.ics"), "--width", "\(width)"] + Self.window)
        #expect(run.status == 64)
        #expect(run.standardError.contains("--width must be 200 to 600, not \(width)."), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }

    @Test("--width 200 and 600: the card is that wide", arguments: [200, 600])
    func width(width: Int) throws {
        let run = try streakcal(["card", fixture("tutorial-sample.ics"), "--width", "\(width)"] + Self.window)
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" "))
        #expect(Self.squares(run.standardOutput).count == 7 * ((width - 32 + 2) / 12))
    }

    @Test("--period-goal: the streaks in weeks and a square per week; --palette: its colours")
    func periodGoalAndPalette() throws {
        let run = try streakcal(["card", fixture("tutorial-sample.ics"), "--period-goal", "week:2 days", "--palette", "github"] + Self.window)
        #expect(run.status == 0, "\(run.standardError)")
        let svg = run.standardOutput
        // Without a daily goal any points meet a day. Weeks from Monday: 19-25 February has three
        // such days (met), 26 February - 3 March one so far (half way, and still open).
        #expect(svg.contains("Current streak: 1 week, 2024-02-20 to 2024-02-25; longest streak: 1 week, 2024-02-20 to 2024-02-25; weeks met: 1 of 2"),
                "\(svg.prefix(700))")
        #expect(svg.contains(">Weeks met</text>") && svg.contains(">The last 27 weeks</text>"))
        let squares = Self.squares(svg)
        #expect(squares.count == 27 && squares.suffix(2) == ["l4", "l2"] && squares.dropLast(2).allSatisfy { $0 == "up" })
        #expect(svg.contains(".l4{fill:#216E39}"))
    }

    @Test("A calendar's name is user text: escaped, its control characters removed, cut with … to the card")
    func hostileName() throws {
        let name = "<script>alert(1)</script>\u{07}\u{1B}[31m" + String(repeating: "Very long calendar name ", count: 8)
        let calendar = "BEGIN:VCALENDAR\r\nX-WR-CALNAME:\(name)\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20240226T090000Z\r\nDTEND:20240226T100000Z\r\n"
            + "X-POINTS:100\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let run = try streakcal(["card", "-", "--width", "600"] + Self.window, input: calendar)
        #expect(run.status == 0, "\(run.standardError)")
        let svg = run.standardOutput
        #expect(!svg.contains("<script") && !svg.contains("\u{07}") && !svg.contains("\u{1B}"))
        let title = try #require(svg.split(separator: "\n").first { $0.contains("font-weight=\"bold\">") })
        #expect(title.contains(">&lt;script&gt;alert(1)&lt;/script&gt;[31mVery long calendar na") && title.hasSuffix("…</text>"), "\(title)")
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
    }

    @Test("-o with another extension than .svg is refused")
    func extensionRefused() throws {
        try withTemporaryFolder("card") { folder in
            let path = folder.appendingPathComponent("card.html").path
            let run = try streakcal(["card", fixture("tutorial-sample.ics"), "-o", path] + Self.window)
            #expect(run.status == 1 && run.standardError.contains("the extension .html names no format this command writes (.svg)"), "\(run.standardError)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
