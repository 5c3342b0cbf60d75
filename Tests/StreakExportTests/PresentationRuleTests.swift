import StreakExport
import Streaks
import Testing

private func total(_ year: Int, _ month: Int, _ day: Int, points: Int, status: DayStatus, sessions: Int = 1) -> DayTotal {
    DayTotal(date: try! Day(year: year, month: month, day: day), points: points, sessions: sessions, status: status)
}

private let blue = DayPresentation(fill: RGBColor(red: 0x0A, green: 0x5C, blue: 0xA8), mark: "z", label: "rest day")
private let gold = DayPresentation(fill: RGBColor(red: 0xFF, green: 0xCC, blue: 0x00), mark: "★", label: "big day")

@Suite("Presentation rules")
struct PresentationRuleTests {
    @Test("The tutorial's rules give its colours: met green, partial red, none gray", arguments: [
        (DayStatus.met, "#1E8336", Character("✓")), (.partial, "#D70015", "◐"), (.none, "#6C6C70", "·"),
    ])
    func tutorial(status: DayStatus, fill: String, mark: Character) {
        let presentation = DayPresentationRules.tutorial.presentation(for: total(2024, 2, 20, points: 50, status: status))
        #expect(presentation.fill.description == fill)
        #expect(presentation.text == .white)
        #expect(presentation.mark == mark)
        #expect(presentation.label == status.rawValue)
        #expect(presentation == ReportPalette.tutorial.presentation(for: status))
    }

    @Test("The standard rules: light gray for none, three greens for partial days by fraction, the deepest for met", arguments: [
        (0, DayStatus.none, "#EBEDF0", Character("·"), "none"),
        (1, .partial, "#C6E8A8", "◔", "partial, under 1/3"), (33, .partial, "#C6E8A8", "◔", "partial, under 1/3"),
        (34, .partial, "#7DC67E", "◑", "partial, 1/3 to 2/3"), (66, .partial, "#7DC67E", "◑", "partial, 1/3 to 2/3"),
        (67, .partial, "#2E9A62", "◕", "partial, 2/3 or more"), (99, .partial, "#2E9A62", "◕", "partial, 2/3 or more"),
        (100, .met, "#0A5C45", "✓", "met"), (250, .met, "#0A5C45", "✓", "met"),
    ])
    func standard(points: Int, status: DayStatus, fill: String, mark: Character, label: String) {
        let day = DayTotal(date: try! Day(year: 2024, month: 2, day: 20), points: points, sessions: 1, status: status, required: 100)
        let presentation = DayPresentationRules.standard.presentation(for: day)
        #expect(presentation.fill.description == fill)
        #expect(presentation.mark == mark)
        #expect(presentation.label == label)
        #expect(presentation.fill.contrastRatio(with: presentation.text) >= 4.5)
        #expect(ReportPalette.level(of: day) == ReportPalette.standard.levels.firstIndex(of: presentation))
    }

    @Test("A partial day whose requirement is unknown takes the middle level")
    func unknownRequirement() {
        let day = total(2024, 2, 24, points: 30, status: .partial)
        #expect(ReportPalette.level(of: day) == 2)
        #expect(DayPresentationRules.standard.presentation(for: day) == ReportPalette.standard.levels[2])
        #expect(DayPresentation.partial.mark == "◐" && DayPresentation.partial.fill == ReportPalette.standard.levels[2].fill)
    }

    @Test("Every palette's text reads at 4.5:1 on its cell (7:1 in high contrast), light and dark, whatever the pattern",
          arguments: ReportPalette.all.map(\.name))
    func contrast(name: String) throws {
        let palette = try #require(ReportPalette.named(name))
        let minimum = palette.name == "high-contrast" ? 7.0 : 4.5
        for presentation in palette.levels + [palette.partial, palette.rest, palette.skipped, palette.frozen] {
            let modes = [(palette.page, presentation.fill, presentation.text), (palette.darkPage, presentation.dark.fill, presentation.dark.text)]
            for (page, fill, text) in modes {
                // Text sits on the fill, on the page inside an outline, and on both colours of a hatch.
                let grounds: [RGBColor] = switch presentation.pattern {
                case .solid: [fill]
                case .outline: [page.background]
                case .hatched: [fill, page.background]
                }
                for ground in grounds {
                    #expect(ground.contrastRatio(with: text) >= minimum, "\(palette.name) \(presentation.label) \(text) on \(ground)")
                }
            }
        }
        for page in [palette.page, palette.darkPage] {
            #expect(page.background.contrastRatio(with: page.text) >= minimum)
            #expect(page.background.contrastRatio(with: page.secondaryText) >= 4.5)
            #expect(page.background.contrastRatio(with: page.today) >= 3, "today's outline is a graphic: 3:1")
        }
        #expect(DayPresentation.outsideWindow.text.contrastRatio(with: DayPresentation.outsideWindow.fill) >= 4.5)
        #expect(DayPresentation.outsideWindow.dark.text.contrastRatio(with: DayPresentation.outsideWindow.dark.fill) >= 4.5)
    }

