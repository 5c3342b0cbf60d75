public import Streaks

/// A small, self-contained SVG card of a streak, for a README or a dashboard to embed (as
/// github-readme-streak-stats' cards are): the calendar's (or a habit's) name and goal, the
/// current streak, the longest streak with its dates, the days met, and the last weeks as a strip
/// of small squares coloured by each day's status in the palette's colours.
///
/// Under a period goal (`week:3 days`, `month:20 days`) the streaks count weeks or months, the
/// third figure counts the periods met, and the strip has a square per period. Today, when the
/// strip holds it, is outlined.
///
/// The card is `width` pixels wide (``widths``: 200 to 600) and at most ``maximumBytes`` long. It
/// has no script, no fonts, no links and nothing from outside: its text is set in a generic font
/// stack, and its colours follow the reader's light or dark mode through a `<style>` with a
/// `prefers-color-scheme` media query. Names are user text: control characters are removed, and
/// every text is cut with `…` where its estimated width (``estimatedWidth(of:size:bold:)``) would
/// run past its box; the number boxes hold five digits (more shrink the numbers).
///
/// ```swift
/// let card = StreakCard(report: report, sources: [ReportSource(file: "piano.ics")])
/// print(card.svg())
/// // <svg xmlns="http://www.w3.org/2000/svg" width="495" height="270" viewBox="0 0 495 270" ...>
/// // <title id="title">Streak card: piano</title>
/// // <desc id="desc">Current streak: 0 days; longest streak: 2 days, 2024-02-25 to 2024-02-26; days met: 3 of 10</desc>
/// // ...
/// ```
public struct StreakCard: Sendable {
    /// The report whose figures and days the card shows.
    public var report: StreakReport
    /// The habit's name, when the card is a habit's (its title; the calendars' names then come second).
    public var habitName: String?
    /// The calendars the report is about: the title names them.
    public var sources: [ReportSource]
    /// Today, outlined in the strip when it holds it.
    public var today: Day?
    /// The colours of the page and of the squares, light and dark.
    public var palette: ReportPalette
    /// The strip's first row (and the first day of its columns): a weekly goal's first weekday
    /// lines its weeks up with the columns.
    public var firstWeekday: Weekday
    /// The card's width in pixels, within ``widths`` (a width outside is brought within).
    public var width: Int {
        get { ownWidth }
        set { ownWidth = min(Self.widths.upperBound, max(Self.widths.lowerBound, newValue)) }
    }
    private var ownWidth = StreakCard.defaultWidth

    /// The widths a card can have, in pixels.
    public static let widths = 200...600
    /// The width of a card unless told otherwise (that of github-readme-streak-stats' cards).
    public static let defaultWidth = 495
    /// The most bytes a card takes, whatever its names and width (30 KB, so that a page embedding
    /// several stays light).
    public static let maximumBytes = 30 * 1024
    /// The most weeks (or periods) the strip shows, however wide the card.
    public static let maximumStripLength = 53

    /// A card of a calendar's report.
    ///
    /// - Parameters:
    ///   - report: The report, as `streakcal report` makes it.
    ///   - sources: The calendars it is about (their names make the title).
    ///   - today: Today in the report's zone, outlined in the strip (`nil`: none is).
    ///   - palette: The colours (the palette's level colours for the squares).
    ///   - width: Pixels across, brought within ``widths``.
    ///   - firstWeekday: The first day of the strip's columns.
    public init(
        report: StreakReport, sources: [ReportSource] = [], today: Day? = nil, palette: ReportPalette = .standard,
        width: Int = StreakCard.defaultWidth, firstWeekday: Weekday = .monday
    ) {
        self.report = report
        self.sources = sources
        self.today = today
        self.palette = palette
        self.firstWeekday = firstWeekday
        self.width = width
    }

