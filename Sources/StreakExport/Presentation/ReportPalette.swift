public import Streaks

/// The colours of a report: how each day looks, graded by its fraction of the goal, in light and
/// dark mode, and the page around the days.
///
/// Days without points are light and days that met their goal the deepest colour, as in a
/// contribution graph; partial days take one of three levels between by their fraction of the goal
/// (under 1/3, under 2/3, 2/3 or more), so a good year with many partial days reads as a good
/// year. Rest days are outlined and skipped days hatched: they are told apart by shape, not by
/// one more shade. Every presentation keeps its mark (`·` `◔` `◑` `◕` `✓` `○` `⊘` `❄`), so no
/// status rests on colour alone.
///
/// - ``standard``, the default: greens from yellow-green to deep blue-green, chosen so that every
///   pair of fills stays apart (CIEDE2000 ≥ 8) for protanopia and deuteranopia as well as typical
///   vision, with text at a contrast of at least 4.5 on every fill, in light and dark mode.
/// - ``github``: GitHub's contribution greens.
/// - ``highContrast``: white to navy with black borders and text at a contrast of at least 7.
/// - ``tutorial``: the FSCalendar tutorial's green, red and gray, one colour per status (red and
///   green are hard to tell apart with deuteranopia: for readers who want the tutorial's look).
///
/// ```swift
/// let palette = ReportPalette.named("github")!
/// print(palette.levels.map(\.fill))
/// // Prints "[#EBEDF0, #9BE9A8, #40C463, #30A14E, #216E39]"
/// ```
public struct ReportPalette: Hashable, Sendable {
    /// The colours of the page around the days.
    public struct Page: Hashable, Sendable {
        /// The page's background.
        public var background: RGBColor
        /// Headings and figures.
        public var text: RGBColor
        /// Weekday and month labels, captions (contrast at least 4.5 on `background`).
        public var secondaryText: RGBColor
        /// The border of cells whose fill is close to the background.
        public var border: RGBColor
        /// The outline of today's cell.
        public var today: RGBColor

        public init(background: RGBColor, text: RGBColor, secondaryText: RGBColor, border: RGBColor, today: RGBColor) {
            self.background = background
            self.text = text
            self.secondaryText = secondaryText
            self.border = border
            self.today = today
        }
    }

    /// What `--palette` calls it: `standard`, `github`, `high-contrast` or `tutorial`.
    public var name: String
    /// The five intensity levels: no points, three partial levels by fraction (under 1/3, under
    /// 2/3, 2/3 or more), met.
    public var levels: [DayPresentation]
    /// A partial day when no level applies (its requirement is not known), and in legends of
    /// periods: the middle level, marked `◐`.
    public var partial: DayPresentation
    /// A rest day.
    public var rest: DayPresentation
    /// A skipped day.
    public var skipped: DayPresentation
    /// A missed day covered by a freeze.
    public var frozen: DayPresentation
    /// Over an at-most limit (`DayStatus.over`): a colour of its own, marked `✗`, apart from every
    /// level and from frozen for protanopia and deuteranopia too (issue 46.8: drawn as a day of no
    /// points, a day over the limit looked like a day with nothing to count).
    public var over: DayPresentation
    /// The page in light mode.
    public var page: Page
    /// The page in dark mode (HTML with `prefers-color-scheme: dark`).
    public var darkPage: Page
    /// Whether every cell has a border of `page.border` (the high-contrast palette).
    public var bordersEveryCell: Bool

    /// No points.
    public var none: DayPresentation { levels[0] }
    /// Goal met.
    public var met: DayPresentation { levels[4] }

    /// A day after today (`DayStatus.upcoming`): not scored yet, so no colour of the scale; an
    /// outline in the page's border colour, dim text, marked `◌`.
    public var upcoming: DayPresentation {
        DayPresentation(
            fill: page.border, text: page.secondaryText, mark: "◌", label: "upcoming", terminalStyle: "2",
            darkFill: darkPage.border, darkText: darkPage.secondaryText, pattern: .outline)
    }

    /// A day a rolling goal's window covers (`DayStatus.covered`): outlined in the met colour,
    /// marked `◎` (rest days have `○`), so that it reads as part of a streak without passing for a met day.
    public var covered: DayPresentation {
        DayPresentation(
            fill: met.fill, text: page.text, mark: "◎", label: "covered", terminalStyle: "1;38;5;\(met.fill.xterm256Index)",
            darkFill: met.darkFill, darkText: darkPage.text, pattern: .outline)
    }

    /// The level of a day: 0 no points, 1–3 partial by fraction of its goal, 4 met; `nil` for
    /// rest, skipped, frozen, upcoming and covered days.
    ///
    /// ```swift
    /// let day = DayTotal(date: Day("2024-02-24"), points: 30, sessions: 1, status: .partial, required: 100)
    /// print(ReportPalette.level(of: day) ?? -1)
    /// // Prints "1"
    /// ```
    public static func level(of total: DayTotal) -> Int? {
        switch total.status {
        case .none, .over: return 0
        case .met: return 4
        case .partial:
            guard let fraction = total.fraction else { return 2 }
            return fraction * 3 < 1 ? 1 : fraction * 3 < 2 ? 2 : 3
        case .rest, .skipped, .frozen, .upcoming, .covered: return nil
        }
    }

