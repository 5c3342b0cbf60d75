import Foundation
import Testing
@testable import ICalendar

/// What callers pass: every identifier Foundation's `TimeZone` accepts, backward links and abbreviations included.
private func foundationKnows(_ identifier: String) -> Bool {
    TimeZone(identifier: identifier) != nil
}

/// Stricter: only the canonical identifiers Foundation lists (no "US/Eastern", no "CST").
private let listedIdentifiers = Set(TimeZone.knownTimeZoneIdentifiers)
private func listedKnows(_ identifier: String) -> Bool {
    listedIdentifiers.contains(identifier)
}

private func iana(_ tzid: String) -> String? {
    TimeZoneNames.ianaIdentifier(for: tzid, isKnown: foundationKnows)
}

/// As the resolver calls it: Foundation's lookup of the TZID itself has already failed.
private func ianaAfterFailedLookup(_ tzid: String) -> String? {
    TimeZoneNames.ianaIdentifier(for: tzid, isKnown: { $0 != tzid && foundationKnows($0) })
}

@Suite struct TimeZoneNameTests {
    // MARK: Windows ids

    @Test(arguments: [
        ("W. Europe Standard Time", "Europe/Berlin"),
        ("Romance Standard Time", "Europe/Paris"),
        ("Eastern Standard Time", "America/New_York"),
        ("Tokyo Standard Time", "Asia/Tokyo"),
        ("New Zealand Standard Time", "Pacific/Auckland"),
        ("Central European Standard Time", "Europe/Warsaw"),
        ("Central Europe Standard Time", "Europe/Budapest"),
        ("Pacific Standard Time", "America/Los_Angeles"),
        ("Central Standard Time", "America/Chicago"),
        ("GMT Standard Time", "Europe/London"),
        ("Greenwich Standard Time", "Atlantic/Reykjavik"),
        ("South Africa Standard Time", "Africa/Johannesburg"),
        ("Turkey Standard Time", "Europe/Istanbul"),
        ("SE Asia Standard Time", "Asia/Bangkok"),
        ("E. South America Standard Time", "America/Sao_Paulo"),
        ("India Standard Time", "Asia/Calcutta"),
        ("Eastern Standard Time (Mexico)", "America/Cancun"),
    ])
    func windowsIDs(tzid: String, zone: String) {
        #expect(iana(tzid) == zone)
    }

    @Test(arguments: [("UTC-11", "Etc/GMT+11"), ("UTC+12", "Etc/GMT-12"), ("UTC", "Etc/UTC")])
    func windowsIDsFoundationAlsoKnows(tzid: String, zone: String) {
        #expect(iana(tzid) == tzid)
        #expect(ianaAfterFailedLookup(tzid) == zone)
    }

    @Test(arguments: ["Europe/Berlin", "America/Argentina/Buenos_Aires", "US/Eastern", "GMT", "UTC+11"])
    func namesFoundationKnowsAreReturnedAsTheyAre(tzid: String) {
        #expect(iana(tzid) == tzid)
    }

    @Test(arguments: [
        ("w. europe standard time", "Europe/Berlin"),
        ("W. EUROPE STANDARD TIME", "Europe/Berlin"),
        ("  W. Europe  Standard Time \t", "Europe/Berlin"),
        ("W.Europe Standard Time", "Europe/Berlin"),
        ("W. Europe Daylight Time", "Europe/Berlin"),
        ("eastern standard time", "America/New_York"),
        ("\"Tokyo Standard Time\"", "Asia/Tokyo"),
        (" \" Tokyo Standard Time \" ", "Asia/Tokyo"),
        ("'Pacific Standard Time'", "America/Los_Angeles"),
        ("\"Europe/Berlin\"", "Europe/Berlin"),
    ])
    func windowsIDsInOtherCaseWhitespaceAndQuotes(tzid: String, zone: String) {
        #expect(iana(tzid) == zone)
    }

    @Test(arguments: [
        ("tzone://Microsoft/Utc", "Etc/UTC"),
        ("tzone://Microsoft/UTC", "Etc/UTC"),
        ("tzone://Microsoft/Eastern Standard Time", "America/New_York"),
        ("TZONE://MICROSOFT/W. Europe Standard Time", "Europe/Berlin"),
        ("tzone://Microsoft/Europe/Berlin", "Europe/Berlin"),
    ])
    func exchangeTZoneIDs(tzid: String, zone: String) {
        #expect(iana(tzid) == zone)
    }

    // MARK: Display names