    /// A card of one habit: titled with its name, its calendars' names second.
    public init(
        habit: HabitReport, sources: [ReportSource] = [], today: Day? = nil, palette: ReportPalette = .standard,
        width: Int = StreakCard.defaultWidth, firstWeekday: Weekday = .monday
    ) {
        self.init(report: habit.report, sources: sources, today: today, palette: palette, width: width, firstWeekday: firstWeekday)
        self.habitName = habit.name
    }

    // MARK: Geometry

    static let margin = 16
    /// Each strip square (days) and the space between two.
    static let dayCell = 10, dayGap = 2
    /// Each strip square under a period goal, and the space between two.
    static let periodCell = 14, periodGap = 3

    private var contentWidth: Int { width - 2 * Self.margin }

    /// How many columns the strip has: weeks of seven days, or under a period goal periods, as
    /// many as fit across the card (at most ``maximumStripLength``).
    ///
    /// ```swift
    /// print(StreakCard(report: report, width: 495).stripLength)
    /// // Prints "38"
    /// ```
    public var stripLength: Int {
        let (cell, gap) = periodGoal == nil ? (Self.dayCell, Self.dayGap) : (Self.periodCell, Self.periodGap)
        return max(1, min(Self.maximumStripLength, (contentWidth + gap) / (cell + gap)))
    }

    /// The days the strip shows, first to last: whole weeks from ``firstWeekday`` through the
    /// week holding the report's last day, or under a period goal whole periods through the one
    /// holding it. Days outside the report are drawn as outlines.
    public var stripDays: ClosedRange<Day> {
        let periods = stripPeriods
        return periods[0].lowerBound...periods[periods.count - 1].upperBound
    }

    /// The strip's columns' days: ``stripLength`` weeks or periods, in order.
    private var stripPeriods: [ClosedRange<Day>] {
        let goal = periodGoal, firstWeekday = self.firstWeekday
        func period(_ day: Day) -> ClosedRange<Day> {
            if let goal { return goal.period(containing: day) }
            let first = day.advanced(by: -day.weekday.daysSince(firstWeekday))
            return first...first.advanced(by: 6)
        }
        var periods = [period(report.to)]
        while periods.count < stripLength { periods.append(period(periods[periods.count - 1].lowerBound.advanced(by: -1))) }
        return periods.reversed()
    }

    // MARK: Drawing

    /// The SVG document, ending with a newline.
    public func svg() -> String {
        var body: [String] = []
        var y = Self.margin
        y = heading(top: y, into: &body) + 10
        y = figures(top: y, into: &body) + 10
        y = strip(top: y, into: &body)
        let height = y + Self.margin
        return ([
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
                + " role=\"img\" aria-labelledby=\"title desc\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">",
            "<title id=\"title\">\(Markup.escape("Streak card: " + (name.count > Self.longestTitledName ? name.prefix(Self.longestTitledName - 1) + "…" : name)))</title>",
            "<desc id=\"desc\">\(Markup.escape(description))</desc>",
            "<style>\(style())</style>",
            "<rect class=\"bg\" width=\"\(width)\" height=\"\(height)\" rx=\"6\"/>",
        ] + body + ["</svg>"]).joined(separator: "\n") + "\n"
    }

    /// The most characters of the name the picture's `<title>` keeps (as ``ReportSource`` keeps
    /// of a calendar's): a habit's name is not cut on its way in.
    static let longestTitledName = ReportSource.maximumNameLength

    /// What the card is of: the habit's name, else the calendars' (`Piano and Running`), else `Streaks`.
    private var name: String {
        Self.plain(habitName ?? sources.subject ?? "Streaks")
    }

    /// The unit of the streaks: `day`, `week` or `month`.
    private var unit: String { periodGoal?.unitName ?? "day" }

    /// `2 days`, `1 week`.
    private func count(_ number: Int) -> String {
        "\(number) \(number == 1 ? unit : unit + "s")"
    }