    @Test("The first matching rule wins; a rule appended after the standard ones never fires")
    func firstMatchWins() {
        let rules = DayPresentationRules.standard
            .prepending(when: .status(.none), show: blue)
            .prepending(when: .status(.none, .partial), show: gold)
            .appending(when: .always, show: blue)
        #expect(rules.presentation(for: total(2024, 2, 21, points: 0, status: .none)) == gold)
        #expect(rules.presentation(for: total(2024, 2, 24, points: 30, status: .partial)) == gold)
        #expect(rules.presentation(for: total(2024, 2, 20, points: 100, status: .met)) == .met)
        #expect(rules.rules.count == DayPresentationRules.standard.rules.count + 3)
    }

    @Test("Weekday: weekend days without points are rest days, weekdays keep the standard look")
    func weekday() {
        let rules = DayPresentationRules.standard.prepending(when: .all(.status(.none), .weekday(.saturday, .sunday)), show: blue)
        #expect(rules.presentation(for: total(2024, 2, 17, points: 0, status: .none)) == blue)  // Saturday
        #expect(rules.presentation(for: total(2024, 2, 18, points: 0, status: .none)) == blue)  // Sunday
        #expect(rules.presentation(for: total(2024, 2, 19, points: 0, status: .none)) == .none)  // Monday
        #expect(rules.presentation(for: total(2024, 2, 24, points: 30, status: .partial)) == ReportPalette.standard.levels[2])  // Saturday, partial
    }

    @Test("Date range: both ends included", arguments: [(19, false), (20, true), (22, true), (23, false)])
    func dateRange(day: Int, inRange: Bool) {
        let holiday = try! Day(year: 2024, month: 2, day: 20)...Day(year: 2024, month: 2, day: 22)
        let rules = DayPresentationRules.standard.prepending(when: .dates(holiday), show: blue)
        let presentation = rules.presentation(for: total(2024, 2, day, points: 0, status: .none))
        #expect(presentation == (inRange ? blue : .none))
    }

    @Test("Custom predicate over the day's total")
    func custom() {
        let rules = DayPresentationRules.standard.prepending(when: .custom { $0.points >= 2 * 100 && $0.sessions > 1 }, show: gold)
        #expect(rules.presentation(for: total(2024, 2, 26, points: 250, status: .met, sessions: 2)) == gold)
        #expect(rules.presentation(for: total(2024, 2, 26, points: 250, status: .met, sessions: 1)) == .met)
        #expect(rules.presentation(for: total(2024, 2, 26, points: 120, status: .met, sessions: 3)) == .met)
    }

    @Test("A day no rule matches gets its status's standard presentation; all() of nothing is always")
    func fallback() {
        let rules = DayPresentationRules([DayPresentationRule(when: .status(.met), show: gold)])
        #expect(rules.presentation(for: total(2024, 2, 20, points: 100, status: .met)) == gold)
        #expect(rules.presentation(for: total(2024, 2, 24, points: 30, status: .partial)) == .partial)
        #expect(DayCondition.all().matches(total(2024, 2, 24, points: 30, status: .partial)))
        #expect(DayPresentationRules([]).presentation(for: total(2024, 2, 21, points: 0, status: .none)) == .none)
    }

    @Test("Days outside the report's window get the outside presentation")
    func outside() {
        let report = tutorialReport()
        let rules = DayPresentationRules.standard
        #expect(rules.presentation(of: try! Day(year: 2024, month: 2, day: 19), in: report) == .outsideWindow)
        #expect(rules.presentation(of: try! Day(year: 2024, month: 2, day: 20), in: report) == .met)
        let custom = rules.showingOutsideWindow(as: blue)
        #expect(custom.presentation(of: try! Day(year: 2024, month: 3, day: 1), in: report) == blue)
    }

