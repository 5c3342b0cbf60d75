import Foundation
import Testing
@testable import StreakCal
@testable import StreakCalRemote

/// Regression tests built from `../shared/repro/round4` (issue 45), each named after its
/// reproducer: what servers, caches and folders send back, tried as an attacker and as a careless
/// server would.
@Suite("Reproducers, round 4: what servers send back")
struct RemoteTrustTests {
    let window = ["--tz", "UTC", "--format", "csv"]

    @Test("caldav-sync-token-nul-heap-overread.sh: a token with a NUL is not kept; the next request carries nothing beyond its body")
    func syncTokenWithNUL() throws {
        let event = DAVAnswer.event(uid: "a", day: "20240105", points: 10)
        let padding = String(repeating: "A", count: 2_000)
        let server = try ScriptedServer([
            DAVAnswer.collection("/cal/"),
            .init(method: "REPORT", path: "/cal/", contains: "sync-collection", responses: [
                DAVAnswer.multistatus([DAVAnswer.response("/cal/a.ics", DAVAnswer.calendarData(event))],
                                      extra: "<D:sync-token>tok&#0;\(padding)</D:sync-token>"),
            ]),
        ])
        let home = try TestHome()
        defer { home.remove() }
        for run in 1...2 {
            let result = try streakcal(["report", server.url("/cal/")] + window, environment: home.environment, timeLimit: .seconds(60))
            #expect(!result.killedBySignal && result.status == 0, "run \(run): \(result.standardError)")
            #expect(result.standardOutput.contains("2024-01-05,10,"), "run \(run): \(result.standardOutput)")
        }
        let reports = server.requests.filter { $0.method == "REPORT" }
        try #require(reports.count == 2)
        // The second run starts over: the token was not kept, so nothing of it (or of the heap) goes back.
        for report in reports {
            #expect(report.body.contains("<D:sync-token></D:sync-token>"), "\(report.body)")
            #expect(!report.body.contains("AAAA"))
            #expect(!report.body.unicodeScalars.contains { $0.value == 0 })
        }
    }

    @Test("A request body holding a NUL goes out whole, byte for byte, with its real length")
    func bodyWithNUL() throws {
        let server = try ScriptedServer([.init(method: "POST", path: "/echo", responses: [.init(status: 200, body: "ok")])])
        let body: [UInt8] = Array("before".utf8) + [0] + Array(repeating: UInt8(ascii: "A"), count: 5_000) + [0xFF, 0]
        var received: [UInt8] = []
        let request = HTTPTransfer.Request(
            url: server.url("/echo"), method: "POST", body: body, connectTimeout: 10, timeout: 30, timeLimit: 30,
            maximumSize: 1 << 20)
        let response = try HTTPTransfer.perform(request) { received += $0 }
        #expect(response.status == 200)
        #expect(received == Array("ok".utf8))
        let sent = try #require(server.requests.first)
        #expect(Array(sent.body.unicodeScalars.map { UInt8($0.value) }) == body)
    }

    @Test("A header or address holding a NUL, CR or LF is refused before anything is sent", arguments: [
        (["If-None-Match: \"a\"\r\nX-Injected: 1"], "/ok"), (["If-None-Match: \"a\u{0}b\""], "/ok"), ([], "/ok\u{0}/../other"),
    ])
    func controlCharactersRefused(headers: [String], path: String) throws {
        let server = try ScriptedServer([.init(path: "/ok", responses: [.init(status: 200, body: "ok")])])
        let request = HTTPTransfer.Request(
            url: server.url(path), headers: headers, connectTimeout: 10, timeout: 30, timeLimit: 30, maximumSize: 1 << 20)
        #expect(throws: HTTPTransfer.Failure.self) { try HTTPTransfer.perform(request) { _ in } }
        #expect(server.requests.isEmpty)
    }
}

