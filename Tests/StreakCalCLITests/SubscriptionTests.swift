import Foundation
import Testing

/// Tests/Support/http-test-server.py on a loopback port, for as long as a test holds it.
final class TestHTTPServer {
    private let server: LoopbackServer
    var port: Int { server.port }

    /// A server of plain http, or of https with `tls`'s certificate and key (PEM files).
    init(tls: (certificate: String, key: String)? = nil) throws {
        server = try LoopbackServer([
            "python3", repositoryRoot.appendingPathComponent("Tests/Support/http-test-server.py").path,
            "--root", repositoryRoot.appendingPathComponent("Fixtures").path, "--port-file", "{port-file}",
        ] + (tls.map { ["--tls", $0.certificate, $0.key] } ?? []))
    }

    func url(_ path: String, host: String = "127.0.0.1") -> String {
        "http://\(host):\(port)\(path)"
    }

    /// The server's counters for `path`: requests, 200s with a body, 304s.
    func counts(_ path: String) throws -> (requests: Int, bodies: Int, notModified: Int, authorizedHosts: [String]) {
        let fetch = try run("/usr/bin/env", ["python3", "-c", "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())", url("/_stats")])
        let stats = try jsonObject(fetch.standardOutput)
        let number = { (key: String) in ((stats[key] as? [String: Any])?[path] as? Int) ?? 0 }
        return (number("requests"), number("bodies"), number("notModified"), ((stats["authorization"] as? [String: Any])?[path] as? [String]) ?? [])
    }
}

/// A home and a cache folder of a test's own, so that no test sees another's netrc or cached copies.
struct TestHome {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-home-\(UUID().uuidString)")

    init(netrc: String? = nil) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let netrc { try netrc.write(to: folder.appendingPathComponent(".netrc"), atomically: true, encoding: .utf8) }
    }

    var environment: [String: String] {
        ["HOME": folder.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "STREAKCAL_PASSWORD": ""]
    }

    /// The files in the cache folder, sorted.
    var cachedFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("cache/streakcal/calendars").path)) ?? []).sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Calendars read from `https://`, `http://` and `webcal://` addresses (issue 32), against a
/// loopback test server: the same days as the file, the cache revalidated, every limit an error
/// that names the address and leaves nothing half-written.
@Suite("Calendars at addresses")
struct SubscriptionTests {
    let window = ["--tz", "UTC", "--from", "2024-02-01", "--to", "2024-02-29", "--format", "json"]

    /// The report's JSON without `sources` (which names the address instead of the file).
    private func days(_ result: CommandResult) throws -> NSArray {
        #expect(result.status == 0, "\(result.standardError)")
        return NSArray(array: try #require(try jsonObject(result.standardOutput)["days"] as? [[String: Any]]))
    }

    @Test("A subscription reports the file's days; the second run revalidates and downloads no body; --offline reads the copy")
    func plainAndConditional() throws {
        let server = try TestHTTPServer()
        let home = try TestHome()
        defer { home.remove() }
        let file = try days(try streakcal(["report", fixture("tutorial-sample.ics")] + window))
        let first = try streakcal(["report", server.url("/tutorial.ics")] + window, environment: home.environment)
        #expect(try days(first).isEqual(to: file as! [Any]))
        // Diagnostics name the address, with the line in the calendar.
        #expect(first.standardError.contains("\(server.url("/tutorial.ics")):18:7: warning: the event ends before it starts"), "\(first.standardError)")
        let second = try streakcal(["report", server.url("/tutorial.ics")] + window, environment: home.environment)
        #expect(try days(second).isEqual(to: file as! [Any]))
        let counts = try server.counts("/tutorial.ics")
        #expect(counts.requests == 2)
        #expect(counts.bodies == 1)
        #expect(counts.notModified == 1)
        let offline = try streakcal(["report", server.url("/tutorial.ics"), "--offline"] + window, environment: home.environment)
        #expect(try days(offline).isEqual(to: file as! [Any]))
        #expect(try server.counts("/tutorial.ics").requests == 2)
        // An address never fetched has nothing to read offline.
        let missing = try streakcal(["report", server.url("/gzip.ics"), "--offline"], environment: home.environment)
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("cannot read \(server.url("/gzip.ics")): no copy in the cache"), "\(missing.standardError)")
    }