    @Test("The legend lists each rule's presentation in order, one per label")
    func legend() {
        #expect(DayPresentationRules.standard.legend.map(\.label) == [
            "met", "partial, under 1/3", "partial, 1/3 to 2/3", "partial, 2/3 or more", "none", "rest", "skipped", "frozen",
            "over the limit", "upcoming", "covered",
        ])
        #expect(DayPresentationRules.tutorial.legend.map(\.label) == ["met", "partial", "none", "rest", "skipped", "frozen", "over the limit", "upcoming", "covered"])
        let rules = DayPresentationRules.tutorial.prepending(when: .weekday(.sunday), show: blue).appending(when: .always, show: blue)
        #expect(rules.legend.map(\.label) == ["rest day", "met", "partial", "none", "rest", "skipped", "frozen", "over the limit", "upcoming", "covered"])
        let refilled = DayPresentationRules.tutorial.filling(.met, with: RGBColor(red: 0x0A, green: 0x5C, blue: 0xA8))
        #expect(refilled.legend.prefix(3).map(\.fill.description) == ["#0A5CA8", "#D70015", "#6C6C70"])
        #expect(refilled.legend.first?.mark == "✓")
    }

    @Test("A report's legend: the scale from none to met, and what its days use")
    func legendForReport() {
        let report = tutorialReport()
        #expect(DayPresentationRules.standard.legend(for: report).map(\.mark) == ["✓", "◔", "◑", "◕", "·"])
        #expect(DayPresentationRules.tutorial.legend(for: report).map(\.label) == ["met", "partial", "none"])
        let (scale, others) = DayPresentationRules.standard.intensityLegend(for: report)
        #expect(scale.map(\.mark) == ["·", "◔", "◑", "◕", "✓"])
        #expect(others.isEmpty)
        // A fill of one's own for partial days replaces the three levels with one entry.
        let one = DayPresentationRules.standard.filling(.partial, with: RGBColor(red: 0xFF, green: 0xCC, blue: 0x00))
        #expect(one.intensityLegend(for: report).scale.map(\.mark) == ["·", "◐", "✓"])
    }

    @Test("Colours parse from #RRGGBB and #RGB, print as #RRGGBB", arguments: [
        ("#1E8336", "#1E8336"), ("1e8336", "#1E8336"), ("#fff", "#FFFFFF"), ("0a5", "#00AA55"),
    ])
    func parse(text: String, expected: String) throws {
        #expect(try #require(RGBColor(hex: text)).description == expected)
    }

    @Test("Colour texts that are not colours", arguments: ["", "#", "#12345", "#1234567", "#GGGGGG", "red", "#١٢٣"])
    func parseFailure(text: String) {
        #expect(RGBColor(hex: text) == nil)
    }

    @Test("Text colour and terminal style default from the fill (xterm 256 colours)")
    func derived() {
        let light = DayPresentation(fill: RGBColor(red: 0xFF, green: 0xCC, blue: 0x00), mark: "*", label: "light")
        #expect(light.text == .black)
        #expect(light.terminalStyle == "38;5;16;48;5;220")
        #expect(blue.text == .white)
        #expect(blue.terminalStyle == "38;5;231;48;5;25")
        let explicit = DayPresentation(fill: .white, text: RGBColor(red: 1, green: 2, blue: 3), mark: " ", label: "x")
        #expect(explicit.terminalStyle == "38;5;16;48;5;231")
        #expect(DayPresentation(fill: .white, mark: "x", label: "x", terminalStyle: "1").terminalStyle == "1")
    }

    @Test("xterm 256: the cube's corners, grays, and the standard levels on five different colours")
    func xterm() {
        #expect(RGBColor.black.xterm256Index == 16)
        #expect(RGBColor.white.xterm256Index == 231)
        #expect(RGBColor(red: 255, green: 0, blue: 0).xterm256Index == 196)
        #expect(RGBColor(red: 0x80, green: 0x80, blue: 0x80).xterm256Index == 244)
        #expect(RGBColor(red: 0x5F, green: 0x87, blue: 0xAF).xterm256Index == 67)
        for palette in [ReportPalette.standard, .github, .highContrast] {
            #expect(Set(palette.levels.map(\.fill.xterm256Index)).count == 5, "\(palette.name)")
        }
    }

    @Test("The text report takes the rules: marks without colours, styles with them, and its legend")
    func textReport() {
        let rules = DayPresentationRules.tutorial.prepending(when: .weekday(.wednesday), show: blue)
        let plain = TextReport(report: tutorialReport(), rules: rules).render()
        #expect(plain.contains("20✓21z22·23·24◐"))
        #expect(plain.contains("z rest day  ✓ met  ◐ partial  · none"))
        let colored = TextReport(report: tutorialReport(), colors: true, rules: rules).render()
        #expect(colored.contains("\u{1B}[38;5;231;48;5;25m21z\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[38;5;231;48;5;25mz\u{1B}[0m rest day"))
        // The standard rules give exactly the text the snapshots hold.
        #expect(TextReport(report: tutorialReport(), rules: .standard).render() == TextReport(report: tutorialReport()).render())
    }
}