extension RemoteTrustTests {
    @Test("redirect-credentials-other-port.sh: with credentials, a redirect to another port or scheme of the same host is refused; nothing goes there")
    func redirectToAnotherPort() throws {
        let calendar = DAVAnswer.event(uid: "a", day: "20240105", points: 7)
        let other = try ScriptedServer([.init(path: "/other-service", responses: [.init(status: 200, body: calendar)])])
        let first = try ScriptedServer([
            .init(path: "/team.ics", auth: "alice:hunter2", responses: [.init(status: 302, headers: ["Location": other.url("/other-service")])]),
        ])
        let home = try TestHome()
        defer { home.remove() }
        var environment = home.environment
        environment["STREAKCAL_PASSWORD"] = "hunter2"
        let result = try streakcal(["report", first.url("/team.ics"), "--user", "alice"] + window, environment: environment)
        #expect(result.status == 1)
        #expect(result.standardError.contains("refused a redirect to another origin (http://127.0.0.1:\(other.port)) with the credentials for http://127.0.0.1:\(first.port)"),
                "\(result.standardError)")
        #expect(other.requests.isEmpty)
        // The same redirect without credentials is followed: nothing secret goes with it.
        let open = try ScriptedServer([.init(path: "/team.ics", responses: [.init(status: 302, headers: ["Location": other.url("/other-service")])])])
        let plain = try streakcal(["report", open.url("/team.ics")] + window, environment: home.environment)
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(plain.standardOutput.contains("2024-01-05,7,"))
        #expect(other.requests.map(\.authorization) == [nil])
    }

    @Test("Origins: scheme, host and port, the scheme's port when none is written")
    func origins() throws {
        #expect(try CalendarAddress("https://Example.com/a.ics").origin == "https://example.com:443")
        #expect(try CalendarAddress("webcal://example.com/a.ics").origin == "https://example.com:443")
        #expect(try CalendarAddress("http://example.com/a.ics").origin == "http://example.com:80")
        #expect(try CalendarAddress("http://example.com:80/a.ics").origin == "http://example.com:80")
        #expect(try CalendarAddress("https://example.com:8443/a.ics").origin == "https://example.com:8443")
    }
}

extension RemoteTrustTests {
    /// An account on `127.0.0.1` (no login) whose calendar home lists its own calendar and one on
    /// `localhost` at another port, where the user does have a login (in `home`'s netrc).
    private func accountLinkingElsewhere() throws -> (account: ScriptedServer, other: ScriptedServer) {
        let privateEvent = DAVAnswer.event(uid: "private", day: "20240105", points: 50)
        let other = try ScriptedServer([
            .init(method: "PROPFIND", path: "/bob/private/", auth: "bob:bobs-private-pw",
                  responses: [DAVAnswer.multistatus([DAVAnswer.response("/bob/private/", DAVAnswer.calendarCollection)])]),
            .init(method: "REPORT", path: "/bob/private/", auth: "bob:bobs-private-pw",
                  responses: [DAVAnswer.multistatus([DAVAnswer.response("/bob/private/e.ics", DAVAnswer.calendarData(privateEvent))])]),
        ])
        let mine = DAVAnswer.event(uid: "mine", day: "20240105", points: 5)
        let account = try ScriptedServer([
            .init(method: "PROPFIND", path: "/acct/", responses: [DAVAnswer.multistatus([DAVAnswer.response(
                "/acct/", "<D:resourcetype><D:collection/></D:resourcetype><C:calendar-home-set><D:href>/home/</D:href></C:calendar-home-set>")])]),
            .init(method: "PROPFIND", path: "/home/", responses: [DAVAnswer.multistatus([
                DAVAnswer.response("/home/mine/", DAVAnswer.calendarCollection),
                DAVAnswer.response(other.url("/bob/private/", host: "localhost"), DAVAnswer.calendarCollection),
            ])]),
            DAVAnswer.collection("/home/mine/"),
            .init(method: "REPORT", path: "/home/mine/", responses: [
                DAVAnswer.multistatus([DAVAnswer.response("/home/mine/e.ics", DAVAnswer.calendarData(mine))]),
            ]),
        ])
        return (account, other)
    }

    @Test("batch-caldav-link-logs-in-elsewhere.sh: batch and report refuse an account's link to another host alike; the netrc login there is never used")
    func accountLinkElsewhere() throws {
        let (account, other) = try accountLinkingElsewhere()
        let home = try TestHome(netrc: "machine localhost login bob password bobs-private-pw\n")
        defer { home.remove() }
        let days = ["--from", "2024-01-05", "--to", "2024-01-05"]
        let skippedNote = "streakcal: note: skipped \(other.url("/bob/private/", host: "localhost")): the account at http://127.0.0.1:\(account.port) lists it, outside its origin"
        let out = home.folder.appendingPathComponent("out")
        let batch = try streakcal(["batch", account.url("/acct/"), "--out", out.path, "--no-timings"] + days + window, environment: home.environment)
        #expect(batch.status == 0, "\(batch.standardError)")
        #expect(batch.standardError.components(separatedBy: skippedNote).count == 2, "said once: \(batch.standardError)")
        let summary = try String(contentsOf: out.appendingPathComponent("summary.json"), encoding: .utf8)
        #expect(summary.contains("/bob/private/") && summary.contains("outside its origin"))
        #expect(!summary.contains("\"points\" : 50"))
        let report = try streakcal(["report", account.url("/acct/")] + days + window, environment: home.environment)
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardError.contains(skippedNote), "\(report.standardError)")
        #expect(report.standardOutput.contains("2024-01-05,5,"), "\(report.standardOutput)")
        #expect(other.requests.isEmpty, "\(other.requests.map(\.path))")
    }
}

