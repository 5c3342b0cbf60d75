import ArgumentParser
import StreakCal

/// The first column of month grids, as the CLI spells it.
enum FirstWeekday: String, ExpressibleByArgument, CaseIterable {
    case sunday, monday, tuesday, wednesday, thursday, friday, saturday

    var weekday: Weekday { Weekday.allCases[Self.allCases.firstIndex(of: self) ?? 0] }
}

/// How days look: the first weekday of grids and the fill colours by status (report, layout).
struct PresentationOptions: ParsableArguments {
    @Option(help: "The first column of month grids (text, md, svg, html, layouts).")
    var firstWeekday: FirstWeekday = .sunday

    @Option(help: ArgumentHelp("Fill colour of days that met the goal, #RRGGBB (svg, html, coloured text; default #1E8336).", valueName: "color"))
    var metColor: String?

    @Option(help: ArgumentHelp("Fill colour of days below the goal, #RRGGBB (svg, html, coloured text; default #D70015).", valueName: "color"))
    var partialColor: String?

    @Option(help: ArgumentHelp("Fill colour of days without points, #RRGGBB (svg, html, coloured text; default #6C6C70).", valueName: "color"))
    var noneColor: String?

    func validate() throws {
        _ = try rules()
    }

    /// The standard presentation rules with the fills the colour options name.
    func rules() throws -> DayPresentationRules {
        var rules = DayPresentationRules.standard
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