    /// The figures in words, for the picture's description (read by screen readers and shown by
    /// some viewers instead of the picture).
    private var description: String {
        let met = metFigure
        func streak(_ streak: Streak) -> String {
            guard let start = streak.start, let end = streak.end, streak.length > 0 else { return count(0) }
            return count(streak.length) + ", " + (start == end ? "\(start)" : "\(start) to \(end)")
        }
        return "Current streak: \(streak(report.currentStreak)); longest streak: \(streak(report.longestStreak)); "
            + "\(unit)s met: \(met.met) of \(met.of)"
    }

    /// The days (or periods) met, and of how many scored so far (upcoming ones left out).
    private var metFigure: (met: Int, of: Int) {
        if periodGoal != nil {
            let scored = report.periods.filter { $0.status != .upcoming }
            return (scored.filter { $0.status == .met }.count, scored.count)
        }
        let counts = report.statusCounts
        return (counts[.met] ?? 0, report.days.count - (counts[.upcoming] ?? 0))
    }

    /// The name, and under it the goal and the last day; returns the bottom.
    private func heading(top: Int, into body: inout [String]) -> Int {
        let titleSize = width < 300 ? 14 : 16
        body.append(text(Self.fitted(name, size: titleSize, bold: true, width: contentWidth), x: Self.margin, y: top + titleSize - 2,
                         size: titleSize, bold: true))
        // The goal, the last day and (on a habit's card) the calendars; where they do not fit, the
        // last day goes first, then the calendars.
        let goal = DayWords.goal(of: report) + (periodGoal == nil ? "" : ", streaks in \(unit)s")
        let calendars = habitName == nil ? nil : sources.subject.map(Self.plain)
        let candidates = [[calendars, goal, "to \(report.to)"], [calendars, goal], [goal]].map { $0.compactMap { $0 }.joined(separator: " · ") }
        let subtitle = candidates.first { Self.estimatedWidth(of: $0, size: 11) <= contentWidth } ?? goal
        let line = top + titleSize + 16
        body.append(text(Self.fitted(subtitle, size: 11, width: contentWidth), x: Self.margin, y: line, size: 11, className: "fg2"))
        return line + 4
    }

    /// One figure: a number, what it counts, and a line or two of detail.
    private struct Figure {
        var number: Int
        var label: String
        var detail: [String]
    }

    /// The three figures: the current streak and the longest with their dates, and the days met.
    private var figureList: [Figure] {
        let met = metFigure
        func dates(_ streak: Streak, none: String) -> [String] {
            guard let start = streak.start, let end = streak.end, streak.length > 0 else { return [none] }
            return start == end ? ["\(start)"] : ["\(start) –", "\(end)"]
        }
        let metLabel = unit.prefix(1).uppercased() + unit.dropFirst() + "s met"
        return [
            Figure(number: report.currentStreak.length, label: "Current streak", detail: dates(report.currentStreak, none: "not running")),
            Figure(number: report.longestStreak.length, label: "Longest streak", detail: dates(report.longestStreak, none: "none yet")),
            Figure(number: met.met, label: metLabel, detail: ["of \(count(met.of))"]),
        ]
    }

    /// The largest size up to `largest` at which `digits` digits (at least five) fit `box` in bold.
    static func numberSize(digits: Int, box: Int, largest: Int) -> Int {
        let widest = String(repeating: "8", count: max(5, digits))
        var size = largest
        while size > 6, estimatedWidth(of: widest, size: size, bold: true) > box { size -= 1 }
        return size
    }