    @Test("gzip is undone, and redirects within the limit are followed")
    func gzipAndRedirects() throws {
        let server = try TestHTTPServer()
        let home = try TestHome()
        defer { home.remove() }
        let file = try days(try streakcal(["report", fixture("tutorial-sample.ics")] + window))
        #expect(try days(try streakcal(["report", server.url("/gzip.ics")] + window, environment: home.environment)).isEqual(to: file as! [Any]))
        #expect(try days(try streakcal(["report", server.url("/redirect/4")] + window, environment: home.environment)).isEqual(to: file as! [Any]))
        let loop = try streakcal(["report", server.url("/loop")], environment: home.environment, timeLimit: .seconds(120))
        #expect(loop.status == 1)
        #expect(loop.standardError.contains("cannot read \(server.url("/loop")): more than 5 redirects"), "\(loop.standardError)")
        #expect(try server.counts("/loop").requests == 6)
    }

    @Test("Credentials from ~/.netrc or --user with STREAKCAL_PASSWORD; never printed, never sent to another host")
    func credentials() throws {
        let server = try TestHTTPServer()
        let home = try TestHome(netrc: "machine 127.0.0.1\n  login alice\n  password s3cret\n")
        defer { home.remove() }
        let file = try days(try streakcal(["report", fixture("tutorial-sample.ics")] + window))
        let netrc = try streakcal(["report", server.url("/auth/tutorial.ics")] + window, environment: home.environment)
        #expect(try days(netrc).isEqual(to: file as! [Any]))
        // A redirect on the same host keeps the login and is followed (libcurl's own redirect URL
        // carried the credentials, and was once refused as "an address that holds a password").
        let redirected = try streakcal(["report", server.url("/redirect/2")] + window, environment: home.environment)
        #expect(try days(redirected).isEqual(to: file as! [Any]))

        let bare = try TestHome()
        defer { bare.remove() }
        let refused = try streakcal(["report", server.url("/auth/tutorial.ics")], environment: bare.environment)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("cannot read \(server.url("/auth/tutorial.ics")): HTTP 401 Unauthorized"), "\(refused.standardError)")
        var withPassword = bare.environment
        withPassword["STREAKCAL_PASSWORD"] = "s3cret"
        let user = try streakcal(["report", server.url("/auth/tutorial.ics"), "--user", "alice"] + window, environment: withPassword)
        #expect(try days(user).isEqual(to: file as! [Any]))
        let noPassword = try streakcal(["report", server.url("/auth/tutorial.ics"), "--user", "alice"], environment: bare.environment)
        #expect(noPassword.status == 1)
        #expect(noPassword.standardError.contains("no password for alice"), "\(noPassword.standardError)")

