import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StreakExport
import Streaks
import Testing

/// `StreakCard` (issue 48, part 3): a small SVG for a README to embed, read back as XML and held
/// to its promises: its size, nothing from outside, light and dark, text inside the card by the
/// estimated widths, five-digit numbers in their boxes, a square per day of the last weeks.
@Suite("Streak card")
struct StreakCardTests {
    // MARK: Reports

    static let lastDay = try! Day(year: 2024, month: 2, day: 29)

    /// A report of `days` days up to `last`, each day's points `points(index)`, 100 required.
    static func report(
        to last: Day = lastDay, days: Int = 120, rules: StreakRules = StreakRules(requiredPoints: 100), today: Day? = nil,
        points: (Int) -> Int = { [0, 20, 50, 80, 100, 130][$0 % 6] }
    ) -> StreakReport {
        let values = (0..<days).map(points)
        return StreakReport(
            goal: StreakGoal(requiredPoints: 100, timeZone: .utc), rules: rules, firstDay: last.advanced(by: -(days - 1)),
            points: values, sessionCounts: values.map { $0 > 0 ? 1 : 0 }, today: today)
    }

    /// A name of 200 characters, wide ones among them, with markup and control characters.
    static let longName = "<script>alert('x')</script> \u{07}\u{1B}[31m\u{202E}" + String(repeating: "Wide MW piano practice ", count: 9).prefix(165)

    static let widths = [200, 201, 250, 300, 370, 371, 400, 495, 550, 600]

    // MARK: Reading the picture back

    struct Text {
        var x: Int, y: Int, size: Int, bold: Bool, anchor: String, content: String

        /// The left and right edge by the card's own estimate.
        var extent: (left: Int, right: Int) {
            let width = StreakCard.estimatedWidth(of: content, size: size, bold: bold)
            switch anchor {
            case "middle": return (x - (width + 1) / 2, x + (width + 1) / 2)
            case "end": return (x - width, x)
            default: return (x, x + width)
            }
        }

        /// The box from the top of a capital to the bottom of a descender.
        var box: (left: Int, top: Int, right: Int, bottom: Int) {
            let (left, right) = extent
            return (left, y - size * 80 / 100, right, y + size * 25 / 100)
        }
    }

    struct Picture {
        var width = 0, height = 0
        var viewBox = ""
        var texts: [Text] = []
        var squares: [(x: Int, y: Int, size: Int, classes: [String])] = []
        var stripDays: (first: String, last: String)?
        var lines: [(x1: Int, y1: Int, x2: Int, y2: Int)] = []
        var style = ""
        var title = "", desc = ""

        /// The light rules (before the media query) and the dark ones (inside it).
        var lightStyle: String { String(style.split(separator: "@media", maxSplits: 1)[0]) }
        var darkStyle: String { style.components(separatedBy: "@media (prefers-color-scheme: dark)").dropFirst().first ?? "" }
    }

    final class Reader: NSObject, XMLParserDelegate {
        var picture = Picture()
        var inStrip = false
        var element: [String] = []
        var text: Text?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            element.append(name)
            func number(_ key: String) -> Int { Int(attributes[key] ?? "") ?? -1 }
            switch name {
            case "svg":
                picture.width = number("width")
                picture.height = number("height")
                picture.viewBox = attributes["viewBox"] ?? ""
            case "g" where attributes["class"] == "strip":
                inStrip = true
                picture.stripDays = (attributes["data-first-day"] ?? "", attributes["data-last-day"] ?? "")
            case "rect" where inStrip:
                picture.squares.append((number("x"), number("y"), number("width"), (attributes["class"] ?? "").split(separator: " ").map(String.init)))
            case "line":
                picture.lines.append((number("x1"), number("y1"), number("x2"), number("y2")))
            case "text":
                text = Text(x: number("x"), y: number("y"), size: number("font-size"), bold: attributes["font-weight"] == "bold",
                            anchor: attributes["text-anchor"] ?? "start", content: "")
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            switch element.last {
            case "text": text?.content += string
            case "style": picture.style += string
            case "title": picture.title += string
            case "desc": picture.desc += string
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            element.removeLast()
            if name == "g" { inStrip = false }
            if name == "text", let text { picture.texts.append(text) }
        }
    }

    /// The picture, read by `XMLParser` (which fails on anything not well-formed).
    static func read(_ svg: String) throws -> Picture {
        let parser = XMLParser(data: Data(svg.utf8))
        let reader = Reader()
        parser.delegate = reader
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        return reader.picture
    }

