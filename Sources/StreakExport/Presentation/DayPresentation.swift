import Foundation
public import Streaks

/// An sRGB colour, written `#RRGGBB`.
///
/// ```swift
/// let green = RGBColor(hex: "#1E8336")!
/// print(green, green.contrastRatio(with: .white) >= 4.5)
/// // Prints "#1E8336 true"
/// ```
public struct RGBColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#RRGGBB`, `RRGGBB`, `#RGB` or `RGB` (hex digits in either case); `nil` for anything else.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.first == "#" { digits = digits.dropFirst() }
        guard digits.utf8.allSatisfy({ $0 < 0x80 }), digits.allSatisfy(\.isHexDigit) else { return nil }
        if digits.count == 3 {
            digits = Substring(digits.flatMap { [$0, $0] })
        }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    public static let white = RGBColor(red: 255, green: 255, blue: 255)
    public static let black = RGBColor(red: 0, green: 0, blue: 0)

    /// The WCAG 2 relative luminance, 0 (black) to 1 (white).
    public var relativeLuminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.04045 ? value / 12.92 : Foundation.pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The WCAG 2 contrast ratio with `other`, 1 to 21 (4.5 is enough for normal text).
    public func contrastRatio(with other: RGBColor) -> Double {
        let (lighter, darker) = (max(relativeLuminance, other.relativeLuminance), min(relativeLuminance, other.relativeLuminance))
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// White or black, whichever reads better on this colour.
    public var readableText: RGBColor {
        contrastRatio(with: .white) >= contrastRatio(with: .black) ? .white : .black
    }
}

extension RGBColor: CustomStringConvertible {
    /// `#RRGGBB`, upper-case.
    public var description: String {
        let hex = Array("0123456789ABCDEF")
        return "#" + String([red, green, blue].flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0xF)]] })
    }
}

/// How one day cell looks: a fill, a text colour, a one-column mark and a label in words, the
/// same in dark mode (`darkFill`, `darkText`), and a pattern for the statuses told apart by shape.
///
/// The mark and the label carry the status without colour (terminals without colours, screen
/// readers, printouts); the fill and text colour should have a contrast ratio of at least 4.5.
///
/// ```swift
/// let rest = DayPresentation(fill: RGBColor(hex: "#0A5CA8")!, mark: "z", label: "rest day")
/// print(rest.text, rest.terminalStyle)
/// // Prints "#FFFFFF 38;5;231;48;5;25"
/// ```
public struct DayPresentation: Hashable, Sendable {
    /// What a cell looks like beyond its fill: solid, an outline only, or hatched.
    public enum Pattern: String, Hashable, Sendable {
        /// Filled with `fill`.
        case solid
        /// The page's background with a border of `fill` (a day that asks nothing: rest).
        case outline
        /// Diagonal stripes of `fill` over the page's background (a day taken out: skipped).
        case hatched
    }

    /// The cell's background (for `outline`, the border; for `hatched`, the stripes).
    public var fill: RGBColor
    /// The day number's colour.
    public var text: RGBColor
    /// A one-column character shown beside the day number (`✓`, `◑`, `·`).
    public var mark: Character
    /// What the presentation means, in words: legends and accessible labels show it (`met`).
    public var label: String
    /// ANSI SGR parameters for a terminal cell, such as `30;42` (black on green).
    public var terminalStyle: String
    /// The fill in dark mode (HTML with `prefers-color-scheme: dark`); `nil`: `fill`.
    public var darkFill: RGBColor?
    /// The text colour in dark mode; `nil`: white or black, whichever reads better on the dark fill.
    public var darkText: RGBColor?
    /// Solid, outlined or hatched.
    public var pattern: Pattern

