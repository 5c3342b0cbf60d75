import Streaks
import Testing

/// A number a rule cannot hold stops the program, as an index out of range does (issue 50.3): it
/// used to become another number without a word (`requiredPoints` 0 became 1, a freeze budget of
/// −3 became 0). Numbers from elsewhere are read by the throwing `init(parsing:)`s, or checked
/// against the ranges the types publish.
@Suite("Rule numbers out of range stop the program")
struct RuleRangeTests {
    @Test("The edges of each range are kept as given")
    func edges() {
        #expect(GoalSchedule(requiredPoints: 1).defaultPoints == 1)
        #expect(GoalSchedule(requiredPoints: GoalSchedule.maximumPoints).defaultPoints == 1_000_000_000)
        #expect(GoalSchedule.Entry(weekdays: [.sunday], requiredPoints: 0).requiredPoints == 0)
        #expect(PeriodGoal(length: .month, target: .metDays(1)).target == .metDays(1))
        let policy = FreezePolicy(budget: 1_000_000, earnedEvery: 1, maximumHeld: 0)
        #expect(policy.budget == 1_000_000 && policy.earnedEvery == 1 && policy.maximumHeld == 0)
        #expect(StreakGoal(requiredPoints: 1, timeZone: .utc).requiredPoints == 1)
        #expect(HabitRules(requiredPoints: 1).applied(to: StreakRules(requiredPoints: 60)).schedule.defaultPoints == 1)
        #expect(GoalSchedule.pointsRange == 1...1_000_000_000 && GoalSchedule.entryPointsRange == 0...1_000_000_000)
        #expect(FreezePolicy.countRange == 0...1_000_000)
    }

    @Test("Parsed, the same numbers throw rather than stop")
    func parsedThrows() {
        #expect(throws: StreakRulesSyntaxError.self) { try PeriodGoal(parsing: "week:0 days") }
        #expect(throws: StreakRulesSyntaxError.self) { try FreezePolicy(parsing: "every 0") }
        #expect(throws: StreakRulesSyntaxError.self) { try FreezePolicy(parsing: "1000001") }
        #expect(throws: StreakRulesSyntaxError.self) { var schedule = GoalSchedule(); try schedule.add(parsing: "mon:-5") }
    }

    @Test("Required points of 0 or −5 stop the program")
    func requiredPoints() async {
        await #expect(processExitsWith: .failure) { _ = GoalSchedule(requiredPoints: 0) }
        await #expect(processExitsWith: .failure) { _ = StreakRules(requiredPoints: -5) }
        await #expect(processExitsWith: .failure) {
            var schedule = GoalSchedule()
            schedule.defaultPoints = 0
        }
        await #expect(processExitsWith: .failure) { _ = StreakGoal(requiredPoints: 0, timeZone: .utc) }
        await #expect(processExitsWith: .failure) { _ = HabitRules(requiredPoints: 0) }
        await #expect(processExitsWith: .failure) { _ = GoalSchedule.Entry(weekdays: [.monday], requiredPoints: -1) }
    }

    @Test("A period target of 0, and freezes below 0 or earned every 0 days, stop the program")
    func periodsAndFreezes() async {
        await #expect(processExitsWith: .failure) { _ = PeriodGoal(length: .month, target: .metDays(0)) }
        await #expect(processExitsWith: .failure) { _ = PeriodGoal(length: .month, target: .points(0)) }
        await #expect(processExitsWith: .failure) { _ = FreezePolicy(budget: -3) }
        await #expect(processExitsWith: .failure) { _ = FreezePolicy(earnedEvery: 0) }
        await #expect(processExitsWith: .failure) { _ = FreezePolicy(maximumHeld: -1) }
        await #expect(processExitsWith: .failure) {
            var policy = FreezePolicy()
            policy.budget = -3
        }
    }
}
