import Foundation
@testable import ICalendar
import Streaks
import Testing

/// The VTIMEZONE `CalendarWriter` makes for `tzid`, read back by the import's own VTIMEZONE reader
/// and expanded through `lastYear`.
private func generatedRules(_ tzid: String, years: ClosedRange<Int>, expandedThrough lastYear: Int) throws -> (text: String, rules: TimeZoneRules) {
    let text = try #require(CalendarWriter.timeZone(tzid, years: years)).text
    let definition = try #require(ParsedComponent(parsing: text)?.withView { ZoneDefinition.read(from: $0) })
    #expect(definition.timeZoneID == tzid)
    #expect(definition.problems.isEmpty)
    var budget = ZoneExpansionBudget()
    let window = ZoneExpansionWindow(RecurrenceExpansion(
        from: try! Day(year: years.lowerBound, month: 1, day: 1), through: try! Day(year: lastYear - 1, month: 12, day: 31)))
    let (rules, problems) = definition.rules(in: window, budget: &budget)
    #expect(problems.isEmpty)
    return (text, rules)
}

/// Instants to compare offsets at: a second either side of each of the zone's transitions in the
/// years, and every day's noon.
private func probes(_ rules: TimeZoneRules, years: ClosedRange<Int>) -> [Int64] {
    let start = LocalDateTime(normalizingYear: years.lowerBound, month: 1, day: 1).secondsSince1970 + 86_400
    let end = LocalDateTime(normalizingYear: years.upperBound + 1, month: 1, day: 1).secondsSince1970 - 86_400
    var instants = rules.transitions(in: start...end).flatMap { [$0.instant - 1, $0.instant, $0.instant + 1] }
    instants += stride(from: start + 43_200, to: end, by: 86_400)
    return instants
}

@Suite("VTIMEZONEs made from IANA rules")
struct GeneratedTimeZoneTests {
    /// Zones with a yearly rule in either hemisphere (last Sunday, nth Sunday, tzdata's `Fri>=23`), a
    /// half-hour DST (Lord Howe), a -03:30 zone, daylight saving time abolished (Sao Paulo 2019), an
    /// irregular rule (Casablanca), a skipped day (Apia 2011), no change since 1951 (Tokyo), and none
    /// ever (Etc/GMT+5); and Windows and display names for IANA zones.
    @Test("Offsets agree with TimeZoneRules in every covered year, on both sides of each DST switch", arguments: [
        ("Europe/Berlin", "Europe/Berlin"), ("America/New_York", "America/New_York"), ("Australia/Sydney", "Australia/Sydney"),
        ("Asia/Jerusalem", "Asia/Jerusalem"), ("Australia/Lord_Howe", "Australia/Lord_Howe"), ("America/St_Johns", "America/St_Johns"),
        ("America/Sao_Paulo", "America/Sao_Paulo"), ("Africa/Casablanca", "Africa/Casablanca"), ("Pacific/Apia", "Pacific/Apia"),
        ("Asia/Tokyo", "Asia/Tokyo"), ("Etc/GMT+5", "Etc/GMT+5"), ("W. Europe Standard Time", "Europe/Berlin"),
        ("Pacific Standard Time", "America/Los_Angeles"), ("(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
    ])
    func offsetsAgree(tzid: String, iana: String) throws {
        let reference = try #require(TimeZoneRules(identifier: iana))
        let years = 1990...2035
        let (_, generated) = try generatedRules(tzid, years: years, expandedThrough: years.upperBound)
        for instant in probes(reference, years: years) {
            #expect(generated.utcOffset(at: instant) == reference.utcOffset(at: instant), "\(tzid) at \(instant)")
        }
    }

    @Test("A zone's current yearly rule is one RRULE per switch, with no end: later years are covered too")
    func yearlyRule() throws {
        let (text, generated) = try generatedRules("Europe/Berlin", years: 2024...2024, expandedThrough: 2100)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.filter { $0.hasPrefix("RRULE:") }.sorted() == [
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
        ])
        #expect(!lines.contains { $0.hasPrefix("RDATE") })
        #expect(text.contains("BEGIN:DAYLIGHT\r\nDTSTART:20230326T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\n"))
        #expect(text.contains("BEGIN:STANDARD\r\nDTSTART:20231029T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\n"))
        let reference = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
        for instant in probes(reference, years: 2024...2099) {
            #expect(generated.utcOffset(at: instant) == reference.utcOffset(at: instant), "at \(instant)")
        }
        // Jerusalem's spring switch is the Friday before the last Sunday of March (tzdata's Fri>=23).
        let jerusalem = try #require(CalendarWriter.timeZone("Asia/Jerusalem", years: 2024...2024)).text
        #expect(jerusalem.contains("RRULE:FREQ=YEARLY;BYDAY=FR;BYMONTHDAY=23,24,25,26,27,28,29;BYMONTH=3\r\n"))
    }