extension RemoteTrustTests {
    static let passwords = ["s3cret", "Zq#9x!Lp", "ab?cd", "x/y", "p@ss", "12/34", "a:b"]

    @Test("address-password-echoed.sh: a password in an address is in no message, table or summary, whatever it holds", arguments: passwords)
    func passwordNeverShown(password: String) throws {
        let address = "https://alice:\(password)@calendar.example.com/team.ics"
        let report = try streakcal(["report", address, "--tz", "UTC"])
        #expect(report.status != 0)
        #expect(report.standardError.contains("calendar.example.com/team.ics"), "\(report.standardError)")
        #expect(!report.standardError.contains(password) && !report.standardOutput.contains(password), "\(report.standardError)")
        try withTemporaryFolder("password") { folder in
            let batch = try streakcal(["batch", address, "--out", folder.path, "--format", "csv", "--no-timings"])
            #expect(batch.status == 2)  // its one calendar failed: nothing usable
            let summary = try String(contentsOf: folder.appendingPathComponent("summary.json"), encoding: .utf8)
            #expect(summary.contains("calendar.example.com/team.ics"))
            for text in [summary, batch.standardOutput, batch.standardError] {
                #expect(!text.contains(password), "\(text)")
            }
        }
    }

    @Test("Redacting an address removes the user information and nothing a URL parser reads as host or path", arguments: [
        ("https://alice:Zq#9x!Lp@calendar.example.com/team.ics", "https://calendar.example.com/team.ics"),
        ("https://alice:x/y@calendar.example.com/team.ics", "https://calendar.example.com/team.ics"),
        ("https://alice:p@ss@calendar.example.com/team.ics", "https://calendar.example.com/team.ics"),
        ("https://alice:pw@host.example/cal/bob@gmail.com/basic.ics", "https://host.example/cal/bob@gmail.com/basic.ics"),
        ("https://alice@host.example/team.ics", "https://host.example/team.ics"),
        ("https://calendar.google.com/calendar/ical/bob@gmail.com/public/basic.ics", "https://calendar.google.com/calendar/ical/bob@gmail.com/public/basic.ics"),
        ("https://host.example:8443/cal/team.ics", "https://host.example:8443/cal/team.ics"),
        ("not an address", "not an address"),
        // Found by the http-head fuzz target: a parser may end the user information at a later '@'.
        ("https://a\u{0}\u{0}@\u{0}*i:Zq9xLp@0%eas/atOpti", "https://0%eas/atOpti"),
        ("https://alice:Zq+9x!Lp@ca/alice:Zq+9x!Lp@calendar.example", "https://calendar.example"),
    ])
    func redaction(text: String, shown: String) {
        #expect(CalendarAddress.redacted(text) == shown)
    }
}

extension RemoteTrustTests {
    /// A server with one calendar at /team.ics (7 points on 2024-01-05).
    private func teamCalendar() throws -> ScriptedServer {
        try ScriptedServer([.init(path: "/team.ics", responses: [.init(status: 200, body: DAVAnswer.event(uid: "a", day: "20240105", points: 7))])])
    }

    /// The permission bits of `path` (not following a link).
    private func mode(_ path: String) -> mode_t {
        var status = stat()
        lstat(path, &status)
        return status.st_mode & 0o7777
    }

