import Streaks

/// `streakcal totals` as pictures: stacked bars per period, a colour per group with a legend; for
/// habits, a grid of "17/31" cells shaded by the share of days met.
extension TotalsReport {
    /// The groups' colours: Okabe and Ito's eight, which readers with any of the common colour
    /// vision deficiencies tell apart (black made a grey, to be seen on a dark page too).
    static let groupColors = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"]

    /// The table a chart draws: at most one group per colour, the largest, the rest folded into `(other)`.
    var charted: TimeTotals {
        totals.grouping == .habit ? totals : totals.keepingLargest(Self.groupColors.count - 1)
    }

    static let margin = 24
    static let fontSize = 12
    static let titleSize = 18
    static let plotHeight = 240
    static let axisWidth = 64

    /// A self-contained SVG: the title, then stacked bars (or the habits' grid) and a legend.
    /// Light and dark through `prefers-color-scheme`; no script, fonts or links.
    public func svg() -> String {
        let body = totals.grouping == .habit ? habitGrid(top: Self.margin + Self.titleSize + 16) : stackedBars(top: Self.margin + Self.titleSize + 16)
        let width = max(body.width + 2 * Self.margin, min(1_200, SVGReport.estimatedWidth(of: title, size: Self.titleSize) + 2 * Self.margin))
        let height = body.bottom + Self.margin
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
                + " role=\"img\" aria-labelledby=\"title\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" font-size=\"\(Self.fontSize)\">",
            "<title id=\"title\">\(Markup.escape(title))</title>",
            "<style>\(pictureStyle())</style>",
            "<rect class=\"bg\" width=\"\(width)\" height=\"\(height)\"/>",
            "<text class=\"fg\" x=\"\(Self.margin)\" y=\"\(Self.margin + Self.titleSize - 4)\" font-size=\"\(Self.titleSize)\">\(Markup.escape(title))</text>",
        ]
        svg += body.elements
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// The picture's colours, light and dark.
    private func pictureStyle() -> String {
        let (light, dark) = (palette.page, palette.darkPage)
        return ".bg{fill:\(light.background)} .fg{fill:\(light.text)} .fg2{fill:\(light.secondaryText)} .line{stroke:\(light.border)}"
            + " @media (prefers-color-scheme: dark){.bg{fill:\(dark.background)} .fg{fill:\(dark.text)} .fg2{fill:\(dark.secondaryText)} .line{stroke:\(dark.border)}}"
    }

    /// How a period is labelled under its bar: a day or week by its first day, a month as
    /// `2024-03`, a year as `2024`.
    func label(_ period: Day) -> String {
        let text = period.description
        switch totals.period {
        case .day, .week: return text
        case .month: return String(text.prefix(7))
        case .year: return String(text.prefix(4))
        }
    }

    /// What the bars measure: minutes, unless no session has any (then points).
    private func barValue(_ figures: TimeTotals.Figures) -> Int {
        usesMinutesForBars ? figures.minutes : figures.points
    }

    /// Bars of each period's groups stacked, the y axis, period labels spaced so that no two
    /// touch, and the legend; returns the elements, the width they take and where they end.
    private func stackedBars(top: Int) -> (elements: [String], width: Int, bottom: Int) {
        let table = charted
        let periods = table.periods
        let step = max(2, min(80, 960 / max(1, periods.count)))
        let barWidth = max(1, step * 3 / 4)
        let plotLeft = Self.margin + Self.axisWidth
        let plotWidth = step * max(1, periods.count)
        let colors = Dictionary(uniqueKeysWithValues: table.groups.enumerated().map { ($0.element.group, Self.groupColors[$0.offset % Self.groupColors.count]) })
        var stacks: [Day: [TimeTotals.Row]] = [:]
        for row in table.rows { stacks[row.period, default: []].append(row) }
        let highest = max(1, stacks.values.map { $0.reduce(0) { $0 + barValue($1.figures) } }.max() ?? 0)
        let scale = Self.niceCeiling(highest)
        // The unit's label above the plot, clear of the top tick's.
        let bottom = top + 20 + Self.plotHeight
        var elements: [String] = []
        for tick in 0...4 {
            let value = scale * tick / 4
            let y = bottom - Self.plotHeight * tick / 4
            elements.append("<line class=\"line\" x1=\"\(plotLeft)\" y1=\"\(y)\" x2=\"\(plotLeft + plotWidth)\" y2=\"\(y)\" stroke-width=\"1\"/>")
            elements.append("<text class=\"fg2\" x=\"\(plotLeft - 6)\" y=\"\(y + 4)\" text-anchor=\"end\">\(Self.grouped(value))</text>")
        }
        let unit = usesMinutesForBars ? "minutes" : totals.unit.rawValue
        elements.append("<text class=\"fg2\" x=\"\(Self.margin)\" y=\"\(top + 4)\">\(unit)</text>")
        for (index, period) in periods.enumerated() {
            var y = bottom
            let x = plotLeft + index * step + (step - barWidth) / 2
            for row in stacks[period] ?? [] {
                let height = Int((Double(barValue(row.figures)) / Double(scale) * Double(Self.plotHeight)).rounded())
                guard height > 0 else { continue }
                y -= height
                elements.append(
                    "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(barWidth)\" height=\"\(height)\" fill=\"\(colors[row.group] ?? "#999999")\">"
                        + "<title>\(Markup.escape("\(row.period) \(row.group): \(row.figures.minutes) minutes, \(row.figures.points) points, \(row.figures.sessions) sessions"))</title></rect>")
            }
        }
        // Labels no closer than their own width: every `every`-th period is labelled.
        let labelWidth = SVGReport.estimatedWidth(of: label(periods.first ?? totals.window.lowerBound), size: Self.fontSize) + 8
        let every = max(1, (labelWidth + step - 1) / step)
        for index in stride(from: 0, to: periods.count, by: every) {
            let x = plotLeft + index * step + step / 2
            elements.append("<text class=\"fg2\" x=\"\(x)\" y=\"\(bottom + 16)\" text-anchor=\"middle\">\(Markup.escape(label(periods[index])))</text>")
        }
        // Room on the right for half of the last label.
        let width = max(plotWidth + Self.axisWidth + labelWidth / 2, 480)
        let legend = self.legend(table.groups.map { ($0.group, colors[$0.group] ?? "#999999", $0.total) }, top: bottom + 32, width: width)
        elements += legend.elements
        return (elements, width, legend.bottom)
    }

