import Foundation
import Testing

/// A Radicale CalDAV server (PyPI `radicale` 3.9.0, in the virtualenv scripts/caldav/python-env
/// makes) on a loopback port, holding calendars uploaded when it starts, for as long as a test
/// holds it.
final class TestCalDAVServer {
    private let server: LoopbackServer
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-radicale-\(UUID().uuidString)")
    var port: Int { server.port }
    var processGroup: pid_t { server.processGroup }

    /// Starts Radicale with the user alice (password s3cret) and `calendars` (a collection name and
    /// a fixture each) uploaded under /alice/.
    init(calendars: [(name: String, fixture: String)]) throws {
        let python = try run(repositoryRoot.appendingPathComponent("scripts/caldav/python-env").path, [])
        guard python.status == 0 else { throw TestServerError(reason: "scripts/caldav/python-env failed: \(python.standardError)") }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try LoopbackServer(
            [python.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines),
             repositoryRoot.appendingPathComponent("Tests/Support/radicale-server.py").path,
             "--folder", folder.path, "--port-file", "{port-file}", "--user", "alice:s3cret"]
                + calendars.flatMap { ["--calendar", "\($0.name)=\(fixture($0.fixture))"] },
            log: folder.appendingPathComponent("log").path)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// Radicale's storage of a collection: a vdir, one `.ics` file per event.
    func storage(of name: String) -> String {
        folder.appendingPathComponent("collections/collection-root/alice/\(name)").path
    }

    /// Sends `method` to `path` as alice (through Python, which CI has), with an iCalendar body.
    func send(_ method: String, _ path: String, body: String = "") throws -> Int32 {
        let script = """
            import base64, sys, urllib.request
            request = urllib.request.Request(sys.argv[2], data=sys.argv[3].encode() or None, method=sys.argv[1],
                headers={"Authorization": "Basic " + base64.b64encode(b"alice:s3cret").decode(), "Content-Type": "text/calendar"})
            print(urllib.request.urlopen(request).status)
            """
        return try run("/usr/bin/env", ["python3", "-c", script, method, url(path), body]).status
    }

    var netrc: String {
        "machine 127.0.0.1\nlogin alice\npassword s3cret\n"
    }
}

/// Calendars read from a real CalDAV server (issue 32): a collection, an account and the bare
/// server give the report the file gives; the server is asked for the window only; a batch over
/// an account gives a report per calendar.
@Suite("Calendars on a CalDAV server")
struct CalDAVTests {
    let window = ["--tz", "UTC", "--from", "2024-02-01", "--to", "2024-02-29", "--format", "json"]

    /// The report without what names the input: `sources`, and the file and line of each
    /// diagnostic (a CalDAV copy joins the server's resources into one calendar, so lines move).
    /// `keepingDiagnostics: false` leaves them all out: a file's report warns about events outside
    /// the window too, which a server asked for the window never sends.
    private func comparable(_ result: CommandResult, keepingDiagnostics: Bool = true) throws -> NSDictionary {
        #expect(result.status == 0, "\(result.standardError)")
        var report = try jsonObject(result.standardOutput)
        report["sources"] = nil
        if !keepingDiagnostics { report["diagnostics"] = nil }
        report["diagnostics"] = (report["diagnostics"] as? [[String: Any]])?.map { diagnostic in
            diagnostic.filter { $0.key != "file" && $0.key != "line" }
        }
        return NSDictionary(dictionary: report)
    }

    @Test("A collection, its account and the bare server report as the file does; so does the server's vdir storage")
    func sameAsFile() throws {
        let server = try TestCalDAVServer(calendars: [("streaks", "tutorial-sample.ics")])
        let home = try TestHome(netrc: server.netrc)
        defer { home.remove() }
        let file = try comparable(try streakcal(["report", fixture("tutorial-sample.ics")] + window))
        #expect((file["days"] as? [Any])?.count == 29)
        for path in ["/alice/streaks/", "/alice/", "/"] {
            let result = try streakcal(["report", server.url(path)] + window, environment: home.environment)
            #expect(try comparable(result) == file, "\(path)")
            let sources = try jsonObject(result.standardOutput)["sources"] as? [[String: Any]]
            // The calendar is named by where it is: the collection, whichever address led to it.
            #expect(sources?.first?["file"] as? String == server.url("/alice/streaks/"))
            #expect(sources?.first?["name"] as? String == "FSCalendar streaks tutorial sample")
            #expect(!result.standardError.contains("s3cret"))
        }
        // Radicale keeps the collection as a vdir: one .ics per event, read as one calendar.
        #expect(try comparable(try streakcal(["report", server.storage(of: "streaks")] + window)) == file)
    }