    /// The figures side by side (three columns, when the labels fit them) or one under another;
    /// returns the bottom.
    private func figures(top: Int, into body: inout [String]) -> Int {
        let figures = figureList
        let labelSize = 12
        let column = contentWidth / 3
        let widestLabel = figures.map { Self.estimatedWidth(of: $0.label, size: labelSize) }.max() ?? 0
        if widestLabel + 12 <= column {
            let box = column - 12
            let numberSize = Self.numberSize(digits: figures.map { String($0.number).count }.max() ?? 1, box: box, largest: 28)
            for (index, figure) in figures.enumerated() {
                let centre = Self.margin + column * index + column / 2
                if index > 0 {
                    let x = Self.margin + column * index
                    body.append("<line class=\"line\" x1=\"\(x)\" y1=\"\(top + 4)\" x2=\"\(x)\" y2=\"\(top + 78)\" stroke-width=\"1\"/>")
                }
                body.append(text("\(figure.number)", x: centre, y: top + 28, size: numberSize, bold: true, anchor: "middle"))
                body.append(text(Self.fitted(figure.label, size: labelSize, width: box), x: centre, y: top + 46, size: labelSize, anchor: "middle"))
                for (line, detail) in details(figure.detail, size: 10, width: box).enumerated() {
                    body.append(text(detail, x: centre, y: top + 61 + 13 * line, size: 10, anchor: "middle", className: "fg2"))
                }
            }
            return top + 82
        }
        // One under another: the label and the detail on the left, the number on the right.
        let digits = figures.map { String($0.number).count }.max() ?? 1
        let numberSize = Self.numberSize(digits: digits, box: contentWidth * 2 / 5, largest: 22)
        let numberBox = Self.estimatedWidth(of: String(repeating: "8", count: max(5, digits)), size: numberSize, bold: true)
        let left = contentWidth - numberBox - 8
        var y = top
        for (index, figure) in figures.enumerated() {
            if index > 0 {
                body.append("<line class=\"line\" x1=\"\(Self.margin)\" y1=\"\(y)\" x2=\"\(Self.margin + contentWidth)\" y2=\"\(y)\" stroke-width=\"1\"/>")
            }
            body.append(text("\(figure.number)", x: Self.margin + contentWidth, y: y + 28, size: numberSize, bold: true, anchor: "end"))
            body.append(text(Self.fitted(figure.label, size: 11, width: left), x: Self.margin, y: y + 16, size: 11))
            for (line, detail) in details(figure.detail, size: 10, width: left).enumerated() {
                body.append(text(detail, x: Self.margin, y: y + 30 + 12 * line, size: 10, className: "fg2"))
            }
            y += 48
        }
        return y - 4
    }

    /// A figure's detail lines: joined on one line when they fit `width`, else one per line,
    /// each cut to `width`.
    private func details(_ lines: [String], size: Int, width: Int) -> [String] {
        let joined = lines.joined(separator: " ")
        if Self.estimatedWidth(of: joined, size: size) <= width { return [joined] }
        return lines.map { Self.fitted($0, size: size, width: width) }
    }

    /// The caption and the strip of squares, a day each (a column per week, a row per weekday) or
    /// a period each; returns the bottom.
    private func strip(top: Int, into body: inout [String]) -> Int {
        let periods = stripPeriods
        let isDaily = periodGoal == nil
        let caption = isDaily ? "The last \(periods.count) weeks" : "The last \(count(periods.count))"
        body.append(text(Self.fitted(caption, size: 11, width: contentWidth), x: Self.margin, y: top + 11, size: 11, className: "fg2"))
        let (cell, gap) = isDaily ? (Self.dayCell, Self.dayGap) : (Self.periodCell, Self.periodGap)
        let stripWidth = periods.count * (cell + gap) - gap
        let left = Self.margin + (contentWidth - stripWidth) / 2
        let stripTop = top + 18
        body.append("<g class=\"strip\" data-first-day=\"\(periods[0].lowerBound)\" data-last-day=\"\(periods[periods.count - 1].upperBound)\">")
        for (column, period) in periods.enumerated() {
            let x = left + column * (cell + gap)
            if isDaily {
                for row in 0..<7 {
                    let day = period.lowerBound.advanced(by: row)
                    let kind = report.total(on: day).map(Self.squareClass(of:)) ?? "up"
                    body.append(square(x: x, y: stripTop + row * (cell + gap), size: cell, kind: kind, isToday: day == today))
                }
            } else {
                let kind = periodTotal(period).map(Self.squareClass(of:)) ?? "up"
                body.append(square(x: x, y: stripTop, size: cell, kind: kind, isToday: today.map(period.contains) ?? false))
            }
        }
        body.append("</g>")
        return stripTop + (isDaily ? 7 * (cell + gap) - gap : cell)
    }

