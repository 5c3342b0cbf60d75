import Foundation
import StreakCal
import Testing
import FixedClock

/// Concurrent use from Swift concurrency (issue 50): a server scores many calendars at once from a
/// task group, each import on its own; every report is the one a sequential run gives. ThreadSanitizer
/// runs this suite too (`scripts/test`), which would report a race in the library's shared state
/// (libical's set-up, the zone database, the classifier's tables).
@Suite("Concurrent use")
struct ConcurrentUseTests {
    /// Every fixture (`calendarFixtureNames()`: in the sanitizer runs, all but the slowest).
    private static var fixtures: [String] {
        calendarFixtureNames().map { fixtureFolder.appendingPathComponent($0).path }
    }

    /// The settings of every report here: fixed window, a habit, `parallelism` threads per import.
    private static func settings(zone: TimeZoneRules, parallelism: Int = SessionImporter.defaultParallelism) throws -> ReportSettings {
        var settings = ReportSettings(requiredPoints: 60, timeZone: zone, from: try Day(year: 2023, month: 12, day: 1), to: try Day(year: 2024, month: 12, day: 31))
        settings.habits = [try Habit(parsing: "Work=categories:work")]
        settings.parallelism = parallelism
        return settings
    }

    private static func text(_ scored: ScoredCalendar, _ settings: ReportSettings) -> String {
        ReportFormat.json.render(scored, with: settings) + scored.imported.diagnostics.map(\.description).joined(separator: "\n")
    }

    /// A fixture's JSON report and diagnostics, with fixed settings and "now": the blocking call.
    private static func report(_ path: String, zone: TimeZoneRules) throws -> String {
        let settings = try settings(zone: zone)
        return text(try settings.scored([.file(path)], for: .json, now: testNow), settings)
    }

    /// The same through the `async` call, two threads per import.
    private static func reportSuspending(_ path: String, zone: TimeZoneRules) async throws -> String {
        let settings = try settings(zone: zone, parallelism: 2)
        return text(try await settings.scored([.file(path)], for: .json, now: testNow), settings)
    }

    @Test("Every fixture in three zones, scored from a task group twice over (blocking, then async with two threads each): each report the sequential one")
    func taskGroupEqualsSequential() async throws {
        let zones: [TimeZoneRules] = ["UTC", "Europe/Berlin", "Pacific/Kiritimati"]
        let jobs = Self.fixtures.flatMap { path in zones.map { (path, $0) } }
        #expect(jobs.count > 60)
        var sequential: [Int: String] = [:]
        for (index, job) in jobs.enumerated() { sequential[index] = try Self.report(job.0, zone: job.1) }
        let rounds = 2
        let concurrent = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for round in 0..<rounds {
                for (index, job) in jobs.enumerated() {
                    if round == 0 {
                        group.addTask { (index, try Self.report(job.0, zone: job.1)) }
                    } else {
                        group.addTask { (index, try await Self.reportSuspending(job.0, zone: job.1)) }
                    }
                }
            }
            var reports: [(Int, String)] = []
            for try await report in group { reports.append(report) }
            return reports
        }
        #expect(concurrent.count == jobs.count * rounds)
        for (index, report) in concurrent where report != sequential[index] {
            Issue.record("\(jobs[index].0) in \(jobs[index].1): the concurrent report differs from the sequential one")
        }
    }
}