    /// A legend of swatches, names (cut to 32 characters) and totals, in rows that wrap within
    /// `width`, each item as wide as its text is estimated to be, so that none overlaps another.
    private func legend(_ items: [(name: String, color: String, total: TimeTotals.Figures)], top: Int, width: Int) -> (elements: [String], bottom: Int) {
        var elements: [String] = []
        var (x, y) = (Self.margin, top)
        for item in items {
            let text = "\(Self.cut(item.name, to: 32)) (\(Self.grouped(barValue(item.total))))"
            let itemWidth = 18 + SVGReport.estimatedWidth(of: text, size: Self.fontSize) + 16
            if x > Self.margin, x + itemWidth > Self.margin + width {
                x = Self.margin
                y += 20
            }
            elements.append("<rect x=\"\(x)\" y=\"\(y)\" width=\"12\" height=\"12\" rx=\"2\" fill=\"\(item.color)\"/>")
            elements.append("<text class=\"fg\" x=\"\(x + 18)\" y=\"\(y + 11)\">\(Markup.escape(text))</text>")
            x += itemWidth
        }
        return (elements, y + 20)
    }

    /// For habits: a row per habit and a column per period, each cell "met/days" shaded by the
    /// share of its days met in the palette's levels (with the level's own text colour).
    private func habitGrid(top: Int) -> (elements: [String], width: Int, bottom: Int) {
        let names = totals.groups.map { Self.cut($0.group, to: 24) }
        let nameWidth = (names.map { SVGReport.estimatedWidth(of: $0, size: Self.fontSize) }.max() ?? 0) + 12
        let cell = (width: 56, height: 24)
        let periods = totals.periods
        let labelWidth = SVGReport.estimatedWidth(of: label(periods.first ?? totals.window.lowerBound), size: Self.fontSize) + 8
        let every = max(1, (labelWidth + cell.width - 1) / cell.width)
        var elements: [String] = []
        let left = Self.margin + nameWidth
        for index in stride(from: 0, to: periods.count, by: every) {
            elements.append("<text class=\"fg2\" x=\"\(left + index * cell.width + cell.width / 2)\" y=\"\(top + 12)\" text-anchor=\"middle\">\(Markup.escape(label(periods[index])))</text>")
        }
        var styles: [String] = []
        for (level, presentation) in palette.levels.enumerated() {
            styles.append(".l\(level){fill:\(presentation.fill)} .t\(level){fill:\(presentation.text)}")
            styles.append("@media (prefers-color-scheme: dark){.l\(level){fill:\(presentation.darkFill ?? presentation.fill)} .t\(level){fill:\(presentation.darkText ?? presentation.text)}}")
        }
        elements.append("<style>\(styles.joined(separator: " "))</style>")
        for (row, group) in totals.groups.enumerated() {
            let y = top + 20 + row * (cell.height + 4)
            elements.append("<text class=\"fg\" x=\"\(Self.margin)\" y=\"\(y + 16)\">\(Markup.escape(names[row]))</text>")
            let figures = totals.rows(group: group.group)
            for (column, period) in periods.enumerated() {
                let figure = figures[period]
                let (met, days) = (figure?.metDays ?? 0, figure?.days ?? 0)
                let level = Self.level(met: met, of: days, levels: palette.levels.count)
                let x = left + column * cell.width
                elements.append("<rect class=\"l\(level)\" x=\"\(x + 2)\" y=\"\(y)\" width=\"\(cell.width - 4)\" height=\"\(cell.height)\" rx=\"3\"/>")
                if days > 0 {
                    elements.append("<text class=\"t\(level)\" x=\"\(x + cell.width / 2)\" y=\"\(y + 16)\" text-anchor=\"middle\">\(met)/\(days)</text>")
                }
            }
        }
        let bottom = top + 20 + totals.groups.count * (cell.height + 4) + 8
        return (elements, nameWidth + periods.count * cell.width, bottom)
    }

