@testable import ICalendar
import Streaks
import Testing

/// `InputZones`, the zones of one import read before its events, and `TimeZoneDefinitions`, the
/// VTIMEZONEs it meets on the way.
@Suite("Zones of an import")
struct InputZonesTests {
    /// A zone of one fixed offset.
    private static func definition(_ tzid: String, offset: Int) -> ZoneDefinition {
        ZoneDefinition(
            timeZoneID: tzid,
            observances: [.init(
                name: "STANDARD", start: LocalDateTime(year: 1970, month: 1, day: 1)!, offsetFrom: offset, offsetTo: offset,
                rules: [], onsets: [])],
            problems: [])
    }

    /// An Outlook-style zone: onsets since 1601, DST by yearly rules.
    private static func outlookZone(_ tzid: String, standard: Int) -> ZoneDefinition {
        let start = LocalDateTime(year: 1601, month: 1, day: 1, hour: 2)!
        return ZoneDefinition(
            timeZoneID: tzid,
            observances: [
                .init(name: "STANDARD", start: start, offsetFrom: standard + 3_600, offsetTo: standard,
                      rules: ["FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10"], onsets: []),
                .init(name: "DAYLIGHT", start: start, offsetFrom: standard, offsetTo: standard + 3_600,
                      rules: ["FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3"], onsets: []),
            ],
            problems: [])
    }

    private static func begin(line: Int) -> ContentLine {
        ContentLine(text: "BEGIN:VTIMEZONE", line: line, name: "BEGIN", valueColumn: 7)
    }

    private static let window = ZoneExpansionWindow(RecurrenceExpansion(
        from: try! Day(year: 2024, month: 1, day: 1), through: try! Day(year: 2024, month: 12, day: 31)))

    @Test("The first VTIMEZONE of a TZID defines it; a later one with other rules is said to give way")
    func firstDefines() {
        var definitions = TimeZoneDefinitions()
        #expect(definitions.define(Self.definition("Plus Five", offset: 18_000), begin: Self.begin(line: 40)).isEmpty)
        #expect(definitions.define(Self.definition("Plus Five", offset: 18_000), begin: Self.begin(line: 80)).isEmpty)
        let said = definitions.define(Self.definition("Plus Five", offset: 3_600), begin: Self.begin(line: 120))
        #expect(said.map(\.message) == ["another VTIMEZONE Plus Five, with other rules, comes first (line 40); this one is ignored"])
        #expect(definitions.define(nil, begin: Self.begin(line: 130)).map(\.message) == ["VTIMEZONE without TZID; ignored"])
        #expect(definitions.all.map(\.begin.line) == [40])
    }

    @Test("Every TZID the times name has its answer before the first event: a VTIMEZONE, the IANA database, an alias, or none")
    func answers() throws {
        var outline = InputOutline.scan(InputBytes(bytes: []))
        outline.referencedTimeZoneIDs = ["Plus Five", "Europe/Berlin", "W. Europe Standard Time", "Nowhere/Zone"]
        outline.referencedTimeZoneIDSet = Set(outline.referencedTimeZoneIDs)
        let zones = InputZones(
            definitions: [(Self.definition("Plus Five", offset: 18_000), Self.begin(line: 40)),
                          (Self.definition("Plus Five", offset: 3_600), Self.begin(line: 90))],
            outline: outline, window: Self.window)
        guard case .definition(let rules) = zones.answer(for: "Plus Five") else { Issue.record("not defined"); return }
        #expect(rules.utcOffset(at: 0) == 18_000)
        guard case .database(_, let alias) = zones.answer(for: "W. Europe Standard Time") else { Issue.record("no alias"); return }
        #expect(alias == "Europe/Berlin")
        guard case .database(_, nil) = zones.answer(for: "Europe/Berlin") else { Issue.record("not IANA"); return }
        guard case .unknown = zones.answer(for: "Nowhere/Zone") else { Issue.record("known"); return }
        #expect(zones.isReadAhead && zones.defines("Plus Five") && !zones.defines("Europe/Berlin"))
    }

    @Test("300 Outlook zones with onsets since 1601: the file's budget counts the report's years, so every zone is whole")
    func outlookZonesAllFit() throws {
        var outline = InputOutline.scan(InputBytes(bytes: []))
        let definitions = (0..<300).map { index in
            (Self.outlookZone("Zone \(index)", standard: (index % 24 - 12) * 3_600), Self.begin(line: 10 * index + 1))
        }
        outline.referencedTimeZoneIDs = definitions.map(\.0.timeZoneID)
        outline.referencedTimeZoneIDSet = Set(outline.referencedTimeZoneIDs)
        let zones = InputZones(definitions: definitions, outline: outline, window: Self.window)
        #expect(zones.problems.isEmpty)
        for (definition, _) in definitions {
            guard case .definition(let rules) = zones.answer(for: definition.timeZoneID) else {
                Issue.record("\(definition.timeZoneID) not defined")
                continue
            }
            // 2024-07-01 12:00 UTC is in summer time; 1990-01-15 in winter time, with the same rules.
            let standard = definition.observances[0].offsetTo
            #expect(rules.utcOffset(at: 1_719_835_200) == standard + 3_600, "\(definition.timeZoneID)")
            #expect(rules.utcOffset(at: 632_361_600) == standard, "\(definition.timeZoneID)")
        }
    }

    @Test("A zone's onsets before the counted years: the latest 2,000 are kept, and the offset they leave in force")
    func earlyOnsetsBounded() {
        // Monthly DST flips from year 1000: 12,288 onsets before the counted years.
        let start = LocalDateTime(year: 1000, month: 1, day: 1)!
        let definition = ZoneDefinition(
            timeZoneID: "Flip",
            observances: [.init(name: "STANDARD", start: start, offsetFrom: 3_600, offsetTo: 0, rules: ["FREQ=MONTHLY;INTERVAL=2;COUNT=4000"], onsets: []),
                          .init(name: "DAYLIGHT", start: LocalDateTime(year: 1000, month: 2, day: 1)!, offsetFrom: 0, offsetTo: 3_600,
                                rules: ["FREQ=MONTHLY;INTERVAL=2;COUNT=4000"], onsets: [])],
            problems: [])
        var budget = ZoneExpansionBudget()
        let (rules, problems) = definition.rules(in: Self.window, budget: &budget)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("it has more than 2000 onsets before 2023") == true)
        #expect(budget.onsets == ZoneExpansionBudget.onsets)  // none counted: all before 2023
        // The last onsets (1666) are kept: in 1660 the offsets still flip month by month.
        let june1660 = LocalDateTime(year: 1660, month: 6, day: 15)!.secondsSince1970
        let july1660 = LocalDateTime(year: 1660, month: 7, day: 15)!.secondsSince1970
        #expect(rules.utcOffset(at: june1660) != rules.utcOffset(at: july1660))
    }
}