    @Test("Transitions before the yearly rule are RDATEs; an observance without RRULE repeats its DTSTART as an RDATE")
    func explicitOnsets() throws {
        // New York before 2007: first Sunday of April, last Sunday of October.
        let text = try #require(CalendarWriter.timeZone("America/New_York", years: 2005...2008)).text
        #expect(text.contains("BEGIN:DAYLIGHT\r\nDTSTART:20050403T020000\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nTZNAME:EDT\r\nRDATE:20050403T020000\r\nRDATE:20060402T020000\r\nEND:DAYLIGHT\r\n"))
        #expect(text.contains("BEGIN:STANDARD\r\nDTSTART:20041031T020000\r\n"))
        #expect(text.contains("RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3\r\n"))
        // No change since 1951: one STANDARD, its onset repeated (Python's ical reads onsets from RRULE and RDATE only).
        let tokyo = try #require(CalendarWriter.timeZone("Asia/Tokyo", years: 2024...2024)).text
        #expect(tokyo == "BEGIN:VTIMEZONE\r\nTZID:Asia/Tokyo\r\nBEGIN:STANDARD\r\nDTSTART:19510909T010000\r\nTZOFFSETFROM:+1000\r\nTZOFFSETTO:+0900\r\nTZNAME:JST\r\nRDATE:19510909T010000\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n")
        // None ever: one observance with the fixed offset.
        let fixed = try #require(CalendarWriter.timeZone("Etc/GMT+5", years: 2024...2024)).text
        #expect(fixed.contains("DTSTART:19700101T000000\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0500\r\n"))
        #expect(CalendarWriter.timeZone("Mars/Olympus_Mons", years: 2024...2024) == nil)
    }

    @Test("A UTC offset with seconds keeps them", arguments: [(3600, "+0100"), (-12_600, "-0330"), (3208, "+005328"), (0, "+0000")])
    func offsetText(offset: Int, text: String) {
        #expect(TimeZoneComponent.offsetText(offset) == text)
    }

    @Test("The TZif reader finds abbreviations and refuses what is not TZif")
    func abbreviations() throws {
        let berlin = try #require(ZoneAbbreviations(identifier: "Europe/Berlin"))
        #expect(berlin.abbreviation(offset: 7200, at: utc(2024, 3, 31, 1)) == "CEST")
        #expect(berlin.abbreviation(offset: 3600, at: utc(2024, 10, 27, 1)) == "CET")
        #expect(berlin.type(offset: 7200, at: utc(2024, 3, 31, 1))?.isDaylight == true)
        #expect(ZoneAbbreviations(tzif: Array("not a zone file at all, but long enough to have a header".utf8)) == nil)
        #expect(ZoneAbbreviations(identifier: "../etc/passwd") == nil)
        #expect(ZoneAbbreviations(identifier: "Mars/Olympus_Mons") == nil)
    }
}

/// Writes `lines` (inside a VCALENDAR) back out as `CalendarWriter` copies inputs.
private func written(_ lines: [String], name: String = "input.ics") -> (input: String, output: CalendarWriter.Output) {
    let input = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    let output = try! CalendarWriter(ownedPropertyPrefix: "X-STREAKCAL-", annotationMarker: "X-STREAKCAL-ANNOTATION")
        .write([.string(input, name: name)], adding: [], timestamp: 0)
    return (input, output)
}

