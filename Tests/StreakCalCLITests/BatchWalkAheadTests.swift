import ArgumentParser
import Foundation
import StreakCal
@testable import streakcal
import Testing

/// `streakcal batch` reads the paths and the format from its command line before ArgumentParser
/// does, to begin the walk while ArgumentParser parses (`Batch.pathsAndFormat`).
@Suite("batch reads its paths and format ahead of ArgumentParser")
struct BatchWalkAheadTests {
    @Test("The paths and format ArgumentParser parses", arguments: [
        ["cals", "--out", "reports"],
        ["cals", "more/x.ics", "--out", "reports"],
        ["--out", "reports", "cals", "--format", "json", "--jobs", "2"],
        ["--out=reports", "--format=csv", "cals"],
        ["cals", "--format", "md", "--out", "reports", "--format", "html"],
        ["--tz", "UTC", "--from", "2024-01-01", "--to", "2024-12-31", "--points", "x-points", "cals", "--out", "r"],
        ["--required", "5", "cals", "--out", "r", "--max-instances=20"],
        ["--strict", "cals", "--no-timings", "--no-today-grace", "--jobs", "1", "--out", "r"],
        ["--skip", "2024-01-01", "--skip", "2024-02-01..2024-02-03", "--habit", "run=summary:run", "cals", "--out", "r"],
        ["--rules", "rules.json", "--schedule", "mon-fri:60,sat-sun:0", "--week-starts", "sun", "cals", "--out", "r"],
        ["--period-goal", "week:3", "--freezes", "2", "--best-streaks", "3", "--skip-category", "vacation", "cals", "--out", "r"],
        ["--first-weekday", "monday", "--palette", "github", "--met-color", "#00ff00", "--partial-color", "#ffff00",
         "--none-color", "#ff0000", "--view", "year", "cals", "--out", "r"],
        ["--day-start", "04:00", "--points-property", "X-SCORE", "--order", "input", "cals", "--out", "r"],
        ["--out", "reports", "--", "--format", "-x.ics"],
        ["--jsonl"],
        ["--jsonl", "--format", "csv", "--order", "completion"],
    ])
    func sameAsArgumentParser(arguments: [String]) throws {
        let parsed = try StreakCalCommand.Batch.parse(arguments)
        let ahead = try #require(StreakCalCommand.Batch.pathsAndFormat(in: arguments[...]))
        #expect(ahead.paths == parsed.paths)
        #expect(ahead.format == parsed.format)
    }

    @Test("Nothing read from a command line with a short option, or a value or format missing", arguments: [
        ["-h", "cals"], ["cals", "--format"], ["cals", "--format", "pdf"], ["cals", "--out"],
    ])
    func unread(arguments: [String]) {
        #expect(StreakCalCommand.Batch.pathsAndFormat(in: arguments[...]) == nil)
    }

    @Test("The options taking a value are those ArgumentParser describes as options")
    func optionsTakingValues() throws {
        struct ToolInfo: Decodable {
            struct Command: Decodable { var arguments: [Argument] }
            struct Argument: Decodable {
                struct Name: Decodable { var kind: String; var name: String }
                var kind: String
                var names: [Name]?
            }
            var command: Command
        }
        let info = try JSONDecoder().decode(ToolInfo.self, from: Data(StreakCalCommand.Batch._dumpHelp().utf8))
        let options = info.command.arguments.filter { $0.kind == "option" }
        // Long names only: a short one would make `pathsAndFormat` give up.
        #expect(options.allSatisfy { $0.names?.allSatisfy { $0.kind == "long" } ?? false })
        #expect(Set(options.flatMap { $0.names ?? [] }.map(\.name)) == StreakCalCommand.Batch.optionsTakingValues)
        #expect(info.command.arguments.filter { $0.kind == "positional" }.count == 1)
    }
}