    /// The colour a class's rule gives `property` (`fill` or `stroke`) in `rules`.
    static func colour(of className: String, _ property: String, in rules: String) -> String? {
        guard let start = rules.range(of: ".\(className){") else { return nil }
        let body = rules[start.upperBound...].prefix { $0 != "}" }
        return body.split(separator: ";").first { $0.hasPrefix(property + ":") }.map { String($0.dropFirst(property.count + 1)) }
    }

    // MARK: Self-contained

    @Test("Self-contained at every width: the width asked, at most 30 KB, no script, no links, light and dark, well-formed", arguments: widths)
    func selfContained(width: Int) throws {
        let cards = [
            StreakCard(report: Self.report(), sources: [ReportSource(file: "piano.ics")], width: width),
            StreakCard(report: Self.report(days: 3_000), sources: [ReportSource(file: "a.ics", declaredName: Self.longName)], width: width),
            StreakCard(habit: HabitReport(habit: Habit(name: Self.longName + Self.longName, filter: .all), report: Self.report()),
                       sources: (1...7).map { ReportSource(file: "\($0).ics", declaredName: Self.longName) }, width: width),
        ]
        for card in cards {
            let svg = card.svg()
            #expect(svg.utf8.count <= StreakCard.maximumBytes && StreakCard.maximumBytes == 30 * 1024, "\(svg.utf8.count) bytes")
            for banned in ["<script", "href", "url(", "@import", "<image", "<foreignObject", "http://www.w3.org/1999/xlink"] {
                #expect(!svg.contains(banned), "\(banned)")
            }
            #expect(!svg.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
            #expect(!svg.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
            let picture = try Self.read(svg)
            #expect(picture.width == width && StreakCard.widths.contains(picture.width))
            #expect(picture.viewBox == "0 0 \(width) \(picture.height)" && picture.height > 100)
            #expect(picture.style.contains("@media (prefers-color-scheme: dark){"))
            #expect(Self.colour(of: "bg", "fill", in: picture.darkStyle) == card.palette.darkPage.background.description)
            #expect(Self.colour(of: "bg", "fill", in: picture.lightStyle) == card.palette.page.background.description)
            #expect(svg.contains("font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\""))
        }
    }

    @Test("A width outside 200...600 is brought within")
    func widthRange() {
        #expect(StreakCard(report: Self.report(), width: 100).width == 200)
        #expect(StreakCard(report: Self.report(), width: 10_000).width == 600)
        #expect(StreakCard(report: Self.report()).width == 495)
    }

    // MARK: Text

    @Test("Names: control and bidirectional characters removed, markup escaped, a 200-character name cut with …", arguments: widths)
    func longNames(width: Int) throws {
        #expect(Self.longName.count == 200)
        let card = StreakCard(report: Self.report(), sources: [ReportSource(file: "a.ics", declaredName: Self.longName)], width: width)
        let svg = card.svg()
        let picture = try Self.read(svg)
        let title = try #require(picture.texts.first)
        // The name without its controls, cut: a prefix of it and `…`.
        let plain = "<script>alert('x')</script> [31m" + Self.longName.dropFirst(35)
        #expect(title.content.hasSuffix("…") && title.content.count > 8 && title.content.count < 120)
        #expect(plain.hasPrefix(title.content.dropLast()), "\(title.content)")
        #expect(width < 495 || title.content.hasPrefix("<script>alert('x')</script> [31mWide"), "\(title.content)")
        #expect(title.extent.right <= width - 16, "\(title.content) ends at \(title.extent.right)")
        #expect(svg.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(!svg.contains("<script"))
        // The accessible title keeps more of the name, without the controls.
        #expect(picture.title.hasPrefix("Streak card: <script>alert('x')</script> [31mWide"))
    }

    @Test("plain(_:), estimatedWidth and fitted(_:) as their documentation says")
    func textHelpers() {
        #expect(StreakCard.plain("Piano\u{07}\n\u{202E}practice ") == "Piano practice")
        #expect(StreakCard.plain("  a\t\tb\r\n") == "a b")
        #expect(StreakCard.estimatedWidth(of: "12345", size: 28, bold: true) == 101)
        #expect(StreakCard.fitted("Piano practice every morning", size: 12, width: 120) == "Piano practice…")
        #expect(StreakCard.fitted("short", size: 12, width: 100) == "short")
        #expect(StreakCard.fitted("anything", size: 12, width: 5) == "")
        // Every cut fits, at every width from 1 to 300.
        for width in 1...300 {
            let cut = StreakCard.fitted(Self.longName, size: 13, bold: true, width: width)
            #expect(StreakCard.estimatedWidth(of: cut, size: 13, bold: true) <= width, "\(width): \(cut)")
        }
        // Wide characters count wide: eight ideographs take as much as about thirteen letters.
        #expect(StreakCard.estimatedWidth(of: "練習練習練習練習", size: 10) == 80)
        #expect(StreakCard.estimatedWidth(of: "🎹🎹", size: 10) == 25)
    }