private func event(_ uid: String, _ start: String, points: Int = 10) -> [String] {
    ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20240101T000000Z", start, "DURATION:PT30M", "X-POINTS:\(points)", "END:VEVENT"]
}

@Suite("Annotated calendars define every TZID they use")
struct WrittenTimeZoneTests {
    /// Wall-clock times around both 2024 switches in Berlin: before, in the spring gap, after; before,
    /// in the autumn overlap (its first occurrence), after; and a weekly series across the spring switch.
    private static let berlinTimes = [
        "20240331T013000", "20240331T023000", "20240331T033000", "20241027T013000", "20241027T023000", "20241027T033000",
    ]

    @Test("An IANA and a Windows TZID without VTIMEZONE get one each; reading the output gives the input's instants", arguments: [
        "Europe/Berlin", "W. Europe Standard Time",
    ])
    func roundTrip(tzid: String) throws {
        var lines: [String] = []
        for (index, time) in Self.berlinTimes.enumerated() { lines += event("e\(index)", "DTSTART;TZID=\(tzid):\(time)") }
        lines += ["BEGIN:VEVENT", "UID:weekly", "DTSTAMP:20240101T000000Z", "DTSTART;TZID=\(tzid):20240317T090000", "DURATION:PT30M",
                  "RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE;TZID=\(tzid):20240324T090000", "X-POINTS:5", "END:VEVENT"]
        let (input, output) = written(lines)
        #expect(output.diagnostics.isEmpty)
        let text = output.text
        #expect(text.components(separatedBy: "BEGIN:VTIMEZONE").count - 1 == 1)
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:\(tzid)\r\n"))
        // Before the events that use it.
        #expect(text.range(of: "BEGIN:VTIMEZONE")!.lowerBound < text.range(of: "BEGIN:VEVENT")!.lowerBound)
        #expect(Libical.parseErrors(in: text) == [])
        let expansion = RecurrenceExpansion(from: day("2024-01-01"), through: day("2024-12-31"))
        let before = try SessionImporter(expansion: expansion).importSessions(from: .string(input, name: "input.ics"))
        let after = try SessionImporter(expansion: expansion).importSessions(from: .string(text, name: "output.ics"))
        #expect(after.sessions.map(\.id) == before.sessions.map(\.id))
        #expect(after.sessions.map(\.start) == before.sessions.map(\.start))
        #expect(before.sessions.count == 9)
        // The instants are Berlin's: +01:00 before each switch, +02:00 between them.
        #expect(after.session("e0")?.start == .instant(secondsSince1970: utc(2024, 3, 31, 0, 30)))
        #expect(after.session("e2")?.start == .instant(secondsSince1970: utc(2024, 3, 31, 1, 30)))
        #expect(after.session("e3")?.start == .instant(secondsSince1970: utc(2024, 10, 26, 23, 30)))
        #expect(after.session("e4")?.start == .instant(secondsSince1970: utc(2024, 10, 27, 0, 30)))
        #expect(after.session("e5")?.start == .instant(secondsSince1970: utc(2024, 10, 27, 2, 30)))
        // The output reads its own VTIMEZONE: no note that the TZID stands for an IANA zone.
        #expect(!after.diagnostics.contains { $0.code == .timeZoneName })
    }