    @Test(arguments: [
        ("(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
        ("(GMT+01.00) Amsterdam / Berlin / Bern / Rome / Stockholm / Vienna", "Europe/Berlin"),
        ("(GMT+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
        ("(UTC-05:00) Eastern Time (US & Canada)", "America/New_York"),
        ("(GMT-05:00) Eastern Time (US & Canada)", "America/New_York"),
        ("Eastern Time (US & Canada)", "America/New_York"),
        ("(UTC-03:00) Brasília", "America/Sao_Paulo"),
        ("(UTC+01:00) Brussels, Copenhagen, Madrid, Paris", "Europe/Paris"),
        ("(UTC+09:00) Osaka, Sapporo, Tokyo", "Asia/Tokyo"),
        ("(UTC+12:00) Auckland, Wellington", "Pacific/Auckland"),
        ("(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi", "Asia/Calcutta"),
        ("(UTC+00:00) Dublin, Edinburgh, Lisbon, London", "Europe/London"),
        ("(UTC+01:00) Casablanca", "Africa/Casablanca"),
        ("(UTC) Coordinated Universal Time", "Etc/UTC"),
        ("(UTC-11:00) Coordinated Universal Time-11", "Etc/GMT+11"),
    ])
    func windowsDisplayNames(tzid: String, zone: String) {
        #expect(iana(tzid) == zone)
    }

    @Test(arguments: [
        // Older or translated place lists: the first place that is a city with the stated standard offset.
        ("(UTC+01:00) Amsterdam, Berlin, Bern, Rom, Stockholm, Wien", "Europe/Amsterdam"),
        ("(GMT) Greenwich Mean Time : Dublin, Edinburgh, Lisbon, London", "Europe/Dublin"),
        ("(UTC+03:00) Moscow, St. Petersburg, Volgograd", "Europe/Moscow"),
        ("(GMT-08.00) Pacific Time (US & Canada); Tijuana", "America/Tijuana"),
        ("(UTC+02:00) Kyiv", "Europe/Kiev"),
        ("(UTC+01:00) Zürich", "Europe/Zurich"),
        // A place only a Windows display name lists.
        ("(UTC+01:00) Bern", "Europe/Berlin"),
        ("(UTC+03:00) St. Petersburg", "Europe/Moscow"),
        // A CLDR long name, with or without an offset.
        ("(UTC+01:00) Central European Time", "Europe/Paris"),
        ("Central European Time", "Europe/Paris"),
        ("Central European Summer Time", "Europe/Paris"),
        ("British Summer Time", "Europe/London"),
        ("Coordinated Universal Time", "Etc/UTC"),
        ("(UTC-08:00) Pacific Time", "America/Los_Angeles"),
    ])
    func displayNamesByPlace(tzid: String, zone: String) {
        #expect(iana(tzid) == zone)
    }

    @Test(arguments: [
        "(UTC+05:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna",
        "(UTC+02:00) Berlin",
        "(UTC-05:00) Tokyo",
        "(UTC+09:00) Central European Time",
    ])
    func displayNamesWhoseOffsetDisagreesStayUnmapped(tzid: String) {
        #expect(iana(tzid) == nil)
    }

    @Test func statedOffsetIsCheckedAgainstTheGivenStandardOffsets() {
        let tzid = "(UTC+01:00) Zürich"
        #expect(TimeZoneNames.ianaIdentifier(for: tzid, isKnown: foundationKnows, standardOffsets: { _ in [3600] })
            == "Europe/Zurich")
        #expect(TimeZoneNames.ianaIdentifier(for: tzid, isKnown: foundationKnows, standardOffsets: { _ in [7200] })
            == nil)
    }

    @Test(arguments: [
        ("(UTC+01:00)", 3600), ("(GMT+01.00)", 3600), ("(GMT +01:00)", 3600), ("(GMT+0100)", 3600),
        ("(UTC-03:30)", -12600), ("(UTC+05:45)", 20700), ("(UTC)", 0), ("(GMT)", 0), ("(UTC−05:00)", -18000),
    ])
    func statedOffsets(prefix: String, seconds: Int) {
        #expect(TimeZoneNames.DisplayName(prefix + " Somewhere").offset == seconds)
    }

    @Test(arguments: [
        "(UTC+15:00) X", "(UTC+01:60) X", "(UTC+1:2) X", "(UTC++1) X", "(UTC+100) X", "(CET+01:00) X", "(UTC-03 X", "Amsterdam",
    ])
    func textsWithoutAStatedOffset(text: String) {
        #expect(TimeZoneNames.DisplayName(text).offset == nil)
    }

    // MARK: IANA names with a vendor prefix or spelled loosely