    /// Every text of `picture` inside the card's margins by its estimated width, and no two
    /// texts' boxes overlapping.
    static func checkTextGeometry(_ picture: Picture, _ label: String) {
        for text in picture.texts {
            let (left, right) = text.extent
            #expect(left >= 16 && right <= picture.width - 16, "\(label): '\(text.content)' from \(left) to \(right) of \(picture.width)")
            #expect(text.box.bottom <= picture.height, "\(label): '\(text.content)' below the card")
        }
        for (index, a) in picture.texts.enumerated() {
            for b in picture.texts[(index + 1)...] {
                let (p, q) = (a.box, b.box)
                let apart = p.right <= q.left || q.right <= p.left || p.bottom <= q.top || q.bottom <= p.top
                #expect(apart, "\(label): '\(a.content)' and '\(b.content)' overlap")
            }
        }
    }

    @Test("Every text inside the card and apart from the others, with long names and five-digit streaks", arguments: widths)
    func textGeometry(width: Int) throws {
        let reports = [
            ("short", Self.report()),
            ("12345 met days", Self.report(days: 12_345) { _ in 100 }),
            ("99999 met days, a week goal", {
                var rules = StreakRules(requiredPoints: 100)
                rules.periodGoal = try! PeriodGoal(parsing: "week:3 days")
                return Self.report(days: 99_999, rules: rules) { _ in 100 }
            }()),
        ]
        for (label, report) in reports {
            let card = StreakCard(
                habit: HabitReport(habit: Habit(name: Self.longName, filter: .all), report: report),
                sources: [ReportSource(file: "a.ics", declaredName: Self.longName)], width: width)
            Self.checkTextGeometry(try Self.read(card.svg()), "\(width) \(label)")
        }
    }

    @Test("Five-digit numbers fit their box: between the separators, by the estimate and by DejaVu Sans Bold's digits", arguments: widths)
    func fiveDigits(width: Int) throws {
        let report = Self.report(days: 12_345) { _ in 100 }
        #expect(report.longestStreak.length == 12_345 && report.currentStreak.length == 12_345)
        let picture = try Self.read(StreakCard(report: report, width: width).svg())
        let numbers = picture.texts.filter { $0.content == "12345" }
        #expect(numbers.count == 3)
        let vertical = picture.lines.filter { $0.x1 == $0.x2 }.map(\.x1).sorted()
        // Side by side: the columns between the separators; one under another: the card's width.
        let edges = vertical.isEmpty ? [16, width - 16] : [16] + vertical + [width - 16]
        #expect(vertical.isEmpty || (vertical.count == 2 && numbers.map(\.x) == numbers.map(\.x).sorted()))
        for (index, number) in numbers.enumerated() {
            let box = vertical.isEmpty ? (edges[0], edges[1]) : (edges[index], edges[index + 1])
            let (left, right) = number.extent
            #expect(left >= box.0 && right <= box.1, "\(width): 12345 from \(left) to \(right), its box \(box)")
            // DejaVu Sans Bold's digits are 1425/2048 em wide: the estimate is not smaller.
            let dejaVu = Int((5 * 1425 * Double(number.size) / 2048).rounded(.up))
            #expect(dejaVu <= right - left, "\(width): five digits at \(number.size) are \(dejaVu) wide in DejaVu Sans Bold")
            #expect(number.size >= 16, "\(width): numbers of \(number.size) pixels")
        }
        #expect(picture.desc.contains("Current streak: 12345 days") && picture.desc.contains("days met: 12345 of 12345"))
    }

    // MARK: The strip

    /// The light-mode colour a square of `total` has (fill, or an outline's stroke), as the palette says.
    static func expectedPaint(_ total: DayTotal?, palette: ReportPalette, dark: Bool = false) -> (property: String, colour: RGBColor) {
        let presentation: DayPresentation
        if let total, total.status == .over {
            presentation = palette.over
        } else if let total, let level = ReportPalette.level(of: total) {
            presentation = palette.levels[level]
        } else {
            presentation = palette.presentation(for: total?.status ?? .upcoming)
        }
        let colour = dark ? presentation.darkFill ?? presentation.fill : presentation.fill
        return (presentation.pattern == .outline ? "stroke" : "fill", colour)
    }

    static func firstWeekdays() -> [Weekday] { (0..<7).map { Weekday.sunday.advanced(by: $0) } }