    /// The presentation of a status (partial: ``partial``).
    public func presentation(for status: DayStatus) -> DayPresentation {
        switch status {
        case .none: none
        case .partial: partial
        case .met: met
        case .rest: rest
        case .skipped: skipped
        case .frozen: frozen
        case .over: over
        case .upcoming: upcoming
        case .covered: covered
        }
    }

    /// The rules that show days in this palette: met, the three partial levels (one partial rule
    /// when the levels are the same), none, rest, skipped, frozen.
    public var rules: DayPresentationRules {
        var rules = [DayPresentationRule(when: .status(.met), show: met)]
        if Set(levels[1...3]).count > 1 {
            for level in 1...3 {
                rules.append(DayPresentationRule(when: .custom { ReportPalette.level(of: $0) == level }, show: levels[level]))
            }
        } else {
            rules.append(DayPresentationRule(when: .status(.partial), show: partial))
        }
        rules += [
            DayPresentationRule(when: .status(.none), show: none),
            DayPresentationRule(when: .status(.rest), show: rest),
            DayPresentationRule(when: .status(.skipped), show: skipped),
            DayPresentationRule(when: .status(.frozen), show: frozen),
            DayPresentationRule(when: .status(.over), show: over),
            DayPresentationRule(when: .status(.upcoming), show: upcoming),
            DayPresentationRule(when: .status(.covered), show: covered),
        ]
        return DayPresentationRules(rules)
    }

    /// Every palette `--palette` names, the default first.
    public static let all: [ReportPalette] = [.standard, .github, .highContrast, .tutorial]

    /// The palette called `name`, or `nil`.
    public static func named(_ name: String) -> ReportPalette? {
        all.first { $0.name == name }
    }

    // MARK: The palettes

    private static func color(_ hex: String) -> RGBColor {
        RGBColor(hex: hex) ?? .black
    }

    private static let ink = color("#1D1D1F")
    private static let darkInk = color("#E6EDF3")
    private static let levelLabels = ["none", "partial, under 1/3", "partial, 1/3 to 2/3", "partial, 2/3 or more", "met"]
    private static let levelMarks: [Character] = ["·", "◔", "◑", "◕", "✓"]

    /// Five levels from (light fill, dark fill) pairs, each with its mark and label and the text
    /// that reads best on it.
    private static func gradedLevels(_ fills: [(String, String)], text: RGBColor = ink, darkText: RGBColor = darkInk) -> [DayPresentation] {
        zip(fills.indices, fills).map { index, pair in
            let (fill, dark) = (color(pair.0), color(pair.1))
            return DayPresentation(
                fill: fill, text: readable(on: fill, light: .white, dark: text), mark: levelMarks[index], label: levelLabels[index],
                darkFill: dark, darkText: readable(on: dark, light: darkText, dark: text))
        }
    }

    /// `light` or `dark` text, whichever has the higher contrast on `fill`.
    private static func readable(on fill: RGBColor, light: RGBColor, dark: RGBColor) -> RGBColor {
        fill.contrastRatio(with: light) >= fill.contrastRatio(with: dark) ? light : dark
    }

    /// The middle level as the ungraded partial presentation (mark `◐`, label `partial`).
    private static func ungraded(_ level: DayPresentation) -> DayPresentation {
        DayPresentation(
            fill: level.fill, text: level.text, mark: "◐", label: "partial", terminalStyle: level.terminalStyle,
            darkFill: level.darkFill, darkText: level.darkText)
    }

    private static let lightPage = Page(
        background: .white, text: ink, secondaryText: color("#57606A"), border: color("#D0D7DE"), today: ink)
    private static let darkPage = Page(
        background: color("#0D1117"), text: darkInk, secondaryText: color("#9DA7B3"), border: color("#30363D"), today: darkInk)

    /// Rest outlined, skipped hatched (the same in every palette but the tutorial's and the
    /// high-contrast one); the terminal shows them as coloured marks on its own background.
    private static let outlinedRest = DayPresentation(
        fill: color("#6E7781"), text: ink, mark: "○", label: "rest", terminalStyle: "38;5;67",
        darkFill: color("#8B949E"), darkText: darkInk, pattern: .outline)
    /// Over an at-most limit: orange, the warm end the green-to-blue scale leaves free (GitHub's
    /// brighter greens take pink instead: orange is too close to them for protanopia).
    private static let overLimit = DayPresentation(
        fill: color("#E36A0E"), text: ink, mark: "✗", label: "over the limit", terminalStyle: "38;5;208",
        darkFill: color("#F0883E"), darkText: ink)
    private static let hatchedSkip = DayPresentation(
        fill: color("#C9CED6"), text: ink, mark: "⊘", label: "skipped", terminalStyle: "38;5;245",
        darkFill: color("#3D444D"), darkText: darkInk, pattern: .hatched)

