import StreakCal
import Testing

/// The daily goal of settings under a period goal (issue 46.5): a goal nobody set is no goal.
@Suite("Settings: a daily goal only when given")
struct PeriodGoalSettingsTests {
    static let monthly = PeriodGoal(length: .month, target: .points(900))

    @Test("No daily goal given: under a period goal a day needs any points; a goal given stays, whatever sets the rules")
    func givenOrNot() throws {
        var settings = ReportSettings(timeZone: "UTC")
        #expect(settings.requiredPoints == 100)
        var rules = StreakRules()
        rules.periodGoal = Self.monthly
        settings.streakRules = rules
        #expect(settings.requiredPoints == 1)
        #expect(settings.streakRules.scoresActiveDays)

        var given = ReportSettings(requiredPoints: 60, timeZone: "UTC")
        given.streakRules = rules
        #expect(given.requiredPoints == 60)
        #expect(!given.streakRules.scoresActiveDays)

        // Through a rules file's rules and options, as the command line applies them.
        var options = RuleOptions()
        options.periodGoal = Self.monthly
        var fromOptions = ReportSettings(timeZone: "UTC")
        try fromOptions.applyRules(nil, options: options)
        #expect(fromOptions.requiredPoints == 1)
        options.requiredPoints = 45
        try fromOptions.applyRules(nil, options: options)
        #expect(fromOptions.requiredPoints == 45)
    }
}
