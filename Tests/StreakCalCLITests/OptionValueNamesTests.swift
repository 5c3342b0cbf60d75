import ArgumentParser
import CalendarLayout
import StreakCal
@testable import streakcal
import Testing

@Suite("Options with a closed set of values")
struct OptionValueNamesTests {
    @Test("Their value names, as help and completion scripts list them, in the cases' order")
    func names() {
        #expect(PointsOption.allValueStrings == ["auto", "x-points", "minutes", "count"])
        #expect(PaletteName.allValueStrings == ["standard", "github", "high-contrast", "tutorial"])
        #expect(ColorChoice.allValueStrings == ["auto", "always", "never"])
        #expect(FirstWeekday.allValueStrings == ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"])
        #expect(ViewChoice.allValueStrings == ["auto", "month", "year", "rolling", "hours"])
        #expect(StreakCalCommand.Layout.Format.allValueStrings == ["text", "json", "svg"])
        #expect(StreakCalCommand.Layout.Mode.allValueStrings == ["month", "week"])
        #expect(ReportFormat.allValueStrings == ReportFormat.allCases.map(\.rawValue))
        #expect(ReportFormat.allValueStrings.contains("json") && ReportFormat.allValueStrings.contains("html"))
        #expect(JSONLinesBatch.Order.allValueStrings == ["input", "completion"])
        #expect(RowPolicy.allValueStrings == RowPolicy.allCases.map(\.rawValue))
    }
}