    /// The report's total of a period of the strip, if the window overlaps it (its first period
    /// may start before the window).
    private func periodTotal(_ period: ClosedRange<Day>) -> PeriodTotal? {
        // From the end: the strip shows the last periods.
        report.periods.last { $0.days.overlaps(period) }
    }

    private func square(x: Int, y: Int, size: Int, kind: String, isToday: Bool) -> String {
        "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(size)\" height=\"\(size)\" rx=\"2\" class=\"\(kind)\(isToday ? " today" : "")\"/>"
    }

    /// The goal of calendar periods the card counts in, if any: a rolling goal (`7 days:3 days`)
    /// counts days, as a daily one does (its covered days are squares of their own).
    private var periodGoal: PeriodGoal? {
        report.rules.periodGoal.flatMap { $0.isRolling ? nil : $0 }
    }

    /// A day's square's class: `l0` (no points) to `l4` (met) as ``ReportPalette/level(of:)``
    /// says, else `rest`, `skip`, `frz` (frozen), `over`, `cov` (covered by a rolling goal's
    /// window) or `up` (upcoming, or outside the report).
    static func squareClass(of total: DayTotal) -> String {
        // The palette's level of a day over an at-most limit is 0; its colour is its own.
        if total.status == .over { return "over" }
        if let level = ReportPalette.level(of: total) { return "l\(level)" }
        return statusClass(total.status)
    }

    /// A period's square's class: by its status, a partial one by its progress as a day's is.
    static func squareClass(of period: PeriodTotal) -> String {
        switch period.status {
        case .none: return "l0"
        case .met: return "l4"
        case .partial: return period.fraction * 3 < 1 ? "l1" : period.fraction * 3 < 2 ? "l2" : "l3"
        default: return statusClass(period.status)
        }
    }

    private static func statusClass(_ status: DayStatus) -> String {
        switch status {
        case .rest: "rest"
        case .skipped: "skip"
        case .frozen: "frz"
        case .over: "over"
        case .none: "l0"
        case .partial: "l2"
        case .met: "l4"
        case .upcoming: "up"
        case .covered: "cov"
        }
    }

    /// The squares' presentations by class: the palette's levels and statuses.
    var squarePresentations: [(className: String, presentation: DayPresentation)] {
        palette.levels.enumerated().map { ("l\($0.offset)", $0.element) }
            + [("rest", palette.rest), ("skip", palette.skipped), ("frz", palette.frozen), ("over", palette.over), ("up", palette.upcoming),
               ("cov", palette.covered)]
    }

    /// The colours, light, then dark in a `prefers-color-scheme: dark` media query.
    private func style() -> String {
        func rules(_ page: ReportPalette.Page, dark: Bool) -> String {
            var rules = [".bg{fill:\(page.background)}", ".fg{fill:\(page.text)}", ".fg2{fill:\(page.secondaryText)}", ".line{stroke:\(page.border)}"]
            for (className, presentation) in squarePresentations {
                let fill = dark ? presentation.darkFill ?? presentation.fill : presentation.fill
                let paint: String
                switch presentation.pattern {
                case .outline:
                    paint = "fill:\(page.background);stroke:\(fill);stroke-width:1.5"
                case .solid, .hatched:
                    // Hatching would take a pattern referred to by url(): a stripe of the fill's
                    // colour stands for it (the card refers to nothing).
                    var solid = "fill:\(fill)"
                    if palette.bordersEveryCell || fill.contrastRatio(with: page.background) < 1.5 {
                        solid += ";stroke:\(palette.bordersEveryCell ? page.border : fill.mixed(with: page.text, 0.25));stroke-width:1"
                    }
                    paint = solid
                }
                rules.append(".\(className){\(paint)}")
            }
            rules.append(".today{stroke:\(page.today);stroke-width:2}")
            return rules.joined(separator: " ")
        }
        return rules(palette.page, dark: false) + " @media (prefers-color-scheme: dark){" + rules(palette.darkPage, dark: true) + "}"
    }