    @Test("A server let go takes Radicale with it: nothing of its process group is left running")
    func serverEnds() throws {
        var group: pid_t = 0
        do {
            let server = try TestCalDAVServer(calendars: [])
            group = server.processGroup
            withExtendedLifetime(server) { #expect(kill(-group, 0) == 0) }
        }
        #expect(kill(-group, 0) == -1 && errno == ESRCH)
    }

    @Test("Recurrence, overrides and time zones come through the server as from the file")
    func recurrence() throws {
        let server = try TestCalDAVServer(calendars: [("moved", "recurring-with-moved-instance.ics")])
        let home = try TestHome(netrc: server.netrc)
        defer { home.remove() }
        let june = ["--tz", "Europe/Berlin", "--from", "2024-06-01", "--to", "2024-06-10", "--format", "json", "--points", "minutes"]
        let file = try comparable(try streakcal(["report", fixture("recurring-with-moved-instance.ics")] + june))
        let served = try comparable(try streakcal(["report", server.url("/alice/moved/")] + june, environment: home.environment))
        #expect(served == file)
        #expect((served["totals"] as? [String: Any])?["sessions"] as? Int == (file["totals"] as? [String: Any])?["sessions"] as? Int)
    }

    @Test("The server is asked for the window's events only (a time-range query); --offline reads that copy")
    func timeRange() throws {
        let server = try TestCalDAVServer(calendars: [("streaks", "tutorial-sample.ics")])
        let home = try TestHome(netrc: server.netrc)
        defer { home.remove() }
        let day = ["--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-20", "--format", "json"]
        let result = try streakcal(["report", server.url("/alice/streaks/")] + day, environment: home.environment)
        let file = try comparable(try streakcal(["report", fixture("tutorial-sample.ics")] + day), keepingDiagnostics: false)
        #expect(try comparable(result, keepingDiagnostics: false) == file)
        #expect((file["totals"] as? [String: Any])?["points"] as? Int == 100)
        // The copy holds the events from two days before to two days after: tutorial-1 (02-20) only,
        // a file per resource; the report names the collection as the file names its calendar.
        let folders = home.cachedFiles.filter { $0.hasSuffix(".items") }
        #expect(folders.count == 1)
        let items = home.folder.appendingPathComponent("cache/streakcal/calendars/\(folders[0])")
        let copies = try FileManager.default.contentsOfDirectory(atPath: items.path)
        #expect(copies.count == 1)
        let copy = try String(contentsOfFile: items.appendingPathComponent(copies[0]).path, encoding: .utf8)
        #expect(copy.components(separatedBy: "BEGIN:VEVENT").count - 1 == 1)
        #expect(copy.contains("UID:tutorial-1@streakcal.example"))
        let sources = try jsonObject(result.standardOutput)["sources"] as? [[String: String]]
        #expect(sources == [["file": server.url("/alice/streaks/"), "name": "FSCalendar streaks tutorial sample"]])

        let offline = try streakcal(["report", server.url("/alice/streaks/"), "--offline"] + day, environment: home.environment)
        #expect(try comparable(offline) == (try comparable(result)))
    }

    @Test("A wrong password is HTTP 401 naming the address, with no password printed")
    func unauthorized() throws {
        let server = try TestCalDAVServer(calendars: [("streaks", "tutorial-sample.ics")])
        let home = try TestHome(netrc: "machine 127.0.0.1\nlogin alice\npassword wrong-s3cret\n")
        defer { home.remove() }
        let result = try streakcal(["report", server.url("/alice/streaks/")] + window, environment: home.environment)
        #expect(result.status == 1)
        #expect(result.standardError.contains("streakcal: error: cannot read \(server.url("/alice/streaks/")): HTTP 401 Unauthorized"), "\(result.standardError)")
        #expect(!result.standardError.contains("s3cret") && !result.standardOutput.contains("s3cret"))
    }

    @Test("batch over an account writes a report per calendar, each as the file's")
    func batchOverAccount() throws {
        let server = try TestCalDAVServer(calendars: [("streaks", "tutorial-sample.ics"), ("moved", "recurring-with-moved-instance.ics")])
        let home = try TestHome(netrc: server.netrc)
        defer { home.remove() }
        let out = home.folder.appendingPathComponent("out").path
        let result = try streakcal(["batch", server.url("/alice/"), "--out", out] + window, environment: home.environment)
        #expect(result.status == 0, "\(result.standardError)")
        let reports = try batchOutputListing(out).filter { $0 != "summary.json" }
        #expect(reports.count == 2, "\(reports)")
        let file = try comparable(try streakcal(["report", fixture("tutorial-sample.ics")] + window))
        let streaks = try #require(reports.first { $0.contains("streaks") })
        let written = try String(contentsOfFile: out + "/" + streaks, encoding: .utf8)
        #expect(try comparable(CommandResult(status: 0, standardOutput: written, standardError: "", killedBySignal: false, timedOut: false)) == file)
    }

    @Test("Without a window the collection is kept in sync: the next run gets only the changes (RFC 6578)")
    func syncToken() throws {
        let server = try TestCalDAVServer(calendars: [("streaks", "tutorial-sample.ics")])
        let home = try TestHome(netrc: server.netrc)
        defer { home.remove() }
        let open = ["--tz", "UTC", "--format", "json"]
        let totals = { (result: CommandResult) throws -> [String: Any] in
            #expect(result.status == 0, "\(result.standardError)")
            return try #require(try jsonObject(result.standardOutput)["totals"] as? [String: Any])
        }
        let first = try totals(try streakcal(["report", server.url("/alice/streaks/")] + open, environment: home.environment))
        #expect(NSDictionary(dictionary: first) == NSDictionary(dictionary: try totals(try streakcal(["report", fixture("tutorial-sample.ics")] + open))))
        let items = try #require(try FileManager.default.contentsOfDirectory(atPath: home.folder.appendingPathComponent("cache/streakcal/calendars").path)
            .first { $0.hasSuffix(".items") })
        let itemsFolder = home.folder.appendingPathComponent("cache/streakcal/calendars/\(items)").path
        let inodes = { () throws -> [String: Int] in
            try Dictionary(uniqueKeysWithValues: FileManager.default.contentsOfDirectory(atPath: itemsFolder).map {
                ($0, try #require(try FileManager.default.attributesOfItem(atPath: itemsFolder + "/" + $0)[.systemFileNumber] as? Int))
            })
        }
        let before = try inodes()
        #expect(before.count == 5)

        // One event more (100 points on 2024-02-27), one less (tutorial-5: 120 points on 2024-02-26).
        let added = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\nBEGIN:VEVENT\r\nUID:added-1\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240227T080000Z\r\nDTEND:20240227T090000Z\r\nX-POINTS:100\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(try server.send("PUT", "/alice/streaks/added-1.ics", body: added) == 0)
        #expect(try server.send("DELETE", "/alice/streaks/tutorial-5%40streakcal.example.ics") == 0)
        let second = try totals(try streakcal(["report", server.url("/alice/streaks/")] + open, environment: home.environment))
        #expect(second["sessions"] as? Int == 5)
        #expect(second["points"] as? Int == (first["points"] as? Int ?? 0) - 120 + 100)
        let after = try inodes()
        #expect(after.count == 5)
        // The three events that did not change were not written again; the removed one is gone.
        #expect(Set(before.filter { after[$0.key] == $0.value }.keys).count == 4)
        #expect(after.keys.filter { before[$0] == nil }.count == 1)
    }
}
