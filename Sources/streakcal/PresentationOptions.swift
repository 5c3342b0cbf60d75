import ArgumentParser
import StreakCal

/// The first column of month grids, as the CLI spells it.
enum FirstWeekday: String, CaseIterable, ExpressibleByArgument {
    case sunday, monday, tuesday, wednesday, thursday, friday, saturday

    /// A weekday as `--week-starts` takes it: its English name or first three letters, any case
    /// (`mon`, `Monday`).
    init?(argument: String) {
        guard let day = Weekday(name: argument) else { return nil }
        self = Self.allCases[day.rawValue]
    }

    var weekday: Weekday { Weekday.allCases[Self.allCases.firstIndex(of: self) ?? 0] }
}

/// `--palette`: the colours of reports and layouts.
enum PaletteName: String, CaseIterable, ExpressibleByArgument {
    case standard, github, highContrast = "high-contrast", tutorial

    var palette: ReportPalette { ReportPalette.named(rawValue) ?? .standard }
}

/// `--view`: month grids, year heatmaps or the rolling 53 weeks.
enum ViewChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, month, year, rolling, hours

    /// The library's view: `nil` chooses by the window's length.
    var view: ReportView? {
        switch self {
        case .auto: nil
        case .month: .month
        case .year: .year
        case .rolling: .rolling
        case .hours: .hours
        }
    }
}

/// How days look: the first weekday of grids, the palette and the fill colours by status (report, layout).
struct PresentationOptions: ParsableArguments {
    @Option(help: "The first column of month grids and the first row of year heatmaps (text, md, svg, html, layouts); default: the first day of the weekly goal's weeks (--period-goal week:..., --week-starts), else sunday.")
    var firstWeekday: FirstWeekday?

    @Option(help: "The colours: standard (light to deep greens, chosen for colour-blind readers), github, high-contrast, or tutorial (FSCalendar's green, red and gray).")
    var palette: PaletteName = .standard

    @Option(help: ArgumentHelp("Fill colour of days that met the goal, #RRGGBB (svg, html, coloured text; default: the palette's).", valueName: "color"))
    var metColor: String?

    @Option(help: ArgumentHelp("Fill colour of every day below the goal, #RRGGBB (svg, html, coloured text; default: the palette's three levels).", valueName: "color"))
    var partialColor: String?

    @Option(help: ArgumentHelp("Fill colour of days without points, #RRGGBB (svg, html, coloured text; default: the palette's).", valueName: "color"))
    var noneColor: String?

    func validate() throws {
        _ = try rules()
    }

    /// The palette's presentation rules with the fills the colour options name.
    func rules() throws -> DayPresentationRules {
        var rules = palette.palette.rules
        for (status, option, value) in [(DayStatus.met, "--met-color", metColor), (.partial, "--partial-color", partialColor), (.none, "--none-color", noneColor)] {
            guard let value else { continue }
            guard let color = RGBColor(hex: value) else {
                throw ValidationError("\(option) takes a colour #RRGGBB (or #RGB), not '\(value.escapingControlCharacters())'.")
            }
            rules = rules.filling(status, with: color)
        }
        return rules
    }
}
