import StreakExport
import Streaks
import Testing

private func total(_ year: Int, _ month: Int, _ day: Int, points: Int, status: DayStatus, sessions: Int = 1) -> DayTotal {
    DayTotal(date: Day(year: year, month: month, day: day)!, points: points, sessions: sessions, status: status)
}

private let blue = DayPresentation(fill: RGBColor(red: 0x0A, green: 0x5C, blue: 0xA8), mark: "z", label: "rest day")
private let gold = DayPresentation(fill: RGBColor(red: 0xFF, green: 0xCC, blue: 0x00), mark: "★", label: "big day")

@Suite("Presentation rules")
struct PresentationRuleTests {
    @Test("The standard rules give the tutorial's colours: met green, partial red, none gray", arguments: [
        (DayStatus.met, "#1E8336", Character("✓")), (.partial, "#D70015", "◐"), (.none, "#6C6C70", "·"),
    ])
    func defaults(status: DayStatus, fill: String, mark: Character) {
        let presentation = DayPresentationRules.standard.presentation(for: total(2024, 2, 20, points: 50, status: status))
        #expect(presentation.fill.description == fill)
        #expect(presentation.text == .white)
        #expect(presentation.mark == mark)
        #expect(presentation.label == status.rawValue)
        #expect(presentation == DayPresentation.standard(for: status))
    }

    @Test("Standard colours are green, red and gray, and white text on them has a contrast of at least 4.5")
    func contrast() {
        for status in DayStatus.allCases {
            let presentation = DayPresentation.standard(for: status)
            #expect(presentation.fill.contrastRatio(with: presentation.text) >= 4.5, "\(status)")
        }
        let (met, partial, none) = (DayPresentation.met.fill, DayPresentation.partial.fill, DayPresentation.none.fill)
        #expect(met.green > met.red && met.green > met.blue)
        #expect(partial.red > partial.green && partial.red > partial.blue)
        #expect(none.red == none.green && abs(Int(none.blue) - Int(none.red)) < 8)
        #expect(RGBColor.black.contrastRatio(with: .white) == 21)
        #expect(DayPresentation.outsideWindow.text.contrastRatio(with: DayPresentation.outsideWindow.fill) >= 4.5)
    }

    @Test("The first matching rule wins; a rule appended after the standard ones never fires")
    func firstMatchWins() {
        let rules = DayPresentationRules.standard
            .prepending(when: .status(.none), show: blue)
            .prepending(when: .status(.none, .partial), show: gold)
            .appending(when: .always, show: blue)
        #expect(rules.rules.count == 6)
        #expect(rules.presentation(for: total(2024, 2, 21, points: 0, status: .none)) == gold)
        #expect(rules.presentation(for: total(2024, 2, 24, points: 30, status: .partial)) == gold)
        #expect(rules.presentation(for: total(2024, 2, 20, points: 100, status: .met)) == .met)
    }

    @Test("Weekday: weekend days without points are rest days, weekdays keep the standard look")
    func weekday() {
        let rules = DayPresentationRules.standard.prepending(when: .all(.status(.none), .weekday(.saturday, .sunday)), show: blue)
        #expect(rules.presentation(for: total(2024, 2, 17, points: 0, status: .none)) == blue)  // Saturday
        #expect(rules.presentation(for: total(2024, 2, 18, points: 0, status: .none)) == blue)  // Sunday
        #expect(rules.presentation(for: total(2024, 2, 19, points: 0, status: .none)) == .none)  // Monday
        #expect(rules.presentation(for: total(2024, 2, 24, points: 30, status: .partial)) == .partial)  // Saturday, partial
    }

    @Test("Date range: both ends included", arguments: [(19, false), (20, true), (22, true), (23, false)])
    func dateRange(day: Int, inRange: Bool) {
        let holiday = Day(year: 2024, month: 2, day: 20)!...Day(year: 2024, month: 2, day: 22)!
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
        #expect(rules.presentation(of: Day(year: 2024, month: 2, day: 19)!, in: report) == .outsideWindow)
        #expect(rules.presentation(of: Day(year: 2024, month: 2, day: 20)!, in: report) == .met)
        let custom = rules.showingOutsideWindow(as: blue)
        #expect(custom.presentation(of: Day(year: 2024, month: 3, day: 1)!, in: report) == blue)
    }

    @Test("The legend lists each rule's presentation in order, one per label")
    func legend() {
        #expect(DayPresentationRules.standard.legend.map(\.label) == ["met", "partial", "none"])
        let rules = DayPresentationRules.standard.prepending(when: .weekday(.sunday), show: blue).appending(when: .always, show: blue)
        #expect(rules.legend.map(\.label) == ["rest day", "met", "partial", "none"])
        let refilled = DayPresentationRules.standard.filling(.met, with: RGBColor(red: 0x0A, green: 0x5C, blue: 0xA8))
        #expect(refilled.legend.map(\.fill.description) == ["#0A5CA8", "#D70015", "#6C6C70"])
        #expect(refilled.legend.first?.mark == "✓")
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

    @Test("Text colour and terminal style default from the fill")
    func derived() {
        let light = DayPresentation(fill: RGBColor(red: 0xFF, green: 0xCC, blue: 0x00), mark: "*", label: "light")
        #expect(light.text == .black)
        #expect(light.terminalStyle == "30;48;2;255;204;0")
        #expect(blue.text == .white)
        #expect(blue.terminalStyle == "97;48;2;10;92;168")
        let explicit = DayPresentation(fill: .white, text: RGBColor(red: 1, green: 2, blue: 3), mark: " ", label: "x")
        #expect(explicit.terminalStyle == "38;2;1;2;3;48;2;255;255;255")
    }

    @Test("The text report takes the rules: marks without colours, styles with them, and its legend")
    func textReport() {
        let rules = DayPresentationRules.standard.prepending(when: .weekday(.wednesday), show: blue)
        let plain = TextReport(report: tutorialReport(), rules: rules).render()
        #expect(plain.contains("20✓21z22·23·24◐"))
        #expect(plain.contains("z rest day  ✓ met  ◐ partial  · none"))
        let colored = TextReport(report: tutorialReport(), colors: true, rules: rules).render()
        #expect(colored.contains("\u{1B}[97;48;2;10;92;168m21z\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[97;48;2;10;92;168mz\u{1B}[0m rest day"))
        // The standard rules give exactly the text the snapshots hold.
        #expect(TextReport(report: tutorialReport(), rules: .standard).render() == TextReport(report: tutorialReport()).render())
    }
}
