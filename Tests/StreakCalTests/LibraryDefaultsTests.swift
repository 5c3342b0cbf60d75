import Foundation
import ICalendar
import StreakCal
import StreakExport
import Streaks
import Testing

private let tutorial = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/tutorial-sample.ics").path

private let now = Int64(1_709_164_800)  // 2024-02-29T00:00:00Z

/// Settings that do what they say (issue 33's library footguns): a palette colours the days, a
/// scored calendar renders with its own settings, and the goal's unit follows the points rule.
@Suite("Library defaults")
struct LibraryDefaultsTests {
    @Test("Setting the palette colours the days too, unless rules of one's own were set")
    func paletteColoursDays() {
        var settings = ReportSettings(timeZone: "UTC")
        let met = DayTotal(date: try! Day(year: 2024, month: 2, day: 20), points: 100, sessions: 1, status: .met, required: 100)
        #expect(settings.dayPresentation.presentation(for: met).fill == ReportPalette.standard.rules.presentation(for: met).fill)
        settings.palette = .github
        #expect(settings.dayPresentation.presentation(for: met).fill == ReportPalette.github.rules.presentation(for: met).fill)
        #expect(settings.dayPresentation.presentation(for: met).fill != ReportPalette.standard.rules.presentation(for: met).fill)
        // Rules of one's own stay when the palette changes afterwards.
        let red = RGBColor(hex: "#FF0000")!
        settings.dayPresentation = ReportPalette.standard.rules.filling(.met, with: red)
        settings.palette = .highContrast
        #expect(settings.dayPresentation.presentation(for: met).fill == red)
    }

    @Test("A presentation or a layout export made with a palette colours the days in it")
    func presentationPalette() {
        let met = DayTotal(date: try! Day(year: 2024, month: 2, day: 20), points: 100, sessions: 1, status: .met, required: 100)
        let github = ReportPalette.github.rules.presentation(for: met).fill
        #expect(ReportPresentation(palette: .github).rules.presentation(for: met).fill == github)
        #expect(LayoutExport(layouts: [], palette: .github).rules.presentation(for: met).fill == github)
        let red = RGBColor(hex: "#FF0000")!
        #expect(ReportPresentation(rules: DayPresentationRules.standard.filling(.met, with: red), palette: .github).rules.presentation(for: met).fill == red)
    }

