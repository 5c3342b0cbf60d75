import Foundation
import Testing
@testable import StreakCal
@testable import StreakCalRemote
import Streaks

/// The report's zone is given, never guessed (issue 50): an unknown name cannot be set, and where
/// neither the settings nor the calendar name a zone the library uses the fallback it is given,
/// not the machine's.
@Suite("The report's zone is given")
struct GivenZoneTests {
    /// A session from 23:30 to 00:30 UTC on 2024-03-01/02 in floating time written as UTC: with no
    /// zone declared, the day it counts on is the zone's.
    static let lateSession = CalendarSource.string("""
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:late
        DTSTART:20240301T233000Z
        DTEND:20240302T003000Z
        X-POINTS:5
        END:VEVENT
        END:VCALENDAR
        """, name: "late.ics")

    /// 2024-06-01: long after the session.
    static let later: Int64 = 1_717_200_000

    static func activeDays(_ settings: ReportSettings) throws -> [String] {
        try settings.scored([Self.lateSession], now: Self.later).report.days.filter { $0.points > 0 }.map(\.date.description)
    }

    @Test("Without a zone of the settings or the calendar, the fallback decides: UTC unless given", arguments: [
        ("UTC", "2024-03-01"), ("Pacific/Kiritimati", "2024-03-02"), ("America/Los_Angeles", "2024-03-01"), ("Asia/Tokyo", "2024-03-02"),
    ])
    func fallbackDecides(zone: String, day: String) throws {
        var settings = ReportSettings(from: try Day(year: 2024, month: 3, day: 1), to: try Day(year: 2024, month: 3, day: 3))
        #expect(settings.fallbackTimeZone == .utc)
        settings.fallbackTimeZone = try #require(TimeZoneRules(identifier: zone))
        #expect(try Self.activeDays(settings) == [day])
        let scored = try settings.scored([Self.lateSession], now: Self.later)
        #expect(scored.report.goal.timeZone.identifier == zone)
        // A zone of the settings wins over the fallback.
        settings.timeZone = "Pacific/Kiritimati"
        settings.fallbackTimeZone = .utc
        #expect(try Self.activeDays(settings) == ["2024-03-02"])
    }

    @Test("The library's default is UTC whatever the machine's zone (TZ is read by the command only)")
    func defaultIsUTC() throws {
        let settings = ReportSettings(from: try Day(year: 2024, month: 3, day: 1), to: try Day(year: 2024, month: 3, day: 3))
        let scored = try settings.scored([Self.lateSession], now: Self.later)
        #expect(scored.report.goal.timeZone.identifier == "UTC")
        #expect(try Self.activeDays(settings) == ["2024-03-01"])
    }

    @Test("A name from elsewhere goes through TimeZoneRules(identifier:), which refuses an unknown one; a batch's tz key says which")
    func unknownNamesRefused() throws {
        #expect(TimeZoneRules(identifier: "Mars/Olympus") == nil)
        #expect(throws: CalendarOverrides.Problem.self) { try CalendarOverrides(values: ["tz": "Mars/Olympus"]) }
        let overrides = try CalendarOverrides(values: ["tz": "Europe/Berlin"])
        #expect(overrides.timeZone?.identifier == "Europe/Berlin")
        #expect(overrides.summary.first { $0.key == "tz" }?.value == "Europe/Berlin")
        #expect(overrides.applied(to: ReportSettings()).timeZone?.identifier == "Europe/Berlin")
    }

    @Test("A zone named in code that the database lacks stops the program rather than scoring in UTC")
    func unknownLiteralStops() async {
        await #expect(processExitsWith: .failure) {
            let settings = ReportSettings(timeZone: "Mars/Olympus")
            print(settings.timeZone?.identifier ?? "")
        }
        let berlin: TimeZoneRules = "Europe/Berlin"
        #expect(berlin.identifier == "Europe/Berlin" && berlin.utcOffset(at: Self.later) == 7_200)
    }

    @Test("A batch's fingerprint names a zone by its name, not its tables")
    func fingerprintNamesTheZone() {
        let description = BatchManifest.stableDescription(of: ReportSettings(timeZone: "Europe/Berlin"))
        #expect(description.contains("timeZone: TimeZoneRules(Europe/Berlin)"))
        #expect(description.count - BatchManifest.stableDescription(of: ReportSettings()).count < 40)
        #expect(description != BatchManifest.stableDescription(of: ReportSettings(timeZone: "Europe/Paris")))
    }

    @Test("A batch scores a calendar again (--resume) when the fallback zone changed and no zone is given, not when one is")
    func fingerprintCountsTheFallbackOnlyWithoutAZone() {
        let batch = BatchReport(paths: [], now: Self.later)
        var machineUTC = ReportSettings()
        var machineTokyo = ReportSettings()
        machineTokyo.fallbackTimeZone = "Asia/Tokyo"
        #expect(batch.fingerprint(of: machineUTC) != batch.fingerprint(of: machineTokyo))
        machineUTC.timeZone = "UTC"
        machineTokyo.timeZone = "UTC"
        #expect(batch.fingerprint(of: machineUTC) == batch.fingerprint(of: machineTokyo))
    }
}

/// Credentials and the cache folder are given, never looked up (issue 50): the library reads no
/// `~/.netrc` and writes no cache folder of its own; `streakcal` names both.
@Suite("The cache folder and the netrc file are given")
struct GivenFilesTests {
    @Test("Without a cache folder an address is not fetched, and the error names it; nothing is written")
    func noCacheFolder() throws {
        var options = DownloadOptions()
        options.isOffline = true  // no request leaves the machine either way
        #expect(options.cacheFolder == nil && options.netrcFile == nil)
        let error = try #require(throws: CalendarReadError.self) {
            try CalendarSubscription("https://calendar.example.com/team.ics", options: options).fetch()
        }
        #expect(error.path == "https://calendar.example.com/team.ics")
        #expect(error.reason.contains("no cache folder is given"))
        // With a folder, the same offline fetch says there is no copy there yet.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-given-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        options.cacheFolder = folder
        let offline = try #require(throws: CalendarReadError.self) {
            try CalendarSubscription("https://calendar.example.com/team.ics", options: options).fetch()
        }
        #expect(offline.reason.hasPrefix("no copy in the cache"))
    }

    @Test("A netrc file is read only when named")
    func netrcOnlyWhenNamed() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-netrc-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "machine calendar.example.com login alice password s3cret\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(Netrc(path: file).login(for: "calendar.example.com") == Netrc.Login(user: "alice", password: "s3cret"))
        #expect(Netrc(path: nil).login(for: "calendar.example.com") == nil)
    }
}