        // A redirect to another host name with credentials is refused before anything is sent there.
        let other = try streakcal(["report", server.url("/other-host")], environment: home.environment, timeLimit: .seconds(120))
        #expect(other.status == 1)
        #expect(other.standardError.contains("refused a redirect to another host (localhost) with the credentials for http://127.0.0.1:"), "\(other.standardError)")
        // Both logins above went to the address's host; the other host got none.
        #expect(try Set(server.counts("/auth/tutorial.ics").authorizedHosts) == ["127.0.0.1:\(server.port)"])
        // A password in the address is refused without being echoed.
        let inline = try streakcal(["report", "http://alice:s3cret@127.0.0.1:\(server.port)/auth/tutorial.ics"], environment: bare.environment)
        #expect(inline.status == 1)
        #expect(inline.standardError.contains("the address holds a password"))
        for result in [netrc, refused, user, noPassword, other, inline] {
            #expect(!result.standardOutput.contains("s3cret") && !result.standardError.contains("s3cret"))
        }
    }

    @Test("HTTP errors name the status and the address; a truncated body is an error and leaves no file in the cache")
    func errors() throws {
        let server = try TestHTTPServer()
        let home = try TestHome()
        defer { home.remove() }
        for (code, phrase) in [(404, "Not Found"), (500, "Internal Server Error"), (403, "Forbidden")] {
            let result = try streakcal(["report", server.url("/status/\(code)")], environment: home.environment)
            #expect(result.status == 1)
            #expect(result.standardError.contains("streakcal: error: cannot read \(server.url("/status/\(code)")): HTTP \(code) \(phrase)"), "\(result.standardError)")
        }
        let truncated = try streakcal(["report", server.url("/truncated")], environment: home.environment, timeLimit: .seconds(120))
        #expect(truncated.status == 1)
        #expect(truncated.standardError.contains("the connection closed before the whole response came"), "\(truncated.standardError)")
        #expect(home.cachedFiles.isEmpty)
        let unreachable = try streakcal(["report", "http://127.0.0.1:1/x.ics", "--connect-timeout", "5"], environment: home.environment)
        #expect(unreachable.status == 1)
        #expect(unreachable.standardError.contains("cannot read http://127.0.0.1:1/x.ics: "))
    }

    @Test("A compression bomb, a never-ending body, a stalled body and an oversized one end with an error, in bounded memory")
    func limits() throws {
        let server = try TestHTTPServer()
        let home = try TestHome()
        defer { home.remove() }
        let measure = repositoryRoot.appendingPathComponent("Tests/Support/max-rss.py").path
        let binary = try streakcalPath()
        let cases: [(path: String, options: [String], message: String)] = [
            // 10 GiB of zeros, gzip-compressed: the default 1 GiB cap counts the inflated bytes.
            ("/bomb", [], "the response is larger than 1 GiB, the limit --max-size sets"),
            // One second: loopback carries 1 GiB in three, which the size cap would end first.
            ("/endless", ["--timeout", "1"], "the request took longer than 1 s, the limit --timeout sets"),
            ("/endless", ["--max-size", "20MiB"], "the response is larger than 20 MiB, the limit --max-size sets"),
            ("/slow", ["--timeout", "2"], "the request took longer than 2 s, the limit --timeout sets"),
            ("/oversize", [], "the response is larger than 1 GiB, the limit --max-size sets"),
        ]
        for (path, options, message) in cases {
            let start = ContinuousClock.now
            let result = try run("/usr/bin/env", ["python3", measure, binary, "report", server.url(path)] + options, environment: home.environment, timeLimit: .seconds(300))
            let elapsed = ContinuousClock.now - start
            #expect(result.status == 1, "\(path): \(result.standardError)")
            #expect(result.standardError.contains("streakcal: error: cannot read \(server.url(path)): \(message)"), "\(path): \(result.standardError)")
            let peak = result.standardError.split(separator: "\n").last.flatMap { Int($0.split(separator: " ").last ?? "") } ?? .max
            // AddressSanitizer's shadow memory and quarantine weigh more than the limit on their own.
            if ProcessInfo.processInfo.environment["STREAKCAL_TESTS_SANITIZED"] != "1" {
                #expect(peak < 64 * 1024, "\(path): \(peak) KiB")
            }
            #expect(elapsed < .seconds(120), "\(path): \(elapsed)")
            #expect(home.cachedFiles.isEmpty, "\(path): \(home.cachedFiles)")
        }
    }

    @Test("webcal:// is read as https://; a plain-http server there is a TLS error naming the https address")
    func webcal() throws {
        let server = try TestHTTPServer()
        let home = try TestHome()
        defer { home.remove() }
        let result = try streakcal(["report", "webcal://127.0.0.1:\(server.port)/tutorial.ics"], environment: home.environment, timeLimit: .seconds(120))
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot read https://127.0.0.1:\(server.port)/tutorial.ics: "), "\(result.standardError)")
    }

    @Test("batch takes addresses beside files, one that fails failing alone; --jsonl fetches \"url\" records only from --allow-host hosts")
    func batches() throws {
        let server = try TestHTTPServer()
        let home = try TestHome()
        defer { home.remove() }
        let out = home.folder.appendingPathComponent("out").path
        let result = try streakcal(
            ["batch", fixture("tutorial-sample.ics"), server.url("/tutorial.ics"), server.url("/status/404"), "--out", out, "--format", "json", "--no-timings"]
                + window.dropLast(2), environment: home.environment)
        #expect(result.status == 1, "\(result.standardError)")
        let written = try batchOutputListing(out)
        #expect(written == ["127.0.0.1_\(server.port)__tutorial.json", "summary.json", "tutorial-sample.json"], "\(written)")
        let fromFile = try jsonObject(try String(contentsOfFile: out + "/tutorial-sample.json", encoding: .utf8))
        let fromAddress = try jsonObject(try String(contentsOfFile: out + "/127.0.0.1_\(server.port)__tutorial.json", encoding: .utf8))
        #expect(NSArray(array: fromFile["days"] as! [Any]).isEqual(to: fromAddress["days"] as! [Any]))
        let summary = try String(contentsOfFile: out + "/summary.json", encoding: .utf8)
        #expect(summary.contains("cannot read \(server.url("/status/404")): HTTP 404 Not Found"), "\(summary)")
        #expect(summary.contains(#""errorCode" : "not-found""#), "\(summary)")

        let lines = [
            #"{"id": "ok", "url": "\#(server.url("/tutorial.ics"))"}"#,
            #"{"id": "other", "url": "\#(server.url("/tutorial.ics", host: "localhost"))"}"#,
            #"{"id": "redirected", "url": "\#(server.url("/other-host"))"}"#,
        ].joined(separator: "\n") + "\n"
        let allowed = try streakcal(["batch", "--jsonl", "--allow-host", "127.0.0.1"] + window, input: lines, environment: home.environment)
        let records = allowed.standardOutput.split(separator: "\n").map { try? jsonObject(String($0)) }
        #expect(records.count == 3)
        #expect(records[0]?["error"] is NSNull, "\(allowed.standardOutput)")
        #expect(records[0]?["daysMet"] as? Int == 3)
        #expect((records[1]?["error"] as? String)?.contains("the host localhost is not one of those allowed (127.0.0.1)") == true, "\(allowed.standardOutput)")
        #expect((records[2]?["error"] as? String)?.contains("refused a redirect to localhost, not one of the hosts allowed") == true, "\(allowed.standardOutput)")
        #expect(records.map { $0?["errorCode"] as? String } == [nil, "refused", "refused"], "\(allowed.standardOutput)")
        #expect(try server.counts("/auth/tutorial.ics").requests == 0)

        let refused = try streakcal(["batch", "--jsonl"] + window, input: lines, environment: home.environment)
        let first = try jsonObject(String(refused.standardOutput.split(separator: "\n")[0]))
        #expect((first["error"] as? String)?.contains("a \"url\" is fetched only from a host given with --allow-host") == true, "\(refused.standardOutput)")
    }

    @Test("https: a certificate no authority vouches for is an error; --cacert trusts a private one; a redirect to http is refused")
    func tls() throws {
        let home = try TestHome()
        defer { home.remove() }
        // A self-signed certificate for 127.0.0.1, as a private certificate authority's would be.
        let certificate = home.folder.appendingPathComponent("cert.pem").path
        let key = home.folder.appendingPathComponent("key.pem").path
        let made = try run("/usr/bin/env", [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        try #require(made.status == 0, "\(made.standardError)")
        let server = try TestHTTPServer(tls: (certificate, key))
        let address = "https://127.0.0.1:\(server.port)/tutorial.ics"
        let untrusted = try streakcal(["report", address] + window, environment: home.environment)
        #expect(untrusted.status == 1)
        #expect(untrusted.standardError.contains("cannot read \(address): the server's certificate is not trusted"), "\(untrusted.standardError)")
        #expect(untrusted.standardError.contains("--cacert FILE names a private certificate authority"))
        #expect(home.cachedFiles.filter { $0.hasSuffix(".ics") }.isEmpty)

        let file = try days(try streakcal(["report", fixture("tutorial-sample.ics")] + window))
        let trusted = try streakcal(["report", address, "--cacert", certificate] + window, environment: home.environment)
        #expect(try days(trusted).isEqual(to: file as! [Any]))

        let downgrade = try streakcal(["report", "https://127.0.0.1:\(server.port)/downgrade", "--cacert", certificate] + window, environment: home.environment)
        #expect(downgrade.status == 1)
        #expect(downgrade.standardError.contains("refused a redirect from https to http (http://127.0.0.1:\(server.port)/tutorial.ics)"), "\(downgrade.standardError)")
    }
}
