import Foundation
import Testing

/// Every way a calendar comes in goes through the one component reader (issue 51.4): the same
/// bytes as a file, on standard input, in a folder, from an address and from a CalDAV server give
/// the same report — sessions, days, streaks and diagnostics — whatever their line ends (lone CR),
/// folds, zones and recurrence.
@Suite("The same calendar by every way in")
struct WaysInTests {
    /// Fixtures with what cutting can get wrong, each with a window that holds its events.
    static let calendars: [(fixture: String, window: [String])] = [
        ("line-endings-cr.ics", ["--from", "2024-03-01", "--to", "2024-03-03"]),
        ("folding.ics", ["--from", "2024-03-01", "--to", "2024-03-03"]),
        ("recurring-with-moved-instance.ics", ["--from", "2024-06-01", "--to", "2024-06-10"]),
        ("tutorial-sample.ics", ["--from", "2024-02-19", "--to", "2024-02-29"]),
    ]

    /// The report's JSON without what names the input: `sources`, and each diagnostic's `file`
    /// (and, for a server that keeps the events one per resource, its `line`).
    private static func comparable(_ result: CommandResult, keepingLines: Bool = true, _ way: String) throws -> NSDictionary {
        #expect(result.status == 0, "\(way): \(result.standardError)")
        var report = try jsonObject(result.standardOutput)
        report["sources"] = nil
        report["diagnostics"] = (report["diagnostics"] as? [[String: Any]])?.map { diagnostic in
            diagnostic.filter { $0.key != "file" && (keepingLines || $0.key != "line") }
        }
        return NSDictionary(dictionary: report)
    }

    @Test("A file, standard input, a folder and an address give the same report, line numbers included", arguments: calendars)
    func fileStdinFolderAddress(_ calendar: (fixture: String, window: [String])) throws {
        let options = ["--tz", "Europe/Berlin", "--format", "json", "--points", "minutes"] + calendar.window
        let path = fixture(calendar.fixture)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let file = try Self.comparable(try streakcal(["report", path] + options), "file")
        #expect(((file["totals"] as? [String: Any])?["sessions"] as? Int ?? 0) > 0, "\(calendar.fixture): no sessions in the window")

        // The file's bytes on standard input as they are (folding.ics splits a character across a fold:
        // its bytes are not UTF-8 until unfolded), through the shell's redirection.
        let standardInput = try run(
            "/bin/sh", ["-c", #"exec "$0" "$@" < "$WAYS_IN_FILE""#, try streakcalPath(), "report", "-"] + options,
            environment: ["WAYS_IN_FILE": path])
        #expect(try Self.comparable(standardInput, "standard input") == file, "\(calendar.fixture)")
        try withTemporaryFolder("ways-in") { folder in
            try bytes.write(to: folder.appendingPathComponent(calendar.fixture))
            #expect(try Self.comparable(try streakcal(["report", folder.path] + options), "folder") == file, "\(calendar.fixture)")
        }
        let server = try TestHTTPServer()
        let home = try TestHome()
        defer { home.remove() }
        let address = try streakcal(["report", server.url("/fixtures/\(calendar.fixture)")] + options, environment: home.environment)
        #expect(try Self.comparable(address, "address") == file, "\(calendar.fixture)")
    }

    @Test("A CalDAV collection holding the calendar gives the file's report (the server keeps each event as a resource of its own)")
    func calDAV() throws {
        // Radicale parses what it is given and stores each event again: the text it serves is its
        // own (CRLF, refolded), so that the lines of diagnostics cannot match; the rest must.
        // Radicale refuses to store the lone-CR and the badly folded fixture (400: vobject cannot
        // read them); RemoteTrustTests serves lone CRs from a scripted CalDAV server instead.
        let served = Self.calendars.filter { !["line-endings-cr.ics", "folding.ics"].contains($0.fixture) }
        let server = try TestCalDAVServer(calendars: served.enumerated().map { ("c\($0.offset)", $0.element.fixture) })
        let home = try TestHome(netrc: server.netrc)
        defer { home.remove() }
        for (index, calendar) in served.enumerated() {
            let options = ["--tz", "Europe/Berlin", "--format", "json", "--points", "minutes"] + calendar.window
            let file = try Self.comparable(try streakcal(["report", fixture(calendar.fixture)] + options), keepingLines: false, "file")
            let collection = try streakcal(["report", server.url("/alice/c\(index)/")] + options, environment: home.environment)
            #expect(try Self.comparable(collection, keepingLines: false, "CalDAV") == file, "\(calendar.fixture)")
        }
    }
}