    @Test("The strip: a square per day of the last N weeks, weeks as columns from the first weekday, coloured by status",
          arguments: [200, 371, 495, 600], [ReportPalette.standard, .github, .highContrast, .tutorial])
    func strip(width: Int, palette: ReportPalette) throws {
        var rules = StreakRules(requiredPoints: 100)
        rules.schedule.require(0, on: [.sunday])
        rules.skippedDays = [try Day(year: 2024, month: 2, day: 5)...Day(year: 2024, month: 2, day: 7)]
        rules.freezes = try FreezePolicy(parsing: "1")
        let report = Self.report(days: 60, rules: rules)
        let statuses = Set(report.days.map(\.status))
        #expect(statuses.isSuperset(of: [.none, .partial, .met, .rest, .skipped, .frozen]))
        for weekday in Self.firstWeekdays() {
            let card = StreakCard(report: report, palette: palette, width: width, firstWeekday: weekday)
            let picture = try Self.read(card.svg())
            let weeks = min(53, (width - 32 + 2) / 12)
            #expect(card.stripLength == weeks)
            #expect(picture.squares.count == 7 * weeks, "\(width): \(picture.squares.count) squares")
            // The last column is the week holding the last day, from the first weekday.
            let lastColumn = Self.lastDay.advanced(by: -Self.lastDay.weekday.daysSince(weekday))
            let first = lastColumn.advanced(by: -7 * (weeks - 1))
            #expect(picture.stripDays?.first == "\(first)" && picture.stripDays?.last == "\(lastColumn.advanced(by: 6))")
            #expect(card.stripDays == first...lastColumn.advanced(by: 6))
            for (index, square) in picture.squares.enumerated() {
                let (column, row) = (index / 7, index % 7)
                let origin = picture.squares[0]
                #expect(square.x == origin.x + 12 * column && square.y == origin.y + 12 * row && square.size == 10)
                let day = first.advanced(by: index)
                let total = report.total(on: day)
                let className = try #require(square.classes.first)
                for dark in [false, true] {
                    let want = Self.expectedPaint(total, palette: palette, dark: dark)
                    let rules = dark ? picture.darkStyle : picture.lightStyle
                    #expect(Self.colour(of: className, want.property, in: rules) == want.colour.description,
                            "\(day) \(total?.status.rawValue ?? "outside") as .\(className), dark \(dark)")
                }
            }
            // The strip lies inside the card.
            #expect(picture.squares.allSatisfy { $0.x >= 16 && $0.x + $0.size <= width - 16 })
        }
    }

    @Test("Met days are the palette's met colour, light and dark; days outside the report are outlines")
    func metColour() throws {
        let report = Self.report(days: 10) { $0 % 2 == 0 ? 100 : 0 }
        let picture = try Self.read(StreakCard(report: report).svg())
        let met = picture.squares.filter { $0.classes == ["l4"] }
        #expect(met.count == 5)
        #expect(Self.colour(of: "l4", "fill", in: picture.lightStyle) == "#0A5C45")
        #expect(Self.colour(of: "l4", "fill", in: picture.darkStyle) == "#8FE3B5")
        #expect(picture.squares.filter { $0.classes == ["up"] }.count == 7 * 38 - 10)
        #expect(Self.colour(of: "up", "stroke", in: picture.lightStyle) == ReportPalette.standard.page.border.description)
    }

    @Test("Today is outlined, once, when the strip holds it; days after it are upcoming")
    func today() throws {
        let today = Self.lastDay.advanced(by: -3)
        let report = Self.report(days: 30, today: today)
        let picture = try Self.read(StreakCard(report: report, today: today).svg())
        let outlined = picture.squares.enumerated().filter { $0.element.classes.contains("today") }
        #expect(outlined.count == 1)
        #expect(picture.squares.count == 7 * 38)
        let lastColumn = Self.lastDay.advanced(by: -Self.lastDay.weekday.daysSince(.monday))
        #expect(outlined.first?.offset == 7 * 37 + lastColumn.distance(to: today))
        #expect(picture.squares[7 * 37 + lastColumn.distance(to: Self.lastDay)].classes == ["up"])
        #expect(picture.style.contains(".today{stroke:"))
        let before = try Self.read(StreakCard(report: report, today: Self.lastDay.advanced(by: 400)).svg())
        #expect(!before.squares.contains { $0.classes.contains("today") })
    }