    @Test("cache-writes-through-planted-links.sh: a link planted in the cache is replaced, never written through; the folder becomes the user's only")
    func plantedLink() throws {
        let server = try teamCalendar()
        let home = try TestHome()
        defer { home.remove() }
        let cache = home.folder.appendingPathComponent("cache/streakcal/calendars")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        chmod(cache.path, 0o1777)
        let profile = home.folder.appendingPathComponent("profile")
        try "export PATH=/usr/bin\n".write(to: profile, atomically: true, encoding: .utf8)
        let address = try CalendarAddress(server.url("/team.ics"))
        let entry = try CalendarCache(folder: home.folder.appendingPathComponent("scratch").path, for: address).entry(for: address, user: nil)
        for name in [entry.calendar, entry.metadata] {
            try FileManager.default.createSymbolicLink(atPath: cache.appendingPathComponent(name).path, withDestinationPath: profile.path)
        }
        let result = try streakcal(["report", server.url("/team.ics"), "--from", "2024-01-05", "--to", "2024-01-05"] + window, environment: home.environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("2024-01-05,7,"))
        #expect(try String(contentsOf: profile, encoding: .utf8) == "export PATH=/usr/bin\n")
        #expect(mode(cache.path) == 0o700)
        for name in [entry.calendar, entry.metadata] {
            let path = cache.appendingPathComponent(name).path
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil, "\(name) is still a link")
            #expect(mode(path) == 0o600)
        }
    }

    @Test("cache-files-world-readable.sh: copies are 0600 and an existing 0755 cache folder becomes 0700, whatever the umask")
    func privateModes() throws {
        let server = try teamCalendar()
        let home = try TestHome()
        defer { home.remove() }
        let cache = home.folder.appendingPathComponent("cache/streakcal/calendars")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let result = try streakcal(["report", server.url("/team.ics"), "--from", "2024-01-05", "--to", "2024-01-05"] + window, environment: home.environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(mode(cache.path) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(files.count == 2)
        for file in files { #expect(mode(cache.appendingPathComponent(file).path) == 0o600, "\(file)") }
    }

    @Test("A cache folder of another user is refused with the reason; nothing is written there")
    func cacheOfAnotherUser() throws {
        let server = try teamCalendar()
        let home = try TestHome()
        defer { home.remove() }
        // As root (CI), a folder given to nobody; as anyone else, /tmp, which root owns.
        var foreign = "/tmp"
        if geteuid() == 0 {
            foreign = home.folder.appendingPathComponent("foreign").path
            try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
            #expect(chown(foreign, 65_534, 65_534) == 0)
        }
        var environment = home.environment
        environment["XDG_CACHE_HOME"] = nil
        var options = DownloadOptions()
        options.cacheFolder = foreign
        #expect(throws: CalendarReadError.self) { try CalendarSubscription(server.url("/team.ics"), options: options).fetch() }
        do {
            _ = try CalendarSubscription(server.url("/team.ics"), options: options).fetch()
        } catch {
            #expect(error.reason.contains("belongs to another user"), "\(error.reason)")
        }
        #expect(server.requests.isEmpty)
    }
}

extension RemoteTrustTests {
    @Test("subscription-html-replaces-cache.sh: a 200 answer that is no calendar (a portal page, an empty body) is an error; the cached copy stays", arguments: [
        "<!DOCTYPE html><html><body>Please sign in to the hotel Wi-Fi</body></html>\n", "",
    ])
    func answerThatIsNoCalendar(page: String) throws {
        let calendar = DAVAnswer.event(uid: "a", day: "20240105", points: 100)
        let server = try ScriptedServer([.init(path: "/team.ics", responses: [
            .init(status: 200, headers: ["ETag": "\"v1\""], body: calendar), .init(status: 200, headers: ["ETag": "\"v2\""], body: page),
        ])])
        let home = try TestHome()
        defer { home.remove() }
        let days = ["--from", "2024-01-05", "--to", "2024-01-05"] + window
        let first = try streakcal(["report", server.url("/team.ics")] + days, environment: home.environment)
        #expect(first.status == 0 && first.standardOutput.contains("2024-01-05,100,"), "\(first.standardError)")
        let second = try streakcal(["report", server.url("/team.ics")] + days, environment: home.environment)
        #expect(second.status == 1)
        #expect(second.standardError.contains("cannot read \(server.url("/team.ics")): the server's answer is not an iCalendar file"), "\(second.standardError)")
        #expect(second.standardOutput.isEmpty)
        let offline = try streakcal(["report", server.url("/team.ics"), "--offline"] + days, environment: home.environment)
        #expect(offline.status == 0 && offline.standardOutput.contains("2024-01-05,100,"), "\(offline.standardError)")
        // The copy's validators are the good copy's: the next request asks with them.
        _ = try streakcal(["report", server.url("/team.ics")] + days, environment: home.environment)
        #expect(server.requests.count == 3)
    }
}

extension RemoteTrustTests {
    /// The resources of caldav-join-drops-silently.sh: a plain event, a resource that is not
    /// iCalendar, one with lone CR line ends, and two with a VTIMEZONE of one TZID and other rules.
    static let joinResources: [(name: String, text: String)] = {
        func zoned(_ uid: String, _ offset: String) -> String {
            ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VTIMEZONE", "TZID:Custom", "BEGIN:STANDARD", "DTSTART:19700101T000000",
             "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)", "END:STANDARD", "END:VTIMEZONE", "BEGIN:VEVENT", "UID:\(uid)",
             "DTSTAMP:20240101T000000Z", "DTSTART;TZID=Custom:20240108T010000", "DURATION:PT30M", "X-POINTS:1", "END:VEVENT", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
        }
        return [
            ("a.ics", DAVAnswer.event(uid: "a", day: "20240105", points: 10)),
            ("b.ics", "<html><body>500 Internal Server Error</body></html>\r\n"),
            ("c.ics", DAVAnswer.event(uid: "c", day: "20240106", points: 50).replacingOccurrences(of: "\r\n", with: "\r")),
            ("d.ics", zoned("east", "+1200")),
            ("e.ics", zoned("west", "-1100")),
        ]
    }()

    @Test("caldav-join-drops-silently.sh: a CalDAV collection reads as its resources do in a folder and as files: same days, same diagnostics")
    func sameTextEveryWay() throws {
        let resources = Self.joinResources
        let server = try ScriptedServer([
            DAVAnswer.collection("/cal/"),
            .init(method: "REPORT", path: "/cal/", responses: [DAVAnswer.multistatus(resources.map {
                DAVAnswer.response("/cal/\($0.name)", DAVAnswer.calendarData($0.text))
            })]),
        ])
        let home = try TestHome()
        defer { home.remove() }
        let days = ["--from", "2024-01-05", "--to", "2024-01-08"] + window
        try withTemporaryFolder("vdir") { folder in
            for resource in resources { try Data(resource.text.utf8).write(to: folder.appendingPathComponent(resource.name)) }
            /// The report and its diagnostics without the place each input had.
            func seen(_ result: CommandResult, prefix: String) -> (String, [String]) {
                #expect(result.status == 0, "\(result.standardError)")
                let diagnostics = result.standardError.split(separator: "\n").filter { $0.contains(": warning: ") || $0.contains(": error: ") }
                return (result.standardOutput, diagnostics.map { $0.replacingOccurrences(of: prefix, with: "") })
            }
            let caldav = seen(try streakcal(["report", server.url("/cal/")] + days, environment: home.environment), prefix: server.url("/cal/"))
            let vdir = seen(try streakcal(["report", folder.path] + days), prefix: folder.path + "/")
            #expect(caldav.0.contains("2024-01-06,50,1,"), "the CR-only resource counts: \(caldav.0)")
            #expect(caldav.0 == vdir.0)
            #expect(caldav.1 == vdir.1)
            #expect(caldav.1.count == 2, "\(caldav.1)")
            #expect(caldav.1.contains { $0.hasPrefix("b.ics:1:1: warning: content outside any component") }, "\(caldav.1)")
            #expect(caldav.1.contains { $0.hasPrefix("e.ics:4:1: warning: another VTIMEZONE Custom, with other rules, comes first") }, "\(caldav.1)")
        }
    }

    @Test("One text, every way in: a file, standard input, a folder, an https address and a CalDAV collection give the same days and diagnostics")
    func oneTextEveryWayIn() throws {
        // Lone CR line ends, a fold, and an event that ends before it starts (a warning at its line).
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:c", "DTSTAMP:20240101T000000Z",
                    "DTSTART:20240106T090000Z", "DTEND:20240106T080000Z", "SUMMARY:A long", " fold", "X-POINTS:50", "END:VEVENT", "END:VCALENDAR",
                   ].joined(separator: "\r") + "\r"
        let server = try ScriptedServer([
            .init(method: "GET", path: "/c.ics", responses: [.init(status: 200, body: text)]),
            DAVAnswer.collection("/cal/"),
            .init(method: "REPORT", path: "/cal/", responses: [DAVAnswer.multistatus([DAVAnswer.response("/cal/c.ics", DAVAnswer.calendarData(text))])]),
        ])
        let home = try TestHome()
        defer { home.remove() }
        let days = ["--from", "2024-01-05", "--to", "2024-01-08", "--format", "json", "--tz", "UTC"]
        try withTemporaryFolder("one-text") { folder in
            try Data(text.utf8).write(to: folder.appendingPathComponent("c.ics"))
            let file = folder.appendingPathComponent("c.ics").path
            let runs: [(name: String, result: CommandResult)] = [
                (file, try streakcal(["report", file] + days)),
                ("-", try streakcal(["report", "-"] + days, input: text)),
                (file, try streakcal(["report", folder.path] + days)),
                (server.url("/c.ics"), try streakcal(["report", server.url("/c.ics")] + days, environment: home.environment)),
                (server.url("/cal/c.ics"), try streakcal(["report", server.url("/cal/")] + days, environment: home.environment)),
            ]
            var seen: [(days: NSArray, diagnostics: [String])] = []
            for (name, result) in runs {
                #expect(result.status == 0, "\(name): \(result.standardError)")
                let report = try jsonObject(result.standardOutput)
                let diagnostics = (report["diagnostics"] as? [[String: Any]] ?? []).map { diagnostic in
                    #expect(diagnostic["file"] as? String == name)
                    return "\(diagnostic["line"] ?? "?"):\(diagnostic["column"] ?? "?") \(diagnostic["message"] ?? "")"
                }
                seen.append((NSArray(array: report["days"] as? [Any] ?? []), diagnostics))
            }
            #expect(seen[0].diagnostics.contains { $0.hasPrefix("8:") && $0.contains("ends before it starts") }, "\(seen[0].diagnostics)")
            for (index, other) in seen.enumerated().dropFirst() {
                #expect(other.days.isEqual(to: seen[0].days as! [Any]), "\(runs[index].name)")
                #expect(other.diagnostics == seen[0].diagnostics, "\(runs[index].name)")
            }
        }
    }

    @Test("offline-prefers-older-window-copy.sh: --offline reads the newest copy that covers the window")
    func offlineNewestCopy() throws {
        let one = DAVAnswer.response("/cal/e1.ics", DAVAnswer.calendarData(DAVAnswer.event(uid: "e1", day: "20240101", points: 10)))
        let two = DAVAnswer.response("/cal/e2.ics", DAVAnswer.calendarData(DAVAnswer.event(uid: "e2", day: "20240102", points: 20)))
        let server = try ScriptedServer([
            DAVAnswer.collection("/cal/"),
            // The first query sees both events; by the sync, e2 is gone.
            .init(method: "REPORT", path: "/cal/", contains: "calendar-query", responses: [DAVAnswer.multistatus([one, two])]),
            .init(method: "REPORT", path: "/cal/", contains: "sync-collection", responses: [DAVAnswer.multistatus([one], extra: "<D:sync-token>t1</D:sync-token>")]),
        ])
        let home = try TestHome()
        defer { home.remove() }
        let windowed = try streakcal(["report", server.url("/cal/"), "--from", "2024-01-01", "--to", "2024-01-03"] + window, environment: home.environment)
        #expect(windowed.standardOutput.contains("2024-01-02,20,1,"), "\(windowed.standardOutput)")
        // The index's time tells which copy is newer: a file system may keep it to the second or coarser.
        Thread.sleep(forTimeInterval: 1.1)
        let synced = try streakcal(["report", server.url("/cal/")] + window, environment: home.environment)
        #expect(synced.status == 0, "\(synced.standardError)")
        for last in ["2024-01-03", "2024-01-04"] {
            let offline = try streakcal(["report", server.url("/cal/"), "--offline", "--from", "2024-01-01", "--to", last] + window, environment: home.environment)
            #expect(offline.standardOutput.contains("2024-01-02,0,0,"), "to \(last): \(offline.standardOutput)")
        }
    }

    @Test("batch-offline-caldav-account.sh: batch and report of an account read offline what the online run fetched")
    func offlineAccount() throws {
        func calendarData(_ path: String) -> ScriptedServer.Route {
            .init(method: "REPORT", path: path, responses: [DAVAnswer.multistatus([
                DAVAnswer.response(path + "e.ics", DAVAnswer.calendarData(DAVAnswer.event(uid: path, day: "20240105", points: 5))),
            ])])
        }
        let server = try ScriptedServer([
            .init(method: "PROPFIND", path: "/alice/", responses: [DAVAnswer.multistatus([DAVAnswer.response(
                "/alice/", "<D:resourcetype><D:collection/></D:resourcetype><C:calendar-home-set><D:href>/alice/home/</D:href></C:calendar-home-set>")])]),
            .init(method: "PROPFIND", path: "/alice/home/", responses: [DAVAnswer.multistatus([
                DAVAnswer.response("/alice/home/run/", DAVAnswer.calendarCollection), DAVAnswer.response("/alice/home/piano/", DAVAnswer.calendarCollection),
            ])]),
            DAVAnswer.collection("/alice/home/run/"), DAVAnswer.collection("/alice/home/piano/"),
            calendarData("/alice/home/run/"), calendarData("/alice/home/piano/"),
        ])
        let home = try TestHome()
        defer { home.remove() }
        let days = ["--from", "2024-01-05", "--to", "2024-01-05", "--no-timings"] + window
        let online = try streakcal(["batch", server.url("/alice/"), "--out", home.folder.appendingPathComponent("on").path] + days, environment: home.environment)
        #expect(online.status == 0, "\(online.standardError)")
        let requests = server.requests.count
        let offline = try streakcal(
            ["batch", server.url("/alice/"), "--offline", "--out", home.folder.appendingPathComponent("off").path] + days, environment: home.environment)
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(offline.standardOutput == online.standardOutput)
        let report = try streakcal(["report", server.url("/alice/"), "--offline", "--from", "2024-01-05", "--to", "2024-01-05"] + window, environment: home.environment)
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("2024-01-05,10,2,"), "\(report.standardOutput)")
        #expect(server.requests.count == requests)
    }

    @Test("caldav-expired-sync-token-never-restarts.sh: a 403 valid-sync-token starts the sync over, and the new token is kept")
    func expiredToken() throws {
        let event = DAVAnswer.response("/cal/e.ics", DAVAnswer.calendarData(DAVAnswer.event(uid: "e", day: "20240101", points: 10)))
        let server = try ScriptedServer([
            DAVAnswer.collection("/cal/"),
            .init(method: "REPORT", path: "/cal/", contains: "<D:sync-token>t1</D:sync-token>", responses: [
                .init(status: 403, headers: ["Content-Type": "application/xml"], body: #"<?xml version="1.0"?><error xmlns="DAV:"><valid-sync-token/></error>"#),
            ]),
            .init(method: "REPORT", path: "/cal/", contains: "sync-collection", responses: [
                DAVAnswer.multistatus([event], extra: "<D:sync-token>t1</D:sync-token>"),
                DAVAnswer.multistatus([event], extra: "<D:sync-token>t2</D:sync-token>"),
                DAVAnswer.multistatus([], extra: "<D:sync-token>t2</D:sync-token>"),
            ]),
        ])
        let home = try TestHome()
        defer { home.remove() }
        for _ in 1...3 {
            let result = try streakcal(["report", server.url("/cal/")] + window, environment: home.environment)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("2024-01-01,10,1,"), "\(result.standardOutput)")
        }
        let tokens = server.requests.filter { $0.method == "REPORT" }.map { request -> String in
            guard let start = request.body.range(of: "<D:sync-token>"), let end = request.body.range(of: "</D:sync-token>") else { return "?" }
            return String(request.body[start.upperBound..<end.lowerBound])
        }
        // Run 1 starts; run 2's token is refused, so it starts over at once; run 3 asks with the new one.
        #expect(tokens == ["", "t1", "", "t2"])
        #expect(!server.requests.contains { $0.body.contains("calendar-query") })
    }

    @Test("An error's body is read no further than its first 64 KiB")
    func errorBodyBounded() throws {
        let page = String(repeating: "x", count: 2 << 20)
        let server = try ScriptedServer([.init(path: "/big-error", responses: [.init(status: 500, body: page)])])
        let request = HTTPTransfer.Request(url: server.url("/big-error"), connectTimeout: 10, timeout: 30, timeLimit: 30, maximumSize: 1 << 30)
        let response = try HTTPTransfer.perform(request) { _ in Issue.record("an error's body went to the sink") }
        #expect(response.status == 500)
        #expect(response.errorBody.count == HTTPTransfer.errorBodyLimit)
    }
}