    /// A presentation; `text` defaults to white or black, whichever reads better on `fill`, and
    /// `terminalStyle` to xterm 256-colour codes for `text` on `fill` (the nearest of the palette
    /// every colour terminal has).
    public init(
        fill: RGBColor, text: RGBColor? = nil, mark: Character, label: String, terminalStyle: String? = nil,
        darkFill: RGBColor? = nil, darkText: RGBColor? = nil, pattern: Pattern = .solid
    ) {
        let text = text ?? fill.readableText
        self.fill = fill
        self.text = text
        self.mark = mark
        self.label = label
        self.terminalStyle = terminalStyle ?? "38;5;\(text.xterm256Index);48;5;\(fill.xterm256Index)"
        self.darkFill = darkFill
        self.darkText = darkText
        self.pattern = pattern
    }

    /// The fill and text colour in dark mode.
    public var dark: (fill: RGBColor, text: RGBColor) {
        let fill = darkFill ?? self.fill
        return (fill, darkText ?? (darkFill == nil ? text : fill.readableText))
    }

    /// This presentation with another fill (and the text colour that reads best on it), the same
    /// in dark mode, solid.
    ///
    /// ```swift
    /// let blueMet = DayPresentation.met.filled(with: RGBColor(hex: "#0A5CA8")!)
    /// print(blueMet.fill, blueMet.mark, blueMet.label)
    /// // Prints "#0A5CA8 ✓ met"
    /// ```
    public func filled(with fill: RGBColor) -> DayPresentation {
        DayPresentation(fill: fill, mark: mark, label: label)
    }

    /// Goal met: the standard palette's deepest green, white text (contrast 8.0), `✓`.
    public static var met: DayPresentation { ReportPalette.standard.met }
    /// Some points, below the goal: the standard palette's middle level, `◐` (the standard rules
    /// grade partial days by their fraction: ``ReportPalette/levels``).
    public static var partial: DayPresentation { ReportPalette.standard.partial }
    /// No points: the standard palette's light gray with dark text (contrast 14.4), `·`.
    public static var none: DayPresentation { ReportPalette.standard.none }
    /// A rest day (it required no points): an outlined cell with dark text, `○`.
    public static var rest: DayPresentation { ReportPalette.standard.rest }
    /// A skipped day: a hatched cell with dark text, `⊘`; never as dark as a day with points.
    public static var skipped: DayPresentation { ReportPalette.standard.skipped }
    /// A missed day covered by a freeze: blue with white text (contrast 4.6), `❄`.
    public static var frozen: DayPresentation { ReportPalette.standard.frozen }
    /// A day of a month shown that is outside the report's window: no status, white with dark text.
    public static let outsideWindow = DayPresentation(
        fill: .white, text: RGBColor(red: 0x3A, green: 0x3A, blue: 0x3C), mark: " ", label: "not in the report", terminalStyle: "0",
        darkFill: RGBColor(red: 0x0D, green: 0x11, blue: 0x17), darkText: RGBColor(red: 0x9D, green: 0xA7, blue: 0xB3))

    /// The standard palette's presentation of `status` (partial: its middle level).
    public static func standard(for status: DayStatus) -> DayPresentation {
        ReportPalette.standard.presentation(for: status)
    }
}

/// When a presentation rule applies to a day: by status, weekday, date range, a predicate, or all of several.
///
/// ```swift
/// let restDay: DayCondition = .all(.status(.none), .weekday(.saturday, .sunday))
/// print(restDay.matches(DayTotal(date: Day("2024-02-24"), points: 0, sessions: 0, status: .none)))
/// // Prints "true" (2024-02-24 is a Saturday)
/// ```
public struct DayCondition: Sendable {
    private enum Kind: Sendable {
        case always
        case status(Set<DayStatus>)
        case weekday(Set<Weekday>)
        case dates(ClosedRange<Day>)
        case custom(@Sendable (DayTotal) -> Bool)
        case all([DayCondition])
    }

    private let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// Every day.
    public static let always = DayCondition(.always)

    /// Days with one of `statuses`.
    public static func status(_ statuses: DayStatus...) -> DayCondition {
        DayCondition(.status(Set(statuses)))
    }