    @Test("Under a period goal: streaks in weeks or months, a square per period, coloured by the period's status",
          arguments: ["week:3 days", "month:12 days", "week:300 points"])
    func periodGoal(goal: String) throws {
        var rules = StreakRules(requiredPoints: 100)
        rules.periodGoal = try PeriodGoal(parsing: goal, firstWeekday: .wednesday)
        let report = Self.report(days: 400, rules: rules) { index in index / 30 % 3 == 0 ? 0 : [0, 100, 100][index % 3] }
        let unit = rules.periodGoal!.unitName
        #expect(!report.periods.isEmpty)
        for width in [200, 495, 600] {
            let card = StreakCard(report: report, width: width)
            let picture = try Self.read(card.svg())
            let count = min(53, (width - 32 + 3) / 17)
            #expect(card.stripLength == count && picture.squares.count == count)
            #expect(picture.squares.allSatisfy { $0.size == 14 && $0.y == picture.squares[0].y })
            #expect(picture.texts.contains { $0.content == "The last \(count) \(unit)s" })
            #expect(picture.texts.contains { $0.content == (unit == "week" ? "Weeks met" : "Months met") })
            #expect(picture.desc.hasPrefix("Current streak: \(report.currentStreak.length) \(unit)"))
            let scored = report.periods.filter { $0.status != .upcoming }
            #expect(picture.desc.hasSuffix("\(unit)s met: \(scored.filter { $0.status == .met }.count) of \(scored.count)"))
            // Each square: the period of the report that holds its days, the last one holding the last day.
            var period = rules.periodGoal!.period(containing: Self.lastDay)
            for square in picture.squares.reversed() {
                let total = report.periods.last { $0.days.overlaps(period) }
                let want: String = switch total?.status {
                case .met?: "l4"
                case .none?: "l0"
                case .partial?: total!.fraction * 3 < 1 ? "l1" : total!.fraction * 3 < 2 ? "l2" : "l3"
                case .frozen?: "frz"
                case .skipped?: "skip"
                default: "up"
                }
                #expect(square.classes == [want], "\(period): \(total?.status.rawValue ?? "outside")")
                period = rules.periodGoal!.period(containing: period.lowerBound.advanced(by: -1))
            }
            #expect(Set(picture.squares.map(\.classes)).count >= 2)
        }
    }

    @Test("Every day of 2024 as the last day (and as today): the same number of squares, the last day in the last column")
    func everyDayOf2024() throws {
        var weekly = StreakRules(requiredPoints: 100)
        weekly.periodGoal = try PeriodGoal(parsing: "week:3 days", firstWeekday: .sunday)
        var monthly = StreakRules(requiredPoints: 100)
        monthly.periodGoal = try PeriodGoal(parsing: "month:10 days")
        let first = try Day(year: 2024, month: 1, day: 1)
        var drawn = 0
        for offset in 0..<366 {
            let last = first.advanced(by: offset)
            for (rules, squares) in [(StreakRules(requiredPoints: 100), 7 * 38), (weekly, 27), (monthly, 27)] {
                let report = Self.report(to: last, days: 1 + offset % 90, rules: rules, today: last.advanced(by: -(offset % 3)))
                let card = StreakCard(report: report, today: last.advanced(by: -(offset % 3)), firstWeekday: Weekday.sunday.advanced(by: offset))
                let svg = card.svg()
                // Counted in the text, so that a year of days stays quick: each square is a <rect x=.
                let count = svg.components(separatedBy: "<rect x=").count - 1
                #expect(count == squares, "\(last): \(count) squares")
                #expect(card.stripDays.contains(last) && last.distance(to: card.stripDays.upperBound) < 31)
                #expect(svg.components(separatedBy: " today\"").count - 1 == 1, "\(last): today outlined once")
                drawn += 1
            }
        }
        #expect(drawn == 366 * 3)
    }

    @Test("A habit's card: titled with the habit, the calendars second, its own figures")
    func habit() throws {
        let habit = HabitReport(habit: Habit(name: "Scales", filter: .all), report: Self.report(days: 10) { _ in 100 })
        let picture = try Self.read(StreakCard(habit: habit, sources: [ReportSource(file: "piano.ics", declaredName: "Piano")]).svg())
        #expect(picture.texts.first?.content == "Scales")
        #expect(picture.texts[1].content == "Piano · 100 points a day · to 2024-02-29")
        #expect(picture.title == "Streak card: Scales")
        #expect(picture.desc == "Current streak: 10 days, 2024-02-20 to 2024-02-29; longest streak: 10 days, 2024-02-20 to 2024-02-29; days met: 10 of 10")
        // Narrow, the subtitle drops the last day, then the calendars, rather than cut the goal.
        let narrow = try Self.read(StreakCard(habit: habit, sources: [ReportSource(file: "piano.ics", declaredName: "Piano practice")], width: 200).svg())
        #expect(narrow.texts[1].content == "100 points a day")
    }
}