    /// The default: yellow-green to deep blue-green, checked for protanopia and deuteranopia.
    public static let standard: ReportPalette = {
        let levels = gradedLevels([
            ("#EBEDF0", "#2D333B"), ("#C6E8A8", "#1F4A3A"), ("#7DC67E", "#246B4D"), ("#2E9A62", "#4CB782"), ("#0A5C45", "#8FE3B5"),
        ])
        return ReportPalette(
            name: "standard", levels: levels, partial: ungraded(levels[2]), rest: outlinedRest, skipped: hatchedSkip,
            frozen: DayPresentation(
                fill: color("#4F6FD6"), text: .white, mark: "❄", label: "frozen", darkFill: color("#7D95F0"), darkText: ink),
            over: overLimit, page: lightPage, darkPage: darkPage, bordersEveryCell: false)
    }()

    /// GitHub's contribution greens, light and dark.
    public static let github: ReportPalette = {
        let levels = gradedLevels([
            ("#EBEDF0", "#161B22"), ("#9BE9A8", "#0E4429"), ("#40C463", "#006D32"), ("#30A14E", "#26A641"), ("#216E39", "#39D353"),
        ])
        return ReportPalette(
            name: "github", levels: levels, partial: ungraded(levels[2]), rest: outlinedRest, skipped: hatchedSkip,
            frozen: DayPresentation(
                fill: color("#4F6FD6"), text: .white, mark: "❄", label: "frozen", darkFill: color("#7D95F0"), darkText: ink),
            over: DayPresentation(
                fill: color("#DB61A2"), text: ink, mark: "✗", label: "over the limit", terminalStyle: "38;5;169",
                darkFill: color("#DB61A2"), darkText: ink),
            page: lightPage, darkPage: darkPage, bordersEveryCell: false)
    }()

    /// White to navy, black borders, text at a contrast of at least 7 (WCAG AAA).
    public static let highContrast: ReportPalette = {
        let black = RGBColor.black
        let levels = gradedLevels([
            ("#FFFFFF", "#000000"), ("#CFE2F3", "#0B2A4A"), ("#8FBFE3", "#1C5A99"), ("#1C5A99", "#8FBFE3"), ("#061F47", "#FFFFFF"),
        ], text: black, darkText: RGBColor.white)
        return ReportPalette(
            name: "high-contrast", levels: levels, partial: ungraded(levels[2]),
            rest: DayPresentation(
                fill: black, text: black, mark: "○", label: "rest", terminalStyle: "1", darkFill: .white, darkText: .white,
                pattern: .outline),
            skipped: DayPresentation(
                fill: color("#A0A0A0"), text: black, mark: "⊘", label: "skipped", terminalStyle: "1",
                darkFill: color("#505050"), darkText: .white, pattern: .hatched),
            frozen: DayPresentation(
                fill: color("#8A3A00"), text: .white, mark: "❄", label: "frozen", darkFill: color("#FF9A3C"), darkText: black),
            over: DayPresentation(
                fill: color("#B0004A"), text: .white, mark: "✗", label: "over the limit", terminalStyle: "1;35",
                darkFill: color("#FF7EB6"), darkText: black),
            page: Page(background: .white, text: black, secondaryText: color("#3A3A3A"), border: black, today: color("#C2185B")),
            darkPage: Page(background: black, text: .white, secondaryText: color("#D0D0D0"), border: .white, today: color("#FF80AB")),
            bordersEveryCell: true)
    }()

    /// The FSCalendar tutorial's colours: green met, red partial, gray none (one colour per status).
    public static let tutorial: ReportPalette = {
        let met = DayPresentation(fill: color("#1E8336"), text: .white, mark: "✓", label: "met", terminalStyle: "30;42")
        let partial = DayPresentation(fill: color("#D70015"), text: .white, mark: "◐", label: "partial", terminalStyle: "97;41")
        let none = DayPresentation(fill: color("#6C6C70"), text: .white, mark: "·", label: "none", terminalStyle: "97;100")
        return ReportPalette(
            name: "tutorial", levels: [none, partial, partial, partial, met], partial: partial,
            rest: DayPresentation(
                fill: color("#DCE8F5"), text: color("#1F3A5F"), mark: "○", label: "rest", terminalStyle: "34;47"),
            skipped: DayPresentation(
                fill: color("#E5E5EA"), text: color("#3A3A3C"), mark: "⊘", label: "skipped", terminalStyle: "30;47"),
            frozen: DayPresentation(fill: color("#0B658C"), text: .white, mark: "❄", label: "frozen", terminalStyle: "97;44"),
            over: DayPresentation(fill: color("#E8750C"), text: ink, mark: "✗", label: "over the limit", terminalStyle: "30;43"),
            page: lightPage, darkPage: darkPage, bordersEveryCell: false)
    }()
}