    /// Days on one of `weekdays`.
    public static func weekday(_ weekdays: Weekday...) -> DayCondition {
        DayCondition(.weekday(Set(weekdays)))
    }

    /// Days from `range.lowerBound` through `range.upperBound`.
    public static func dates(_ range: ClosedRange<Day>) -> DayCondition {
        DayCondition(.dates(range))
    }

    /// Days for which `predicate` is true; it sees the date, points, session count and status.
    ///
    /// ```swift
    /// let bigDay: DayCondition = .custom { $0.points >= 200 }
    /// ```
    public static func custom(_ predicate: @escaping @Sendable (DayTotal) -> Bool) -> DayCondition {
        DayCondition(.custom(predicate))
    }

    /// Days that meet every one of `conditions` (every day, for none).
    public static func all(_ conditions: DayCondition...) -> DayCondition {
        DayCondition(.all(conditions))
    }

    /// Whether the condition holds for `total`.
    public func matches(_ total: DayTotal) -> Bool {
        switch kind {
        case .always: true
        case .status(let statuses): statuses.contains(total.status)
        case .weekday(let weekdays): weekdays.contains(total.date.weekday)
        case .dates(let range): range.contains(total.date)
        case .custom(let predicate): predicate(total)
        case .all(let conditions): conditions.allSatisfy { $0.matches(total) }
        }
    }
}

/// A condition and the presentation of the days that meet it.
///
/// ```swift
/// let rule = DayPresentationRule(when: .status(.met), show: .met)
/// ```
public struct DayPresentationRule: Sendable {
    /// Which days the rule applies to.
    public var condition: DayCondition
    /// How those days look.
    public var presentation: DayPresentation

    public init(when condition: DayCondition, show presentation: DayPresentation) {
        self.condition = condition
        self.presentation = presentation
    }
}

/// An ordered list of presentation rules: a day looks as the first rule it meets says.
///
/// The rules are explicit and conditional, as DTTableViewManager's conditional mappings are: each has a
/// condition (status, weekday, date range, a predicate) and a presentation, and order decides. The
/// ``standard`` rules give the tutorial's colours; add your own in front of them to override, or after
/// them for days they leave out. A day no rule matches gets the standard presentation of its status.
///
/// ```swift
/// let rules = DayPresentationRules.standard
///     .prepending(when: .all(.status(.none), .weekday(.saturday, .sunday)),
///                 show: DayPresentation(fill: RGBColor(hex: "#0A5CA8")!, mark: "z", label: "rest day"))
/// let saturday = DayTotal(date: Day("2024-02-24"), points: 0, sessions: 0, status: .none)
/// print(rules.presentation(for: saturday).label, rules.legend.map(\.label))
/// // Prints "rest day ["rest day", "met", "partial", "none"]"
/// ```
public struct DayPresentationRules: Sendable {
    /// The rules, first match wins.
    public let rules: [DayPresentationRule]
    /// How days of a shown month that lie outside the report's window look.
    public let outsideWindow: DayPresentation

    public init(_ rules: [DayPresentationRule], outsideWindow: DayPresentation = .outsideWindow) {
        self.rules = rules
        self.outsideWindow = outsideWindow
    }

    /// The standard palette's rules (``ReportPalette/standard``): met deep green, partial days in
    /// three lighter greens by their fraction of the goal, none light gray; rest outlined, skipped
    /// hatched, frozen blue. Checked for colour-blind readers (``ColorVision``).
    public static var standard: DayPresentationRules { ReportPalette.standard.rules }

    /// The FSCalendar tutorial's rules: met green, partial red, none gray (``ReportPalette/tutorial``).
    public static var tutorial: DayPresentationRules { ReportPalette.tutorial.rules }

    /// These rules with `rule` first, so it wins over all of them.
    public func prepending(_ rule: DayPresentationRule) -> DayPresentationRules {
        DayPresentationRules([rule] + rules, outsideWindow: outsideWindow)
    }

