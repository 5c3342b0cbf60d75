import Foundation
@testable import ICalendar
import Streaks
import Testing
import FixedClock

/// `ZoneEvidence`, what calendars say of the zone they are read in, and the report zone it picks
/// (issue 46.7).
@Suite("The report's zone from the calendars")
struct ZoneEvidenceTests {
    private static let file = SourceLocation(file: "work.ics", line: 12)

    @Test("Event zones: IANA names, Windows names for one, each zone once and in order; a VTIMEZONE-only TZID is none")
    func eventZones() {
        let zones = ZoneEvidence.eventZones(named: ["W. Europe Standard Time", "Europe/Berlin", "Custom Zone 1", "America/New_York"])
        #expect(zones == [.init(zone: "Europe/Berlin", tzid: "W. Europe Standard Time"), .init(zone: "America/New_York", tzid: "America/New_York")])
        let many = ZoneEvidence.eventZones(named: ["Europe/Berlin", "Europe/Paris", "Europe/Rome", "Europe/Madrid", "Europe/Oslo",
                                                    "Europe/Vienna", "Europe/Prague", "Europe/Warsaw", "Europe/Lisbon", "Asia/Tokyo"])
        #expect(many.count == ZoneEvidence.maximumKept)
    }

    @Test("--tz decides and says nothing")
    func requestedZone() {
        let evidence = ZoneEvidence(declared: ["Asia/Tokyo"], eventZones: [.init(zone: "Europe/Berlin", tzid: "Europe/Berlin")])
        let (zone, diagnostics) = evidence.reportZone(requested: "America/Chicago", fallback: .utc, firstSession: Self.file)
        #expect(zone.identifier == "America/Chicago")
        #expect(diagnostics.isEmpty)
    }

    @Test("The declared zone, the events' zone, then the fallback given, each with what is said at line 1")
    func choice() {
        let berlin = ZoneEvidence.EventZone(zone: "Europe/Berlin", tzid: "W. Europe Standard Time")
        let declaredAndUsed = ZoneEvidence(declared: ["Europe/Berlin"], eventZones: [berlin]).reportZone(requested: nil, fallback: .utc, firstSession: Self.file)
        #expect(declaredAndUsed.zone.identifier == "Europe/Berlin" && declaredAndUsed.diagnostics.isEmpty)

        let declaredOnly = ZoneEvidence(declared: ["Asia/Tokyo"], eventZones: [berlin]).reportZone(requested: nil, fallback: .utc, firstSession: Self.file)
        #expect(declaredOnly.zone.identifier == "Asia/Tokyo")
        #expect(declaredOnly.diagnostics.map(\.code) == [.reportZone])
        #expect(declaredOnly.diagnostics.first?.location == SourceLocation(file: "work.ics", line: 1))

        let several = ZoneEvidence(declared: ["Asia/Tokyo", "Europe/Berlin"]).reportZone(requested: nil, fallback: .utc, firstSession: Self.file)
        #expect(several.zone.identifier == "Asia/Tokyo")
        #expect(several.diagnostics.map(\.message) == ["the calendars declare 2 zones (X-WR-TIMEZONE Asia/Tokyo, Europe/Berlin): the report uses Asia/Tokyo, the first"])

        let events = ZoneEvidence(eventZones: [berlin]).reportZone(requested: nil, fallback: .utc, firstSession: Self.file)
        #expect(events.zone.identifier == "Europe/Berlin")
        #expect(events.diagnostics.map(\.severity) == [.note])

        let unknown = ZoneEvidence(declared: ["Nowhere/Else"], eventZones: [berlin]).reportZone(requested: nil, fallback: .utc, firstSession: Self.file)
        #expect(unknown.zone.identifier == "Europe/Berlin")
        #expect(unknown.diagnostics.map(\.code) == [.unknownTimeZone, .reportZone])

        let nothing = ZoneEvidence().reportZone(requested: nil, fallback: .utc, firstSession: Self.file)
        #expect(nothing.diagnostics.isEmpty)
        #expect(nothing.zone.identifier == "UTC")
        // Nothing declared, no event's zone: the fallback given, never the machine's.
        let kiritimati = ZoneEvidence().reportZone(requested: nil, fallback: "Pacific/Kiritimati", firstSession: Self.file)
        #expect(kiritimati.zone.identifier == "Pacific/Kiritimati" && kiritimati.diagnostics.isEmpty)
        let unknownFallsBack = ZoneEvidence(declared: ["Nowhere/Else"]).reportZone(requested: nil, fallback: "Asia/Tokyo", firstSession: Self.file)
        #expect(unknownFallsBack.zone.identifier == "Asia/Tokyo")
        #expect(unknownFallsBack.diagnostics.map(\.message) == ["X-WR-TIMEZONE \"Nowhere/Else\" is not an IANA time zone; the report uses Asia/Tokyo"])
    }

    @Test("Without a session nothing is said")
    func noSession() {
        let result = ZoneEvidence(declared: ["Asia/Tokyo", "Europe/Berlin"]).reportZone(requested: nil, fallback: .utc, firstSession: nil)
        #expect(result.zone.identifier == "Asia/Tokyo" && result.diagnostics.isEmpty)
    }

    @Test("An import gathers X-WR-TIMEZONE and the TZIDs of its events; the report reads its times in that zone")
    func fromImport() {
        let text = """
            BEGIN:VCALENDAR\r
            X-WR-TIMEZONE:Asia/Tokyo\r
            BEGIN:VEVENT\r
            UID:a\r
            DTSTART;TZID=W. Europe Standard Time:20240610T003000\r
            DTEND;TZID=W. Europe Standard Time:20240610T013000\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:b\r
            DTSTART;TZID=Eastern Standard Time:20240611T003000\r
            DTEND;TZID=Eastern Standard Time:20240611T013000\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let imported = SessionImporter(expansion: testExpansion).importText(text, name: "outlook.ics")
        #expect(imported.zoneEvidence.declared == ["Asia/Tokyo"])
        #expect(imported.zoneEvidence.eventZones.map(\.zone) == ["Europe/Berlin", "America/New_York"])
        let withoutDeclared = SessionImporter(expansion: testExpansion).importText(text.replacingOccurrences(of: "X-WR-TIMEZONE:Asia/Tokyo\r\n", with: ""), name: "outlook.ics")
        let (_, zone) = withoutDeclared.inReportZone(requested: nil, fallback: .utc)
        #expect(zone.identifier == "Europe/Berlin")
    }
}
