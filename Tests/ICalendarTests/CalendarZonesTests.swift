@testable import ICalendar
import Streaks
import Testing

/// `CalendarZones`, the VTIMEZONEs of one import: which calendar's definition a time in another
/// calendar gets.
@Suite("VTIMEZONEs of an import")
struct CalendarZonesTests {
    /// A zone of one fixed offset.
    private static func definition(_ tzid: String, offset: Int) -> ZoneDefinition {
        ZoneDefinition(
            timeZoneID: tzid,
            observances: [.init(
                name: "STANDARD", start: LocalDateTime(year: 1970, month: 1, day: 1)!, offsetFrom: offset, offsetTo: offset,
                rules: [], onsets: [])],
            problems: [])
    }

    private static func begin(line: Int) -> ContentLine {
        ContentLine(text: "BEGIN:VTIMEZONE", line: line, name: "BEGIN", valueColumn: 7)
    }

    @Test("A TZID no calendar defines has none; one another calendar defines has that calendar's; its own comes first")
    func owners() throws {
        let zones = CalendarZones(lastYear: 2030)
        #expect(zones.define(Self.definition("Plus Five", offset: 18_000), begin: Self.begin(line: 40), calendar: 2) == nil)
        #expect(zones.define(Self.definition("Minus Two", offset: -7_200), begin: Self.begin(line: 90), calendar: 5) == nil)
        // A second VTIMEZONE of a TZID gives way to the first, and says where that one is when its rules differ.
        #expect(zones.define(Self.definition("Plus Five", offset: 3_600), begin: Self.begin(line: 120), calendar: 7)?.line == 40)

        #expect(zones.rules(for: "Nowhere", calendar: 0) == nil)
        #expect(zones.rules(for: "Plus Five", calendar: 0)?.rules.utcOffset(at: 0) == 18_000)
        #expect(zones.rules(for: "Plus Five", calendar: 7)?.rules.utcOffset(at: 0) == 18_000)
        #expect(zones.rules(for: "Minus Two", calendar: 2)?.rules.utcOffset(at: 0) == -7_200)
        #expect(zones.rules(for: "Minus Two", calendar: 9)?.rules.utcOffset(at: 0) == -7_200)
        #expect(zones.definesAnywhere("Minus Two"))
        #expect(!zones.defines("Minus Two", calendar: 2))
        #expect(zones.defines("Minus Two", calendar: 5))
    }
}
