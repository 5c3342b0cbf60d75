// A year of practice as a heatmap (`ReportView.year`): a column per week, a line per weekday, each
// day marked by its fraction of the goal; then the palettes' colours for the same days, and a
// colour-blind reader's view of them.
// Foundation gives `Date`: "now" is the caller's to pass (the library reads no clock).
import Foundation
import StreakCal

var settings = ReportSettings(requiredPoints: 100, timeZone: "UTC")
settings.from = Day("2024-01-01")
settings.to = Day("2024-03-31")
settings.view = .year
let scored = try settings.scored([.file("Fixtures/tutorial-sample.ics")], now: Int64(Date().timeIntervalSince1970))
let text = ReportFormat.text.render(scored)
for line in text.split(separator: "\n").drop(while: { $0 != "2024" }).prefix(9) { print(line) }
// Prints:
// 2024
//    Jan  Feb Mar  Apr May Jun  Jul Aug Sep  Oct Nov Dec
// Su  ·······✓·····
// Mo ········✓····
// Tu ·······✓·····
// We ·············
// Th ·············
// Fr ·············
// Sa ·······◔·····

let partialDay = scored.report.total(on: Day("2024-02-24"))!
print(partialDay.points, partialDay.required, ReportPalette.level(of: partialDay)!)
// Prints "30 100 1"
for palette in ReportPalette.all {
    let fill = palette.rules.presentation(for: partialDay).fill
    print(palette.name, fill, fill.seen(with: .deuteranopia))
}
// Prints:
// standard #C6E8A8 #E9DDAB
// github #9BE9A8 #DED4AC
// high-contrast #CFE2F3 #D7DEF3
// tutorial #D70015 #887900
