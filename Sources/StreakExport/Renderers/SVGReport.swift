import CalendarLayout
package import CalendarDiagnostics
package import Streaks

/// A streak report as a standalone SVG picture: a heading that names the calendars, the figures, a
/// legend, and the days as month grids or, for long windows, as a heatmap per year.
///
/// The geometry comes from `CalendarLayout` (`MonthLayout` for `monthWidth`, `YearLayout` for the
/// year view); every coordinate is a whole number, so the same input gives the same bytes. Each day
/// of the window is a group `<g id="day-YYYY-MM-DD">` with a `<title>` (date, status label,
/// points) and a `<rect>` filled as the presentation rules say; month grids add the day number and
/// the rule's mark, so status is readable without colour too. Rest days are outlined and skipped
/// days hatched, as the palette says; today (when in the window) is outlined. The count of
/// diagnostics and the first few close the picture. Text from outside (names, zone, labels, marks,
/// messages) is XML-escaped.
///
/// ```swift
/// let svg = SVGReport(report: report, sources: [ReportSource(file: "piano.ics")]).render()
/// // <svg xmlns="http://www.w3.org/2000/svg" width="540" height="..." viewBox="0 0 540 ..." ...>
/// // <title id="title">Streak report: piano, 2024-02-20 to 2024-02-29</title>
/// // ...
/// // <g id="day-2024-02-20" class="day met"><title>Tuesday, 20 February 2024: met, 100 of 100 points, 1 session</title>
/// // <rect x="..." y="..." width="40" height="40" rx="6" fill="#0A5C45"/>...
/// ```
package struct SVGReport: Sendable {
    /// The report to draw.
    package var report: StreakReport
    /// How days look.
    package var rules: DayPresentationRules
    /// The first column of each week (the first row of a year view).
    package var firstWeekday: Weekday
    /// Months side by side (at least 1).
    package var monthsPerRow: Int
    /// The width of one month grid, in pixels (at least 140); cells are square.
    package var monthWidth: Int
    /// Named habits, each drawn below the report as a section of its own (ids prefixed `habitN-`).
    package var habits: [HabitReport]
    /// The calendars the report is about, named in the title and heading.
    package var sources: [ReportSource]
    /// What the import said: counted at the end, the first few shown.
    package var diagnostics: [Diagnostic]
    /// Month grids, or heatmaps (`nil`: ``ReportView/automatic(for:today:)``).
    package var view: ReportView?
    /// Today, outlined when it is in the window.
    package var today: Day?
    /// The page's colours (the days' come from `rules`).
    package var palette: ReportPalette

    package init(
        report: StreakReport, rules: DayPresentationRules = .standard, firstWeekday: Weekday = .sunday,
        monthsPerRow: Int = 3, monthWidth: Int = 308, habits: [HabitReport] = [], sources: [ReportSource] = [],
        diagnostics: [Diagnostic] = [], view: ReportView? = nil, today: Day? = nil, palette: ReportPalette = .standard
    ) {
        self.report = report
        self.habits = habits
        self.rules = rules
        self.firstWeekday = firstWeekday
        self.monthsPerRow = max(1, monthsPerRow)
        self.monthWidth = max(140, monthWidth)
        self.sources = sources
        self.diagnostics = diagnostics
        self.view = view
        self.today = today
        self.palette = palette
    }

    static let margin = 24
    static let gap = 24
    static let minimumContentWidth = 492
    /// The year view's cells and the bands for its labels.
    static let yearCell = 14
    static let yearGap = 3
    static let yearLabelWidth = 34
    static let yearLabelHeight = 18

    private var page: ReportPalette.Page { palette.page }
    /// The widest line of text a picture makes room for; longer ones are cut with `…`.
    static let maximumTextWidth = 1_100
    /// The width of the picture's content (set by `render()` before drawing).
    private var contentWidth = minimumContentWidth
    private var resolvedView: ReportView { view ?? .automatic(for: report, today: today) }

    /// The SVG document, ending with a newline.
    package func render() -> String {
        var drawing = self
        return drawing.draw()
    }

    private mutating func draw() -> String {
        let months = ReportView.drawnMonths(of: report)
        let columns = max(1, min(monthsPerRow, months.count))
        var contentWidth = max(SVGReport.minimumContentWidth, columns * monthWidth + (columns - 1) * SVGReport.gap)
        if resolvedView.drawsHeatmaps {
            let widest = resolvedView.heatmaps(of: report, firstWeekday: firstWeekday).map(\.grid.weekCount).max() ?? 53
            contentWidth = max(SVGReport.minimumContentWidth, SVGReport.yearLabelWidth + widest * (SVGReport.yearCell + SVGReport.yearGap) - SVGReport.yearGap)
        }
        let heading = ReportHeading(sources: sources, report: report)
        // Wide enough for the heading and the figures too, within reason (longer lines are cut).
        let longest = max(
            SVGReport.estimatedWidth(of: heading.title, size: 22),
            figureLines(of: report, isMain: true).map { SVGReport.estimatedWidth(of: $0, size: 14) }.max() ?? 0)
        contentWidth = max(contentWidth, min(SVGReport.maximumTextWidth, longest))
        self.contentWidth = contentWidth
        let width = contentWidth + 2 * SVGReport.margin
        let metrics = LayoutMetrics(width: monthWidth, headerHeight: 56)

        var body: [String] = []
        var y = section(
            of: report, heading: heading.title, idPrefix: "", top: SVGReport.margin,
            columns: columns, metrics: metrics, into: &body)
        if resolvedView.drawsHeatmaps {
            y = progress(top: y, into: &body)
        }
        if !habits.isEmpty {
            y = habitsOverview(top: y, into: &body)
        }
        for (index, habit) in habits.enumerated() {
            if habit.repeats(report) {
                body.append(text("Habit: \(habit.name): \(HabitReport.repeatsCalendar) above", x: SVGReport.margin, y: y + 16, size: 14))
                y += 16 + SVGReport.gap
                continue
            }
            y = section(
                of: habit.report, heading: "Habit: \(habit.name)", idPrefix: "habit\(index + 1)-", top: y,
                columns: columns, metrics: metrics, into: &body)
        }
        y = diagnosticLines(top: y, width: contentWidth, into: &body)
        let height = y - SVGReport.gap + SVGReport.margin

        let description = ReportFigures(report, sources: sources).rows.map { "\($0.name): \($0.value)" }.joined(separator: "; ")
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
                + " role=\"img\" aria-labelledby=\"title desc\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">",
            "<title id=\"title\">\(Markup.escape(heading.title))</title>",
            "<desc id=\"desc\">\(Markup.escape(description))</desc>",
        ]
        svg.append(contentsOf: patternDefinitions())
        svg.append("<rect width=\"\(width)\" height=\"\(height)\" fill=\"\(page.background)\"/>")
        svg.append(contentsOf: body)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// A hatch pattern for each hatched presentation the picture uses (`hatch-RRGGBB`).
    private func patternDefinitions() -> [String] {
        var fills: [RGBColor] = []
        for report in [report] + habits.map(\.report) {
            var used: Set<DayPresentation> = []
            for total in report.days { used.insert(rules.presentation(for: total)) }
            for presentation in Array(used) + rules.legend(for: report)
            where presentation.pattern == .hatched && !fills.contains(presentation.fill) {
                fills.append(presentation.fill)
            }
        }
        guard !fills.isEmpty else { return [] }
        var lines = ["<defs>"]
        for fill in fills.sorted(by: { $0.description < $1.description }) {
            lines.append("<pattern id=\"hatch-\(fill.description.dropFirst())\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                + "<rect width=\"6\" height=\"6\" fill=\"\(page.background)\"/><rect width=\"3\" height=\"6\" fill=\"\(fill)\"/></pattern>")
        }
        lines.append("</defs>")
        return lines
    }

    /// The fill and stroke attributes of a cell: solid, outlined (background with a border) or
    /// hatched, with a thin border where the fill is close to the background.
    private func paint(_ presentation: DayPresentation, isToday: Bool = false) -> String {
        var attributes: String
        switch presentation.pattern {
        case .solid:
            attributes = "fill=\"\(presentation.fill)\""
            if palette.bordersEveryCell || presentation.fill.contrastRatio(with: page.background) < 1.5 {
                attributes += " stroke=\"\(palette.bordersEveryCell ? page.border : presentation.fill.mixed(with: page.text, 0.25))\" stroke-width=\"1\""
            }
        case .outline:
            attributes = "fill=\"\(page.background)\" stroke=\"\(presentation.fill)\" stroke-width=\"1.5\""
        case .hatched:
            attributes = "fill=\"url(#hatch-\(presentation.fill.description.dropFirst()))\" stroke=\"\(presentation.fill)\" stroke-width=\"1\""
        }
        if isToday {
            attributes = attributes.replacing(#/ stroke="[^"]*" stroke-width="[^"]*"/#, with: "")
                + " stroke=\"\(page.today)\" stroke-width=\"2\""
        }
        return attributes
    }

    /// Draws a report's heading, figures, legend and days from `top` down; returns the top of
    /// what comes next.
    private func section(
        of report: StreakReport, heading: String, idPrefix: String, top: Int, columns: Int, metrics: LayoutMetrics,
        into body: inout [String]
    ) -> Int {
        let x0 = SVGReport.margin
        var y = top + 22
        body.append(text(cut(heading, size: 20), x: x0, y: y, size: 20, weight: "bold"))
        let lines = figureLines(of: report, isMain: idPrefix.isEmpty)
        y += 8
        for line in lines {
            y += 22
            body.append(text(cut(line, size: 14), x: x0, y: y, size: 14))
        }
        if let note = ReportView.drawingNote(for: report) {
            y += 22
            body.append(text(cut("Note: " + note + ".", size: 14), x: x0, y: y, size: 14, color: "\(page.secondaryText)"))
        }
        y += 18
        if resolvedView == .hours {
            let hours = HoursView(hours: report.weekdayHours ?? WeekdayHours(), zone: report.goal.timeZone.identifier)
            let drawn = hours.svgElements(left: x0, top: y, palette: palette)
            body.append(contentsOf: drawn.elements)
            return drawn.bottom
        }
        if resolvedView.drawsHeatmaps {
            y = yearLegend(for: report, top: y, into: &body) + 20
            for heatmap in resolvedView.heatmaps(of: report, firstWeekday: firstWeekday) {
                y = draw(heatmap, of: report, idPrefix: idPrefix, top: y, into: &body)
            }
            return y
        }
        y = monthLegend(for: report, top: y, into: &body) + 20

        // The months, `columns` to a row.
        let months = ReportView.drawnMonths(of: report)
        var rowTop = y
        var first = 0
        while first < months.count {
            var rowHeight = 0
            for (column, month) in months[first..<min(first + columns, months.count)].enumerated() {
                let grid = MonthGrid(month: month, firstWeekday: firstWeekday, outOfMonthDays: .hidden)
                let layout = MonthLayout(grid: grid, metrics: metrics, x: x0 + column * (monthWidth + SVGReport.gap), y: rowTop)
                body.append(contentsOf: draw(layout, of: report, idPrefix: idPrefix))
                rowHeight = max(rowHeight, layout.height)
            }
            rowTop += rowHeight + SVGReport.gap
            first += columns
        }
        return rowTop
    }

    /// The calendar's progress charts (`ProgressCharts`) from `top`; returns the top of what comes next.
    private func progress(top: Int, into body: inout [String]) -> Int {
        let charts = ProgressCharts(report: report, width: contentWidth, firstWeekday: firstWeekday) { role, isStroke in
            let color: RGBColor = switch role {
            case .data: palette.met.fill
            case .goal, .text: page.text
            case .secondary: page.secondaryText
            }
            return isStroke ? "stroke=\"\(color)\"" : "fill=\"\(color)\""
        }
        let (elements, height) = charts.charts(top: 0)
        body.append("<g class=\"progress\" id=\"progress\" transform=\"translate(\(SVGReport.margin),\(top))\">")
        body.append(contentsOf: elements)
        body.append("</g>")
        return top + height + SVGReport.gap
    }

    /// The habits side by side, as Loop's main screen: a row per habit with its last days as
    /// squares (up to 30, as many as fit), its current streak and its score.
    private func habitsOverview(top: Int, into body: inout [String]) -> Int {
        let nameWidth = 150, cell = 14, pitch = 17, figuresWidth = 190
        let dayCount = max(7, min(30, (contentWidth - nameWidth - figuresWidth) / pitch))
        var lines = ["<g class=\"habits\" id=\"habits\">", text("Habits, the last \(dayCount) days", x: SVGReport.margin, y: top + 18, size: 16, weight: "bold")]
        for (index, habit) in habits.enumerated() {
            let y = top + 32 + index * (pitch + 6)
            let name = habit.name.count > 20 ? habit.name.prefix(19) + "…" : habit.name
            lines.append(text(name, x: SVGReport.margin, y: y + 12, size: 13, weight: "bold"))
            for (column, total) in habit.report.days.suffix(dayCount).enumerated() {
                let presentation = rules.presentation(for: total)
                let title = "\(habit.name), \(CalendarNames.long(total.date)): \(presentation.label), \(pointsText(total))"
                lines.append("<rect x=\"\(SVGReport.margin + nameWidth + column * pitch)\" y=\"\(y)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"3\" "
                    + "\(paint(presentation, isToday: total.date == today))><title>\(Markup.escape(title))</title></rect>")
            }
            let figures = "streak \(habit.report.currentStreak.length) · score \(TextReport.percent(habit.report.score))"
            lines.append(text(figures, x: SVGReport.margin + nameWidth + dayCount * pitch + 8, y: y + 12, size: 12, color: "\(page.secondaryText)"))
        }
        lines.append("</g>")
        body.append(contentsOf: lines)
        return top + 32 + habits.count * (pitch + 6) + SVGReport.gap
    }

    /// The figures under a section's heading, one line each.
    private func figureLines(of report: StreakReport, isMain: Bool) -> [String] {
        let figures = Dictionary(ReportFigures(report).rows.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let goal = report.goal
        var lines: [String] = []
        if isMain, let calendars = ReportHeading(sources: sources, report: report).calendarsRow {
            lines.append("\(calendars.name): \(calendars.value)")
        }
        lines += [
            "Goal: \(figures["Goal"] ?? ""), \(goal.timeZone.identifier), days start at \(goal.dayStart)",
            "Current streak: \(figures["Current streak"] ?? "")",
            "Longest streak: \(figures["Longest streak"] ?? "")",
            "Days: \(figures["Days"] ?? "") · \(DayWords.total(of: report).name): \(DayWords.total(of: report).value)",
        ]
        return lines + ReportFigures.ruleRows(report).map { "\($0.name): \($0.value)" } + ReportFigures.bestStreakLines(report, aligned: false)
    }

    /// `line` cut with `…` where it would run past the content's width at `size`.
    private func cut(_ line: String, size: Int) -> String {
        let characters = max(8, contentWidth * 100 / (size * 60))
        return line.count > characters ? String(line.prefix(characters - 1)) + "…" : line
    }

    /// A swatch with the mark, then the label, for each presentation the report shows, wrapping
    /// at the content's width; returns the swatches' bottom.
    private func monthLegend(for report: StreakReport, top: Int, into body: inout [String]) -> Int {
        var (x, y) = (SVGReport.margin, top)
        for presentation in rules.legend(for: report) {
            let needed = 30 + SVGReport.estimatedWidth(of: presentation.label, size: 14)
            if x > SVGReport.margin, x + needed > SVGReport.margin + contentWidth {
                x = SVGReport.margin
                y += 30
            }
            x = swatch(presentation, x: x, y: y, label: presentation.label, into: &body)
        }
        return y + 22
    }

    /// Draws one swatch (22 points, the mark inside) and its label; returns where the next one goes.
    private func swatch(_ presentation: DayPresentation, x: Int, y: Int, label: String, into body: inout [String]) -> Int {
        body.append("<rect x=\"\(x)\" y=\"\(y)\" width=\"22\" height=\"22\" rx=\"5\" \(paint(presentation))/>")
        body.append(text(String(presentation.mark), x: x + 11, y: y + 16, size: 13, color: "\(presentation.text)", anchor: "middle"))
        body.append(text(label, x: x + 30, y: y + 16, size: 14))
        return x + 30 + SVGReport.estimatedWidth(of: label, size: 14) + 20
    }

    /// The year view's legend: `Less`, the scale's swatches, `More`; then the other statuses and
    /// today's outline, wrapping to a second line when they do not fit. Returns the bottom.
    private func yearLegend(for report: StreakReport, top: Int, into body: inout [String]) -> Int {
        let (scale, others) = rules.intensityLegend(for: report)
        var y = top
        var x = SVGReport.margin
        body.append(text("Less", x: x, y: y + 16, size: 14, color: "\(page.secondaryText)"))
        x += SVGReport.estimatedWidth(of: "Less", size: 14) + 8
        for presentation in scale {
            body.append("<g><title>\(Markup.escape(presentation.label))</title>"
                + "<rect x=\"\(x)\" y=\"\(y)\" width=\"22\" height=\"22\" rx=\"5\" \(paint(presentation))/>"
                + text(String(presentation.mark), x: x + 11, y: y + 16, size: 13, color: "\(presentation.text)", anchor: "middle") + "</g>")
            x += 26
        }
        body.append(text("More", x: x + 4, y: y + 16, size: 14, color: "\(page.secondaryText)"))
        x += 4 + SVGReport.estimatedWidth(of: "More", size: 14) + 24
        // The scale's labels, in words, below it.
        let words = scale.map { "\($0.mark) \($0.label)" }.joined(separator: " · ")
        var extras: [(DayPresentation, String)] = others.map { ($0, $0.label) }
        if let today, report.total(on: today) != nil {
            extras.append((DayPresentation(fill: page.background, text: page.text, mark: " ", label: "today"), "today"))
        }
        for (presentation, label) in extras {
            let needed = 30 + SVGReport.estimatedWidth(of: label, size: 14) + 20
            if x + needed > SVGReport.margin + contentWidth {
                x = SVGReport.margin
                y += 30
            }
            if label == "today" {
                body.append("<rect x=\"\(x)\" y=\"\(y)\" width=\"22\" height=\"22\" rx=\"5\" fill=\"\(page.background)\" stroke=\"\(page.today)\" stroke-width=\"2\"/>")
                body.append(text(label, x: x + 30, y: y + 16, size: 14))
                x += needed
            } else {
                x = swatch(presentation, x: x, y: y, label: label, into: &body)
            }
        }
        y += 22 + 20
        body.append(text(words, x: SVGReport.margin, y: y, size: 12, color: "\(page.secondaryText)"))
        return y
    }

    /// One heatmap from `top` down (a year's, or the rolling weeks'): its title, month labels,
    /// weekday labels (Mon, Wed, Fri) and a cell per day of the window. Returns the top of what comes next.
    private func draw(
        _ heatmap: (grid: YearGrid, title: String, id: String), of report: StreakReport, idPrefix: String, top: Int, into body: inout [String]
    ) -> Int {
        let grid = heatmap.grid
        let layout = YearLayout(
            grid: grid, cellSize: SVGReport.yearCell, gap: SVGReport.yearGap, labelWidth: SVGReport.yearLabelWidth,
            labelHeight: SVGReport.yearLabelHeight, x: SVGReport.margin, y: top + 28)
        var lines = ["<g class=\"year\" id=\"\(idPrefix)\(heatmap.id)\">", text(heatmap.title, x: SVGReport.margin, y: top + 18, size: 16, weight: "bold")]
        let columns = grid.monthColumns
        for (index, (month, _)) in columns.enumerated() {
            // A label needs two columns to itself; the last month's may run into the margin on the
            // right, so that a rolling grid ending in a month's first days names that month.
            let isLast = index == columns.count - 1
            guard let frame = layout.monthLabelFrame(at: index), frame.width >= (isLast ? 1 : 2) * SVGReport.yearCell else { continue }
            lines.append(text(String(CalendarNames.months[month - 1].prefix(3)), x: frame.x, y: frame.maxY - 5, size: 11, color: "\(page.secondaryText)"))
        }
        for row in 0..<7 where [Weekday.monday, .wednesday, .friday].contains(grid.weekday(ofRow: row)) {
            let frame = layout.weekdayLabelFrame(row: row)
            let name = String(CalendarNames.weekdays[grid.weekday(ofRow: row).rawValue].prefix(3))
            lines.append(text(name, x: frame.x, y: frame.maxY - 2, size: 11, color: "\(page.secondaryText)"))
        }
        let window = report.from...report.to
        let days = grid.days.clamped(to: window)
        if !days.isEmpty, window.overlaps(grid.days) {
            for number in days.lowerBound.daysSince1970...days.upperBound.daysSince1970 {
                let day = Day(daysSince1970: number)
                guard let total = report.total(on: day), let frame = layout.frame(of: day) else { continue }
                let presentation = rules.presentation(for: total)
                let title = "\(CalendarNames.long(day)): \(presentation.label), \(pointsText(total))"
                lines.append("<g id=\"\(idPrefix)day-\(day)\" class=\"day \(total.status.rawValue)\"><title>\(Markup.escape(title))</title>"
                    + "<rect x=\"\(frame.x)\" y=\"\(frame.y)\" width=\"\(frame.width)\" height=\"\(frame.height)\" rx=\"3\" \(paint(presentation, isToday: day == today))/></g>")
            }
        }
        lines.append("</g>")
        body.append(contentsOf: lines)
        return layout.frame.maxY + SVGReport.gap
    }

    private func draw(_ layout: MonthLayout, of report: StreakReport, idPrefix: String) -> [String] {
        let header = layout.headerFrame
        var lines = ["<g class=\"month\" id=\"\(idPrefix)month-\(layout.grid.month)\">"]
        lines.append(text(CalendarNames.title(of: layout.grid.month), x: header.x + header.width / 2, y: header.y + 20, size: 16, weight: "bold", anchor: "middle"))
        for column in 0..<7 {
            let frame = layout.cellFrame(row: 0, column: column)
            let name = CalendarNames.weekdayAbbreviations[firstWeekday.advanced(by: column).rawValue]
            lines.append(text(name, x: frame.x + frame.width / 2, y: header.maxY - 10, size: 12, color: "\(page.secondaryText)", anchor: "middle"))
        }
        for placed in layout.cells where placed.isInMonth {
            lines.append(contentsOf: draw(placed, of: report, idPrefix: idPrefix))
        }
        lines.append("</g>")
        return lines
    }

    private func draw(_ placed: PlacedDayCell, of report: StreakReport, idPrefix: String) -> [String] {
        let day = placed.day
        let frame = placed.frame
        let presentation = rules.presentation(of: day, in: report)
        let (x, y, w, h) = (frame.x + 2, frame.y + 2, frame.width - 4, frame.height - 4)
        let centre = x + w / 2
        var title = CalendarNames.long(day)
        var group = "<g"
        if let total = report.total(on: day) {
            title += ": \(presentation.label), \(pointsText(total))"
            group += " id=\"\(idPrefix)day-\(day)\" class=\"day \(total.status.rawValue)\""
        } else {
            title += ": not in the report"
            group += " class=\"day outside\""
        }
        var lines = [
            group + "><title>\(Markup.escape(title))</title>",
            "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(w)\" height=\"\(h)\" rx=\"6\" \(paint(presentation, isToday: day == today && report.total(on: day) != nil))/>",
            text(String(day.dayOfMonth), x: centre, y: y + h / 2 + 2, size: 15, weight: "bold", color: "\(presentation.text)", anchor: "middle"),
        ]
        if presentation.mark != " " {
            lines.append(text(String(presentation.mark), x: centre, y: y + h - 5, size: 11, color: "\(presentation.text)", anchor: "middle"))
        }
        lines.append("</g>")
        return lines
    }

    /// The count of diagnostics and the first few, one line each (cut to the picture's width);
    /// returns the top of what comes next.
    private func diagnosticLines(top: Int, width: Int, into body: inout [String]) -> Int {
        let tally = DiagnosticTally(diagnostics: diagnostics)
        guard let summary = tally.summary else { return top }
        var y = top + 4
        body.append("<g class=\"diagnostics\">")
        body.append(text("\(summary):", x: SVGReport.margin, y: y + 16, size: 14, weight: "bold"))
        y += 24
        let (shown, more) = tally.brief
        for line in shown + (more > 0 ? ["and \(more) more"] : []) {
            body.append(text(cut(line, size: 12), x: SVGReport.margin, y: y + 14, size: 12, color: "\(page.secondaryText)"))
            y += 20
        }
        body.append("</g>")
        return y + SVGReport.gap
    }

    private func pointsText(_ total: DayTotal) -> String {
        DayWords.points(total, unit: report.goal.unit, activeDays: report.rules.scoresActiveDays)
    }

    private func text(
        _ content: String, x: Int, y: Int, size: Int, weight: String? = nil,
        color: String? = nil, anchor: String? = nil
    ) -> String {
        var attributes = "x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" fill=\"\(color ?? page.text.description)\""
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        if let anchor { attributes += " text-anchor=\"\(anchor)\"" }
        return "<text \(attributes)>\(Markup.escape(content))</text>"
    }

    /// A generous estimate of a text's width: 0.6 em per character.
    static func estimatedWidth(of text: String, size: Int) -> Int {
        (text.count * size * 60 + 99) / 100
    }
}

/// The SVG format: the calendar's report (below), with a section per habit; at most
/// ``ReportView/maximumDrawnYears`` years are drawn.
///
/// A streak report as a standalone SVG picture: a heading that names the calendars, the figures, a
/// legend, and the days as month grids or, for long windows, as a heatmap per year.
///
/// The geometry comes from `CalendarLayout` (`MonthLayout` for `monthWidth`, `YearLayout` for the
/// year view); every coordinate is a whole number, so the same input gives the same bytes. Each day
/// of the window is a group `<g id="day-YYYY-MM-DD">` with a `<title>` (date, status label,
/// points) and a `<rect>` filled as the presentation rules say; month grids add the day number and
/// the rule's mark, so status is readable without colour too. Rest days are outlined and skipped
/// days hatched, as the palette says; today (when in the window) is outlined. The count of
/// diagnostics and the first few close the picture. Text from outside (names, zone, labels, marks,
/// messages) is XML-escaped.
public struct SVGReportRenderer: ReportRenderer {
    public static let needsSessions = false
    public static let drawsDays = true
    public var presentation: ReportPresentation

    public init(presentation: ReportPresentation = ReportPresentation()) {
        self.presentation = presentation
    }

    public func render(_ content: ReportContent) -> String {
        SVGReport(
            report: content.report, rules: presentation.rules, firstWeekday: presentation.firstWeekday, habits: content.habits,
            sources: content.sources, diagnostics: content.diagnostics, view: presentation.view ?? .automatic(for: content.report, today: content.today),
            today: content.today, palette: presentation.palette).render()
    }
}