    @Test(arguments: [
        ("/mozilla.org/20050126_1/America/New_York", "America/New_York"),
        ("/mozilla.org/20070129_1/America/New_York", "America/New_York"),
        ("/softwarestudio.org/Olson_20011030_5/America/New_York", "America/New_York"),
        ("/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("/freeassociation.sourceforge.net/Europe/Berlin", "Europe/Berlin"),
        ("/citadel.org/20190914_1/Europe/Berlin", "Europe/Berlin"),
        ("/Europe/Stockholm", "Europe/Stockholm"),
        ("/usr/share/zoneinfo/Asia/Tokyo", "Asia/Tokyo"),
        ("posix/Europe/Vaduz", "Europe/Vaduz"),
        ("right/Europe/Berlin", "Europe/Berlin"),
        ("America/Los Angeles", "America/Los_Angeles"),
        ("europe/berlin", "Europe/Berlin"),
        ("AMERICA/NEW_YORK", "America/New_York"),
        ("America-Chicago", "America/Chicago"),
        ("US-Eastern", "US/Eastern"),
        ("Europe/Berlin", "Europe/Berlin"),
    ])
    func olsonNames(tzid: String, zone: String) {
        #expect(iana(tzid) == zone)
    }

    // MARK: Names that stay unmapped

    @Test(arguments: [
        "", "   ", "\"\"", "garbage", "Nowhere/Middle", "Customized Time Zone", "MyTimezone",
        "custom_America/New_York", "custom_America/New_York_Forward_reference", "custom_Pacific/Fiji",
        "Foo/America/New_York", "America/Example", "America/Chica/Chicago", "Makebelieve/RRULE_UNTIL",
        "/Europe/CUSTOM", "America-SanJose", "US--Fictitious-Eastern", "Western/Central Europe",
        "GMT +0100 (Standard) / GMT +0200 (Daylight)", "(GMT +01:00)", "(UTC-03", "(UTC+01:00)",
        "tzone://Microsoft/Custom", "tzone://Microsoft/", "Z", "Standard Time", "Time",
    ])
    func unmapped(tzid: String) {
        #expect(iana(tzid) == nil)
    }

    @Test(arguments: ["CST", "EST", "PST", "IST", "BST", "CET", "cst"])
    func abbreviationsAreNotGuessed(tzid: String) {
        #expect(TimeZoneNames.ianaIdentifier(for: tzid, isKnown: listedKnows) == nil)
    }

    // MARK: TZIDs of the shared corpus

    @Test(arguments: [
        ("New Zealand Standard Time", "Pacific/Auckland"),
        ("Central European Standard Time", "Europe/Warsaw"),
        ("\"Tokyo Standard Time\"", "Asia/Tokyo"),
        ("\"Pacific Standard Time\"", "America/Los_Angeles"),
        ("W. Europe Standard Time", "Europe/Berlin"),
        ("Eastern Standard Time", "America/New_York"),
        ("Turkey Standard Time", "Europe/Istanbul"),
        ("South Africa Standard Time", "Africa/Johannesburg"),
        ("SE Asia Standard Time", "Asia/Bangkok"),
        ("Greenwich Standard Time", "Atlantic/Reykjavik"),
        ("GMT Standard Time", "Europe/London"),
        ("\"Central Standard Time\"", "America/Chicago"),
        ("\"(UTC-03:00) Brasília\"", "America/Sao_Paulo"),
        ("(UTC-03:00) Brasília", "America/Sao_Paulo"),
        ("posix/Europe/Vaduz", "Europe/Vaduz"),
        ("/mozilla.org/20070129_1/America/New_York", "America/New_York"),
        ("/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("/freeassociation.sourceforge.net/Europe/Berlin", "Europe/Berlin"),
        ("/Europe/Stockholm", "Europe/Stockholm"),
        ("America/Los Angeles", "America/Los_Angeles"),
        ("America-Chicago", "America/Chicago"),
        ("US-Eastern", "US/Eastern"),
    ])
    func corpusTZIDs(tzid: String, zone: String) {
        #expect(iana(tzid) == zone)
    }

    // MARK: The generated tables

    @Test func tablesComeFromCLDR() {
        #expect(!TimeZoneTables.cldrVersion.isEmpty)
        #expect(TimeZoneTables.windowsZones.count > 100)
        #expect(TimeZoneTables.windowsDisplayNames.count == TimeZoneTables.windowsZones.count)
        #expect(TimeZoneTables.windowsZones.map(\.windowsID) == TimeZoneTables.windowsZones.map(\.windowsID).sorted())
        #expect(TimeZoneTables.longNames.map(\.name) == TimeZoneTables.longNames.map(\.name).sorted())
    }

    @Test func everyWindowsIDMapsToAZoneFoundationKnows() {
        let unknown = TimeZoneTables.windowsZones.filter { !foundationKnows($0.zone) }.map(\.zone)
        #expect(unknown == [])
        for (windowsID, zone) in TimeZoneTables.windowsZones {
            #expect(ianaAfterFailedLookup(windowsID) == zone, "\(windowsID)")
        }
    }

    @Test func everyWindowsDisplayNameMapsToItsWindowsZone() {
        let zones = Dictionary(uniqueKeysWithValues: TimeZoneTables.windowsZones.map { ($0.windowsID, $0.zone) })
        for (displayName, windowsID) in TimeZoneTables.windowsDisplayNames {
            #expect(ianaAfterFailedLookup(displayName) == zones[windowsID], "\(displayName)")
        }
    }

    @Test func everyLongNameAndExemplarCityZoneIsKnown() {
        let zones = TimeZoneTables.longNames.map(\.zone) + TimeZoneTables.exemplarCities.map(\.zone)
        #expect(zones.filter { !foundationKnows($0) } == [])
    }
}