    @Test("A VTIMEZONE of the input is kept as it is, even for an IANA name, and no other is made")
    func inputZoneKept() {
        let zone = ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "X-LIC-LOCATION:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                    "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "TZNAME:Odd", "END:STANDARD", "END:VTIMEZONE"]
        let (_, output) = written(event("a", "DTSTART;TZID=Europe/Berlin:20240601T090000") + zone)
        #expect(output.text.contains(zone.joined(separator: "\r\n") + "\r\n"))
        #expect(output.text.components(separatedBy: "BEGIN:VTIMEZONE").count - 1 == 1)
        #expect(output.diagnostics.isEmpty)
    }

    @Test("A TZID that names no zone keeps its events as they are, with a warning at its first use")
    func unknownZone() {
        let (_, output) = written(
            event("a", "DTSTART:20240601T090000Z") + event("b", "DTSTART;TZID=Mars/Olympus_Mons:20240601T090000")
                + event("c", "DTSTART;TZID=Mars/Olympus_Mons:20240602T090000"))
        #expect(output.text.contains("UID:b\r\nDTSTAMP:20240101T000000Z\r\nDTSTART;TZID=Mars/Olympus_Mons:20240601T090000\r\n"))
        #expect(output.text.contains("DTSTART;TZID=Mars/Olympus_Mons:20240602T090000\r\n"))
        #expect(!output.text.contains("BEGIN:VTIMEZONE"))
        #expect(output.diagnostics.map { "\($0.location.file):\($0.location.line):\($0.code)" } == ["input.ics:14:unknown-time-zone"])
        #expect(output.diagnostics.first?.sourceLine == "DTSTART;TZID=Mars/Olympus_Mons:20240601T090000")
        #expect(output.diagnostics.first?.message.hasPrefix("TZID \"Mars/Olympus_Mons\" is defined by no VTIMEZONE") == true)
    }

    @Test("A VCALENDAR of another METHOD that uses an input's VTIMEZONE gets a copy of it")
    func zoneCopiedAcrossMethods() {
        let zone = ["BEGIN:VTIMEZONE", "TZID:Custom", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0500",
                    "TZOFFSETTO:+0500", "END:STANDARD", "END:VTIMEZONE"]
        let input = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//a//EN", "METHOD:PUBLISH"] + zone
            + event("a", "DTSTART;TZID=Custom:20240601T090000") + ["END:VCALENDAR", "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//a//EN",
            "METHOD:CANCEL"] + event("b", "DTSTART;TZID=Custom:20240602T090000") + ["END:VCALENDAR"]).joined(separator: "\r\n")
        let output = try! CalendarWriter(ownedPropertyPrefix: "X-STREAKCAL-", annotationMarker: "X-STREAKCAL-ANNOTATION")
            .write([.string(input, name: "two.ics")], adding: [], timestamp: 0)
        let calendars = output.text.components(separatedBy: "BEGIN:VCALENDAR").dropFirst()
        #expect(calendars.count == 2)
        for calendar in calendars {
            #expect(calendar.contains(zone.joined(separator: "\r\n")))
        }
    }

    @Test("A TRIGGER with a DATE-TIME value gets VALUE=DATE-TIME, which RFC 5545 requires, instead of being left out")
    func dateTimeTrigger() {
        let (_, output) = written(event("a", "DTSTART:20240601T090000Z").dropLast() + [
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Now", "TRIGGER:19980403T120000Z", "END:VALARM",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Before", "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT",
        ])
        #expect(output.text.contains("TRIGGER;VALUE=DATE-TIME:19980403T120000Z\r\n"))
        #expect(output.text.contains("TRIGGER:-PT15M\r\n"))
        #expect(output.diagnostics.isEmpty)
    }

    @Test("The years a TZID is used in come from its DATE-TIME values; a rule without UNTIL runs to the end of the tables")
    func zoneUseYears() {
        #expect(CalendarWriter.zoneUse(of: "DTSTART;TZID=Europe/Berlin:20240601T090000")! == ("Europe/Berlin", 2024...2024))
        #expect(CalendarWriter.zoneUse(of: "RDATE;TZID=\"A, B\";VALUE=PERIOD:19991231T230000/20000101T010000")! == ("A, B", 1999...2000))
        #expect(CalendarWriter.zoneUse(of: "DTSTART;TZID=X;VALUE=DATE:20240601") == nil)
        #expect(CalendarWriter.zoneUse(of: "DTSTART:20240601T090000Z") == nil)
        #expect(CalendarWriter.lastYear(ofRule: "RRULE:FREQ=WEEKLY;UNTIL=20301231T000000Z") == 2030)
        #expect(CalendarWriter.lastYear(ofRule: "RRULE:FREQ=WEEKLY;COUNT=3") == YearlyRule.lastTableYear + 1)
    }
}