    /// These rules with a rule for `condition` first.
    public func prepending(when condition: DayCondition, show presentation: DayPresentation) -> DayPresentationRules {
        prepending(DayPresentationRule(when: condition, show: presentation))
    }

    /// These rules with `rule` last, for days none of them matches.
    public func appending(_ rule: DayPresentationRule) -> DayPresentationRules {
        DayPresentationRules(rules + [rule], outsideWindow: outsideWindow)
    }

    /// These rules with a rule for `condition` last.
    public func appending(when condition: DayCondition, show presentation: DayPresentation) -> DayPresentationRules {
        appending(DayPresentationRule(when: condition, show: presentation))
    }

    /// These rules with `fill` for the days of `status`: a rule in front that shows the standard
    /// presentation of `status` (mark and label) filled with `fill`, text in white or black.
    ///
    /// ```swift
    /// let rules = DayPresentationRules.standard.filling(.met, with: RGBColor(hex: "#0A5CA8")!)
    /// print(rules.presentation(for: DayTotal(date: Day("2024-02-20"), points: 100, sessions: 1, status: .met)).fill)
    /// // Prints "#0A5CA8"
    /// ```
    public func filling(_ status: DayStatus, with fill: RGBColor) -> DayPresentationRules {
        prepending(when: .status(status), show: DayPresentation.standard(for: status).filled(with: fill))
    }

    /// These rules with another look for days outside the window.
    public func showingOutsideWindow(as presentation: DayPresentation) -> DayPresentationRules {
        DayPresentationRules(rules, outsideWindow: presentation)
    }

    /// The presentation of the first rule `total` meets, or the standard one for its status.
    public func presentation(for total: DayTotal) -> DayPresentation {
        rules.first { $0.condition.matches(total) }?.presentation ?? .standard(for: total.status)
    }

    /// The presentation of `day` in `report`: by the rules inside its window, ``outsideWindow`` outside.
    public func presentation(of day: Day, in report: StreakReport) -> DayPresentation {
        report.total(on: day).map(presentation(for:)) ?? outsideWindow
    }

    /// What a legend for `report` shows: the presentations of ``legend`` that the report's days
    /// or periods use or that belong to the scale from no points to met (a day without points,
    /// partial days at a sixth, a half and five sixths of their goal, a met day), in rule order,
    /// then those of the report's statuses that no rule shows (their standard presentations).
    public func legend(for report: StreakReport) -> [DayPresentation] {
        let day = report.days.first?.date ?? report.from
        func probe(_ status: DayStatus, points: Int) -> DayPresentation {
            presentation(for: DayTotal(date: day, points: points, sessions: points == 0 ? 0 : 1, status: status, required: 6))
        }
        // Gathered day by day, without an array of every day's presentation (a long window has millions).
        var wanted: Set<DayPresentation> = []
        var present = Set(report.periods.map(\.status))
        for total in report.days {
            wanted.insert(presentation(for: total))
            present.insert(total.status)
        }
        // Days met by any points (a period goal without a daily goal) are never partial.
        let probes: [(Int, DayStatus)] = report.rules.scoresActiveDays
            ? [(0, .none), (6, .met)] : [(0, .none), (1, .partial), (3, .partial), (5, .partial), (6, .met)]
        for (points, status) in probes {
            wanted.insert(probe(status, points: points))
        }
        let presentStatuses = DayStatus.allCases.filter(present.contains).map { probe($0, points: $0 == .none || $0 == .rest ? 0 : 3) }
        wanted.formUnion(presentStatuses)
        var shown = legend.filter(wanted.contains)
        var labels = Set(shown.map(\.label))
        for presentation in presentStatuses where labels.insert(presentation.label).inserted {
            shown.append(presentation)
        }
        return shown
    }

    /// What a legend shows: each rule's presentation in rule order, one per label.
    public var legend: [DayPresentation] {
        var seen: Set<String> = []
        return rules.map(\.presentation).filter { seen.insert($0.label).inserted }
    }
}