    private func text(
        _ content: String, x: Int, y: Int, size: Int, bold: Bool = false, anchor: String? = nil, className: String = "fg"
    ) -> String {
        var attributes = "x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" class=\"\(className)\""
        if bold { attributes += " font-weight=\"bold\"" }
        if let anchor { attributes += " text-anchor=\"\(anchor)\"" }
        return "<text \(attributes)>\(Markup.escape(content))</text>"
    }

    // MARK: Text

    /// `text` as the card shows it: control characters and bidirectional controls removed (a
    /// name must not reorder the card's text), runs of white space made one space, trimmed.
    ///
    /// ```swift
    /// print(StreakCard.plain("Piano\u{07}\n\u{202E}practice "))
    /// // Prints "Piano practice"
    /// ```
    public static func plain(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            let value = scalar.value
            if scalar.properties.generalCategory == .control || value == 0x061C || value == 0x200E || value == 0x200F
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0xFFFE || value == 0xFFFF {
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        return String(result)
    }

    /// A generous estimate of how wide `text` is at `size` pixels, in whole pixels: each character
    /// at the advance of the widest of DejaVu Sans and Verdana in its class (digits 0.64 em, most
    /// lower-case letters 0.65, capitals 0.8, `m`, `w`, `M`, `W` 1, ideographs 1, emoji 1.25),
    /// bold 12 % wider.
    ///
    /// ```swift
    /// print(StreakCard.estimatedWidth(of: "12345", size: 28, bold: true))
    /// // Prints "101"
    /// ```
    public static func estimatedWidth(of text: String, size: Int, bold: Bool = false) -> Int {
        let hundredths = text.reduce(0) { $0 + advance($1) }
        return (hundredths * size * (bold ? 112 : 100) + 9_999) / 10_000
    }

    /// A character's advance in hundredths of an em (see ``estimatedWidth(of:size:bold:)``).
    static func advance(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        switch scalar.value {
        case 0x20: return 35
        case 0x21, 0x27, 0x2C, 0x2E, 0x3A, 0x3B, 0x69, 0x6A, 0x6C, 0x7C: return 40  // ! ' , . : ; i j l |
        case 0x28, 0x29, 0x2D, 0x2F, 0x49, 0x4A, 0x5B, 0x5D, 0x66, 0x72, 0x74, 0x60: return 45  // ( ) - / I J [ ] f r t `
        case 0x30...0x39: return 64
        case 0x4D, 0x57, 0x6D, 0x77, 0x40, 0x25: return 100  // M W m w @ %
        case 0x23, 0x26, 0x2B, 0x3C...0x3E, 0x5E, 0x7E: return 85  // # & + < = > ^ ~
        case 0x41...0x5A: return 80
        case 0x21...0x7E: return 65
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 100
        case 0x2600...0x27BF, 0x1F000...0x1FAFF: return 125
        case 0x2026, 0x2014: return 100  // … —
        default: return character.isUppercase ? 80 : 90
        }
    }

    /// `text` (made ``plain(_:)``) as it is, or cut and ended with `…` where it would be wider than
    /// `width` at `size`; empty when not even `…` fits.
    ///
    /// ```swift
    /// print(StreakCard.fitted("Piano practice every morning", size: 12, width: 120))
    /// // Prints "Piano practice…"
    /// ```
    public static func fitted(_ text: String, size: Int, bold: Bool = false, width: Int) -> String {
        let text = plain(text)
        if estimatedWidth(of: text, size: size, bold: bold) <= width { return text }
        let factor = size * (bold ? 112 : 100)
        var kept = ""
        var used = advance("…")
        for character in text {
            used += advance(character)
            guard (used * factor + 9_999) / 10_000 <= width else { break }
            kept.append(character)
        }
        while kept.last == " " { kept.removeLast() }
        return (advance("…") * factor + 9_999) / 10_000 <= width ? kept + "…" : ""
    }
}