    @Test("A scored calendar renders with the settings it was scored with")
    func renderWithoutSettings() throws {
        var settings = ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 2, day: 26), firstWeekday: .monday)
        settings.palette = .github
        let scored = try settings.scored([.file(tutorial)], now: now)
        for format in ReportFormat.allCases {
            #expect(format.render(scored) == format.render(scored, with: settings), "\(format)")
        }
        // Not the defaults: the first weekday and the palette carried over.
        #expect(ReportFormat.text.render(scored) != ReportFormat.text.render(scored, with: ReportSettings(timeZone: "UTC")))
    }

    @Test("Streak rules that give no required points keep the settings' goal; rules that give one set it")
    func streakRulesKeepGoal() {
        var settings = ReportSettings(requiredPoints: 60, timeZone: "UTC")
        var rules = StreakRules()
        rules.todayGrace = false
        settings.streakRules = rules
        #expect(settings.requiredPoints == 60)
        #expect(settings.streakRules.schedule.defaultPoints == 60)
        #expect(settings.streakRules.todayGrace == false)
        settings.streakRules = StreakRules(requiredPoints: 30)
        #expect(settings.requiredPoints == 30)
        // Changing one member through the settings keeps the rest, the goal included.
        settings.streakRules.freezes = FreezePolicy(budget: 2)
        #expect(settings.requiredPoints == 30)
        #expect(settings.streakRules.freezes.budget == 2)
        // The rules alone still require 100 until told otherwise, and equal rules that say 100.
        #expect(StreakRules().schedule.defaultPoints == 100)
        #expect(StreakRules() == StreakRules(requiredPoints: 100))
        #expect(StreakRules().schedule.givesDefaultPoints == false)
        #expect(StreakRules(requiredPoints: 100).schedule.givesDefaultPoints)
    }

    @Test("Grids start on a weekly goal's first day until a first weekday is set, else on Sunday (issue 50.4)", arguments: Weekday.allCases)
    func firstWeekdayFollowsTheWeeklyGoal(weekStart: Weekday) throws {
        var settings = ReportSettings()
        #expect(settings.firstWeekday == .sunday)
        settings.streakRules.periodGoal = try PeriodGoal(parsing: "week:3 days", firstWeekday: weekStart)
        #expect(settings.firstWeekday == weekStart)
        #expect(settings.presentation().firstWeekday == weekStart)
        settings.streakRules.periodGoal = try PeriodGoal(parsing: "month:10 days")
        #expect(settings.firstWeekday == .sunday)
        for given in Weekday.allCases {
            var chosen = ReportSettings(firstWeekday: given)
            chosen.streakRules.periodGoal = try PeriodGoal(parsing: "week:3 days", firstWeekday: weekStart)
            #expect(chosen.firstWeekday == given)
            chosen.firstWeekday = weekStart
            #expect(chosen.firstWeekday == weekStart)
        }
    }

    @Test("A day that does not exist is an error where settings take it, not a silent default window")
    func impossibleDayThrows() {
        var settings = ReportSettings(timeZone: "UTC")
        #expect(throws: DayError(year: 2024, month: 2, day: 30)) {
            settings.from = try Day(year: 2024, month: 2, day: 30)
        }
        #expect(settings.from == nil)
    }

    @Test("A rules file says whether it names weekStarts; the options' weekStarts start its habits' weeks too")
    func weekStart() throws {
        #expect(try RulesFile(parsing: #"{"weekStarts": "sun"}"#, file: "r.json").weekStart == .sunday)
        let unnamed = try RulesFile(parsing: #"{"habits": [{"name": "A", "filter": "all", "periodGoal": "week:2 days"}]}"#, file: "r.json")
        #expect(unnamed.weekStart == nil)
        #expect(unnamed.habits.first?.rules.periodGoal?.length == .week(firstWeekday: .monday))
        var settings = ReportSettings(timeZone: "UTC")
        var options = RuleOptions()
        options.weekStarts = .wednesday
        try settings.applyRules(unnamed, options: options)
        #expect(settings.habits.first?.rules.periodGoal?.length == .week(firstWeekday: .wednesday))
    }

    @Test("A file source names its path, - too; standard input is its own source, and - on a command line")
    func fileSources() throws {
        // No file named - here: the library says so rather than reading the process's standard input.
        #expect(!FileManager.default.fileExists(atPath: "-"))
        #expect(throws: CalendarReadError.self) { _ = try SessionImporter(expansion: RecurrenceExpansion(through: "2024-12-31")).importSessions(from: [.file("-")]) }
        do {
            _ = try CalendarSource.file("-").read()
            Issue.record("a file named - was read")
        } catch {
            #expect(error.code == .notFound)
        }
        #expect(try CalendarFolder.sources(forPaths: ["-"]).sources == [.standardInput])
        // A file is a file whatever its name: standard input is asked for by name (issue 50.6).
        #expect([CalendarSource.file("work.ics"), .file("-")] == [
            CalendarSource(name: "work.ics", content: .file(path: "work.ics")), CalendarSource(name: "-", content: .file(path: "-")),
        ])
        #expect(CalendarSource.standardInput.content == .standardInput)
    }

    @Test("The goal's unit follows the points rule the import took, and a habit's own")
    func goalUnits() throws {
        var settings = ReportSettings(requiredPoints: 1, pointsRule: .count, timeZone: "UTC", to: try! Day(year: 2024, month: 2, day: 26))
        #expect(try settings.scored([.file(tutorial)], now: now).report.goal.unit == .sessions)
        settings.pointsRule = .minutes
        #expect(try settings.scored([.file(tutorial)], now: now).report.goal.unit == .minutes)
        settings.pointsRule = .auto
        #expect(try settings.scored([.file(tutorial)], now: now).report.goal.unit == .points)
        settings.habits = [try Habit(parsing: "Early=summary:early")]
        settings.habits[0].rules.points = .minutes
        let scored = try settings.scored([.file(tutorial)], now: now)
        #expect(scored.report.goal.unit == .points)
        #expect(scored.habits.map(\.report.goal.unit) == [.minutes])
    }
}
