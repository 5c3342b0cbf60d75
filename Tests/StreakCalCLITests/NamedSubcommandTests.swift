import ArgumentParser
import CalendarLayout
import StreakCal
@testable import streakcal
import Testing

/// `StreakCalCommand.namedSubcommand`: a subcommand named first is parsed by itself, and gives
/// what the whole tree of commands gives; anything else goes through the tree.
@Suite("A subcommand named first is parsed by itself")
struct NamedSubcommandTests {
    /// Everything a parsed command holds, as `dump` writes it.
    private func contents(_ command: any ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    @Test("The same command, with the same values, as parsing from the root", arguments: [
        ["report", "Fixtures/all-day-events.ics"],
        ["report", "--format", "json", "--tz", "Europe/Berlin", "--from", "2024-01-01", "--to", "2024-12-31", "Fixtures/all-day-events.ics"],
        ["report", "Fixtures/all-day-events.ics", "--required", "3", "--points", "minutes", "--day-start", "04:00", "--strict"],
        ["report", "--", "Fixtures/all-day-events.ics"],
        ["report", "Fixtures/all-day-events.ics", "report"],
        ["sessions", "Fixtures/all-day-events.ics", "--tz", "UTC", "--on", "2024-03-01"],
        ["annotate", "Fixtures/all-day-events.ics", "-o", "/tmp/annotated.ics", "--required", "2"],
        ["layout", "--month", "2024-02", "--width", "700", "--first-weekday", "monday"],
        ["batch", "Fixtures", "--out", "/tmp/reports", "--jobs", "2", "--format", "json", "--no-timings"],
        ["batch", "help", "--out", "/tmp/reports"],
        ["batch", "--jsonl", "--order", "completion", "--format", "csv"],
    ])
    func sameAsTheTree(arguments: [String]) throws {
        let named = try #require(StreakCalCommand.namedSubcommand(arguments))
        let fromRoot = try StreakCalCommand.parseAsRoot(arguments)
        #expect(type(of: named) == type(of: fromRoot))
        #expect(contents(named) == contents(fromRoot))
    }

    @Test("Help, the version, completion scripts, errors and the default subcommand go through the tree", arguments: [
        [], ["Fixtures/all-day-events.ics"], ["--version"], ["-h"], ["help", "batch"],
        ["report", "--help"], ["report", "-h"], ["batch", "--help"], ["batch", "--version"],
        ["batch", "--generate-completion-script", "bash"], ["report", "--nonsense", "Fixtures/all-day-events.ics"],
        ["report"], ["batch", "Fixtures"], ["layout", "--width", "3"], ["report", "--required", "0", "Fixtures/all-day-events.ics"],
        ["reports", "Fixtures/all-day-events.ics"], ["sessions", "Fixtures/all-day-events.ics"],
    ])
    func throughTheTree(arguments: [String]) {
        #expect(StreakCalCommand.namedSubcommand(arguments) == nil)
    }

    @Test("The comparison sees the values: command lines that differ in one value compare different")
    func comparisonSeesValues() throws {
        let three = try #require(StreakCalCommand.namedSubcommand(["report", "--required", "3", "Fixtures/all-day-events.ics"]))
        let four = try #require(StreakCalCommand.namedSubcommand(["report", "--required", "4", "Fixtures/all-day-events.ics"]))
        let other = try #require(StreakCalCommand.namedSubcommand(["report", "--required", "3", "Fixtures/folding.ics"]))
        #expect(contents(three) != contents(four))
        #expect(contents(three) != contents(other))
    }
}

@Suite("Options with a closed set of values")
struct OptionChoiceTests {
    /// What ArgumentParser's own `allValueStrings` gives such a type.
    private func argumentParserNames<T: CaseIterable & RawRepresentable>(_ type: T.Type) -> [String] where T.RawValue == String {
        T.allCases.map(\.rawValue.defaultValueDescription)
    }

    @Test("Their value names are ArgumentParser's, in the cases' order")
    func names() {
        #expect(PointsOption.allValueStrings == ["x-points", "minutes", "count"])
        #expect(PaletteName.allValueStrings == ["standard", "github", "high-contrast", "tutorial"])
        #expect(PointsOption.allValueStrings == argumentParserNames(PointsOption.self))
        #expect(ColorChoice.allValueStrings == argumentParserNames(ColorChoice.self))
        #expect(FirstWeekday.allValueStrings == argumentParserNames(FirstWeekday.self))
        #expect(PaletteName.allValueStrings == argumentParserNames(PaletteName.self))
        #expect(ViewChoice.allValueStrings == argumentParserNames(ViewChoice.self))
        #expect(StreakCalCommand.Layout.Format.allValueStrings == argumentParserNames(StreakCalCommand.Layout.Format.self))
        #expect(StreakCalCommand.Layout.Mode.allValueStrings == argumentParserNames(StreakCalCommand.Layout.Mode.self))
        #expect(ReportFormat.allValueStrings == argumentParserNames(ReportFormat.self))
        #expect(JSONLinesBatch.Order.allValueStrings == argumentParserNames(JSONLinesBatch.Order.self))
        #expect(RowPolicy.allValueStrings == argumentParserNames(RowPolicy.self))
    }
}