extension RemoteTrustTests {
    /// Runs `streakcal` through Tests/Support/max-rss.py: the result, and the peak memory in bytes.
    private func measured(_ arguments: [String], environment: [String: String]) throws -> (CommandResult, Int) {
        let result = try run("/usr/bin/env", ["python3", repositoryRoot.appendingPathComponent("Tests/Support/max-rss.py").path, try streakcalPath()] + arguments,
                             environment: environment, timeLimit: .seconds(300))
        let line = result.standardError.split(separator: "\n").last { $0.hasPrefix("max-rss-kib: ") }
        let kibibytes = try #require(line.flatMap { Int($0.dropFirst("max-rss-kib: ".count)) })
        return (result, kibibytes << 10)
    }

    @Test("caldav-xml-namespaces-quadratic.sh: 200,000 namespace declarations are read in time linear in the answer")
    func manyNamespaces() throws {
        try withTemporaryFolder("namespaces") { folder in
            let count = 200_000
            var answer = #"<D:multistatus xmlns:D="DAV:""# + (0..<count).map { " xmlns:p\($0)=\"u\($0)\"" }.joined() + ">"
            answer += String(repeating: #"<x xmlns:q="v"/>"#, count: count) + "</D:multistatus>"
            let file = folder.appendingPathComponent("answer.xml")
            try Data(answer.utf8).write(to: file)
            let server = try ScriptedServer([.init(method: "PROPFIND", path: "/cal/", responses: [.init(status: 207, bodyFile: file.path)])])
            let home = try TestHome()
            defer { home.remove() }
            // Quadratic, this took hours; linear, about a second even unoptimised. No WebDAV
            // calendar there, so the address is then read as a subscription: a 404.
            let result = try streakcal(["report", server.url("/cal/")] + window, environment: home.environment, timeLimit: .seconds(240))
            #expect(!result.timedOut)
            #expect(result.status == 1 && result.standardError.contains("HTTP 404"), "\(result.standardError)")
        }
    }

    @Test("caldav-xml-memory-amplification.sh: an answer of unread elements costs little beyond itself; a flood of read ones is refused")
    func elementFloods() throws {
        try withTemporaryFolder("floods") { folder in
            let size = 24 << 20
            let head = #"<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">"#
            let unread = folder.appendingPathComponent("unread.xml"), read = folder.appendingPathComponent("read.xml")
            try Data((head + String(repeating: "<a/>", count: size / 4) + "</D:multistatus>").utf8).write(to: unread)
            try Data((head + "<D:response>" + String(repeating: "<D:href/>", count: size / 9) + "</D:response></D:multistatus>").utf8).write(to: read)
            // The calendar query's answer (up to 256 MiB may come) is the flood.
            let server = try ScriptedServer([
                DAVAnswer.collection("/unread/"), DAVAnswer.collection("/read/"), DAVAnswer.collection("/tiny/"),
                .init(method: "REPORT", path: "/tiny/", responses: [DAVAnswer.multistatus([])]),
                .init(method: "REPORT", path: "/unread/", responses: [.init(status: 207, bodyFile: unread.path)]),
                .init(method: "REPORT", path: "/read/", responses: [.init(status: 207, bodyFile: read.path)]),
            ])
            let home = try TestHome()
            defer { home.remove() }
            let days = ["--from", "2024-01-05", "--to", "2024-01-05"] + window
            // What the program takes for a tiny answer; the floods are measured beyond it.
            let (_, baseline) = try measured(["report", server.url("/tiny/")] + days, environment: home.environment)
            let (plain, peak) = try measured(["report", server.url("/unread/")] + days, environment: home.environment)
            #expect(plain.status == 0 && plain.standardOutput.contains("2024-01-05,0,0,"), "\(plain.standardError)")
            // The answer itself, held while it is read, and little more (it took twenty times it).
            #expect(peak - baseline <= 2 * size, "peak \(peak >> 20) MiB (\(baseline >> 20) MiB for a tiny answer), an answer of \(size >> 20) MiB")
            let (flood, floodPeak) = try measured(["report", server.url("/read/")] + days, environment: home.environment)
            #expect(flood.status == 1)
            #expect(flood.standardError.contains("the answer holds more elements than"), "\(flood.standardError)")
            // At most one element kept per 32 bytes of the answer, then the error: about four times it.
            #expect(floodPeak - baseline <= 5 * size, "peak \(floodPeak >> 20) MiB for an answer of \(size >> 20) MiB")
        }
    }
}