    /// The level (0 to `levels` − 1) of a share of met days: 0 for none, the last for all.
    static func level(met: Int, of days: Int, levels: Int) -> Int {
        guard days > 0, met > 0 else { return 0 }
        if met >= days { return levels - 1 }
        return 1 + min(levels - 3, Int(Double(met) / Double(days) * Double(levels - 2)))
    }

    /// The smallest round number (1, 2 or 5 times a power of ten, times 4 for the ticks) at least `value`.
    static func niceCeiling(_ value: Int) -> Int {
        var power = 1
        while true {
            for factor in [1, 2, 5] where factor * power * 4 >= value { return factor * power * 4 }
            power *= 10
        }
    }

    /// An HTML page: the picture and the tables, light and dark, without script or outside resources.
    public func html() -> String {
        let (light, dark) = (palette.page, palette.darkPage)
        var html = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<meta name=\"color-scheme\" content=\"light dark\">",
            "<title>\(Markup.escape(title))</title>",
            "<style>",
            ":root { color-scheme: light dark; --bg: \(light.background); --fg: \(light.text); --fg2: \(light.secondaryText); --line: \(light.border); }",
            "@media (prefers-color-scheme: dark) { :root { --bg: \(dark.background); --fg: \(dark.text); --fg2: \(dark.secondaryText); --line: \(dark.border); } }",
            "body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.4 system-ui, -apple-system, \"Segoe UI\", Roboto, \"DejaVu Sans\", sans-serif; }",
            "main { max-width: 72rem; margin: 0 auto; padding: 1rem; } h1 { font-size: 1.5rem; overflow-wrap: anywhere; }",
            ".picture { overflow-x: auto; } .picture svg { max-width: none; }",
            "table { border-collapse: collapse; margin: 1rem 0; } th, td { padding: 0.2rem 0.6rem; border-bottom: 1px solid var(--line); text-align: right; }",
            "th:nth-child(-n+2), td:nth-child(-n+2) { text-align: left; max-width: 20rem; overflow-wrap: anywhere; } caption { text-align: left; font-weight: 600; }",
            "</style>",
            "</head>",
            "<body>",
            "<main>",
            "<h1>\(Markup.escape(title))</h1>",
            "<div class=\"picture\">",
        ]
        // The picture without its own title (the page has it) and XML prologue.
        html += svg().split(separator: "\n").map(String.init)
        html.append("</div>")
        if totals.rows.isEmpty {
            html.append("<p>No sessions in the window.</p>")
        } else {
            let table = tableRows(shown: { $0 })
            html += Self.htmlTable(caption: "By \(totals.period.rawValue)", headings: table.headings, rows: table.rows)
            html += Self.htmlTable(caption: "Totals", headings: table.headings, rows: table.totals)
            html += Self.htmlTable(caption: "Averages per \(totals.period.rawValue) (over \(totals.periods.count), empty ones included)", headings: table.headings, rows: table.averages)
        }
        if !diagnostics.isEmpty {
            html.append("<h2>Diagnostics</h2>")
            html.append("<ul>")
            html += diagnostics.map { "<li>\(Markup.escape(DiagnosticTally.line($0)))</li>" }
            html.append("</ul>")
        }
        html += ["</main>", "</body>", "</html>"]
        return html.joined(separator: "\n") + "\n"
    }

    /// A table with a caption, every cell escaped.
    static func htmlTable(caption: String, headings: [String], rows: [[String]]) -> [String] {
        ["<table>", "<caption>\(Markup.escape(caption))</caption>",
         "<thead><tr>" + headings.map { "<th scope=\"col\">\(Markup.escape($0))</th>" }.joined() + "</tr></thead>", "<tbody>"]
            + rows.map { "<tr>" + $0.map { "<td>\(Markup.escape($0))</td>" }.joined() + "</tr>" }
            + ["</tbody>", "</table>"]
    }
}

extension TimeTotals {
    /// A group's rows, by period.
    func rows(group: String) -> [Day: Figures] {
        Dictionary(rows.filter { $0.group == group }.map { ($0.period, $0.figures) }, uniquingKeysWith: { $1 })
    }
}
