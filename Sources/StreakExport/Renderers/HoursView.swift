import Streaks

/// The hours view (`--view hours`): a 7 × 24 heatmap of the minutes by weekday (Monday first) and
/// hour, in the style of the year heatmap, with the busiest hour and day named; one picture each
/// for text, SVG, HTML and Markdown, drawn from one set of cells.
struct HoursView {
    let hours: WeekdayHours
    let zone: String

    /// The English weekday abbreviations, Monday first.
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// Each cell's minutes, `[weekday][hour]`.
    var minutes: [[Int]] { hours.minutes }

    /// The level (0 to 4) of each cell against the busiest: 0 none, then quarters of the most.
    var levels: [[Int]] {
        let most = max(1, hours.seconds.max() ?? 0)
        return (0..<7).map { weekday in
            (0..<24).map { hour in
                let seconds = hours.seconds[weekday * 24 + hour]
                guard seconds > 0 else { return 0 }
                return min(4, 1 + Int(Double(seconds) / Double(most) * 4 - 1e-9))
            }
        }
    }

    /// "08:00–09:00".
    static func span(_ hour: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(hour)):00–\(two((hour + 1) % 24)):00"
    }

    /// "When: minutes by weekday and hour (Europe/Berlin)".
    var title: String { "When: minutes by weekday and hour (\(zone))" }

    /// The busiest hour and day in words, or that there was no timed session.
    var peakLine: String {
        guard let hour = hours.peakHour, let day = hours.peakWeekday else { return "No timed sessions in the window." }
        let minutes = self.minutes[hour.weekday][hour.hour]
        return "Busiest hour: \(WeekdayHours.weekdayNames[hour.weekday]) \(Self.span(hour.hour)) (\(minutes) \(minutes == 1 ? "minute" : "minutes")); "
            + "busiest day: \(WeekdayHours.weekdayNames[day.weekday]) (\(day.minutes) \(day.minutes == 1 ? "minute" : "minutes"))"
    }

    /// The marks of the levels in text: none, then the quarters.
    static let marks: [Character] = ["·", "░", "▒", "▓", "█"]

    /// The heatmap as text: hours across (labelled every three), weekdays down, a mark per cell,
    /// coloured by the scale's terminal styles when `scale` is given (none to met); the scale and
    /// the peak after it.
    func textLines(colors scale: [DayPresentation]? = nil) -> [String] {
        var lines = [title]
        var header = "    "
        for hour in stride(from: 0, to: 24, by: 3) { header += (hour < 10 ? "0\(hour)" : "\(hour)") + "    " }
        lines.append(header.trimmingTrailingSpaces())
        let levels = self.levels
        for weekday in 0..<7 {
            var line = Self.weekdays[weekday] + " "
            for hour in 0..<24 {
                let level = levels[weekday][hour]
                let mark = String(Self.marks[level])
                if let scale, !scale.isEmpty {
                    line += "\u{1B}[\(scale[min(level, scale.count - 1)].terminalStyle)m\(mark)\u{1B}[0m "
                } else {
                    line += mark + " "
                }
            }
            lines.append(line.trimmingTrailingSpaces())
        }
        lines.append("Less " + Self.marks.map(String.init).joined(separator: " ") + " More (a quarter of the busiest hour each)")
        lines.append(peakLine)
        return lines
    }

    /// The heatmap as SVG elements from `top` at `left`: weekday labels, hour labels every three
    /// hours, a cell per hour with its minutes in a `<title>`, the peak line; and where it ends.
    func svgElements(left: Int, top: Int, palette: ReportPalette) -> (elements: [String], bottom: Int) {
        let (cell, gap, labelWidth) = (16, 2, 34)
        var elements = ["<g class=\"hours\" id=\"hours\">",
                        "<text x=\"\(left)\" y=\"\(top + 16)\" font-size=\"16\" font-weight=\"bold\" fill=\"\(palette.page.text)\">\(Markup.escape(title))</text>"]
        let gridTop = top + 40
        for hour in stride(from: 0, to: 24, by: 3) {
            elements.append("<text x=\"\(left + labelWidth + hour * (cell + gap))\" y=\"\(gridTop - 6)\" font-size=\"11\" fill=\"\(palette.page.secondaryText)\">\(hour < 10 ? "0\(hour)" : "\(hour)")</text>")
        }
        let (levels, minutes) = (self.levels, self.minutes)
        for weekday in 0..<7 {
            let y = gridTop + weekday * (cell + gap)
            elements.append("<text x=\"\(left)\" y=\"\(y + 12)\" font-size=\"11\" fill=\"\(palette.page.secondaryText)\">\(Self.weekdays[weekday])</text>")
            for hour in 0..<24 {
                let x = left + labelWidth + hour * (cell + gap)
                let presentation = palette.levels[levels[weekday][hour]]
                elements.append(
                    "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(presentation.fill)\">"
                        + "<title>\(WeekdayHours.weekdayNames[weekday]) \(Self.span(hour)): \(minutes[weekday][hour]) minutes</title></rect>")
            }
        }
        let bottom = gridTop + 7 * (cell + gap) + 18
        elements.append("<text x=\"\(left)\" y=\"\(bottom)\" font-size=\"13\" fill=\"\(palette.page.text)\">\(Markup.escape(peakLine))</text>")
        elements.append("</g>")
        return (elements, bottom + 12)
    }

    /// The heatmap as an HTML table: a row per weekday, a cell per hour shaded by its level (the
    /// palette's `level-N` classes), its minutes in a `title`; the peak line after it.
    func htmlLines(levelClass: (Int) -> String) -> [String] {
        var html = ["<h2 id=\"hours\">\(Markup.escape(title))</h2>", "<table class=\"hours\">",
                    "<thead><tr><th></th>" + (0..<24).map { "<th scope=\"col\">\($0 % 3 == 0 ? String($0) : "")</th>" }.joined() + "</tr></thead>", "<tbody>"]
        let (levels, minutes) = (self.levels, self.minutes)
        for weekday in 0..<7 {
            var row = "<tr><th scope=\"row\">\(Self.weekdays[weekday])</th>"
            for hour in 0..<24 {
                row += "<td class=\"\(levelClass(levels[weekday][hour]))\" title=\"\(WeekdayHours.weekdayNames[weekday]) \(Self.span(hour)): \(minutes[weekday][hour]) minutes\"></td>"
            }
            html.append(row + "</tr>")
        }
        html += ["</tbody>", "</table>", "<p>\(Markup.escape(peakLine))</p>"]
        return html
    }

    /// The minutes as a Markdown table: a row per weekday, a column per hour.
    func markdownLines() -> [String] {
        var lines = ["## \(MarkdownReport.escape(title))", "", "| | " + (0..<24).map(String.init).joined(separator: " | ") + " |",
                     "| --- |" + String(repeating: " ---: |", count: 24)]
        for (weekday, row) in minutes.enumerated() {
            lines.append("| \(Self.weekdays[weekday]) | " + row.map(String.init).joined(separator: " | ") + " |")
        }
        lines += ["", MarkdownReport.escape(peakLine)]
        return lines
    }
}
