import Foundation
import StreakCal
import StreakCalRemote
import Synchronization
import Testing

/// What a program embedding StreakCal switches on when an address cannot be read (issue 50.5):
/// the code, and the status the server answered with, against the loopback test server.
@Suite("Read errors of addresses carry a code")
struct ReadErrorCodeTests {
    private func fetchError(_ address: String, _ change: (inout DownloadOptions) -> Void = { _ in }) throws -> CalendarReadError {
        let home = try TestHome()
        defer { home.remove() }
        var options = DownloadOptions()
        options.cacheFolder = home.folder.appendingPathComponent("cache").path
        options.connectTimeout = 5
        change(&options)
        return try #require(throws: CalendarReadError.self) { try CalendarSubscription(address, options: options).fetch() }
    }

    @Test("An error status is coded by what it means, and keeps the status")
    func statuses() throws {
        let server = try TestHTTPServer()
        let expected: [(Int, CalendarReadError.Code)] = [(404, .notFound), (410, .notFound), (401, .permissionDenied), (403, .permissionDenied), (500, .server)]
        for (status, code) in expected {
            let error = try fetchError(server.url("/status/\(status)"))
            #expect(error.code == code && error.httpStatus == status, "\(status): \(error)")
            #expect(error.path == server.url("/status/\(status)") && error.systemError == nil)
        }
    }

    @Test("A limit, a broken transfer, no server, a refused redirect, offline without a copy and a bad address each have their code")
    func otherFailures() throws {
        let server = try TestHTTPServer()
        #expect(try fetchError(server.url("/oversize")) { $0.maximumSize = 1_000 }.code == .tooLarge)
        #expect(try fetchError(server.url("/truncated")).code == .network)
        #expect(try fetchError("http://127.0.0.1:1/x.ics").code == .network)
        #expect(try fetchError(server.url("/loop")).code == .server)
        #expect(try fetchError(server.url("/tutorial.ics")) { $0.permittedHosts = ["example.com"] }.code == .refused)
        #expect(try fetchError(server.url("/tutorial.ics")) { $0.isOffline = true }.code == .notCached)
        #expect(try fetchError(server.url("/tutorial.ics")) { $0.cacheFolder = nil }.code == .cache)
        let address = try #require(throws: CalendarReadError.self) { try CalendarAddress("ftp://example.com/x.ics") }
        #expect(address.code == .invalidAddress)
    }

    @Test("Calendar inputs: a file that is no calendar, and a folder without one, are not-a-calendar")
    func notACalendar() throws {
        let home = try TestHome()
        defer { home.remove() }
        let readme = home.folder.appendingPathComponent("README.md")
        try "# notes\n".write(to: readme, atomically: true, encoding: .utf8)
        let file = try #require(throws: CalendarReadError.self) { try CalendarInputs([readme.path]) }
        #expect(file.code == .notACalendar && file.path == readme.path)
        let empty = home.folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let folder = try #require(throws: CalendarReadError.self) { try CalendarInputs([empty.path]) }
        #expect(folder.code == .notACalendar && folder.reason == "the folder holds no calendar file (*.ics)")
    }
}

/// A download's progress reaches the caller; the library draws nothing (issue 50.8).
@Suite("Download progress is the caller's")
struct DownloadProgressTests {
    @Test("The callback hears the body's bytes, in order, then that the request ended")
    func progressReports() throws {
        let server = try TestHTTPServer()
        let home = try TestHome()
        defer { home.remove() }
        let heard = Mutex<[DownloadProgress]>([])
        var options = DownloadOptions()
        options.cacheFolder = home.folder.appendingPathComponent("cache").path
        options.progress = { progress in heard.withLock { $0.append(progress) } }
        let download = try CalendarSubscription(server.url("/tutorial.ics"), options: options).fetch()
        #expect(download.sources.count == 1)
        let reports = heard.withLock { $0 }
        #expect(reports.last == DownloadProgress(host: "127.0.0.1", received: 0, expected: 0, isFinished: true))
        #expect(reports.filter(\.isFinished).count == 1)
        let received = reports.filter { !$0.isFinished }.map(\.received)
        #expect(received == received.sorted())
        let size = try FileManager.default.attributesOfItem(atPath: fixture("tutorial-sample.ics"))[.size] as? Int64
        #expect(received.allSatisfy { $0 <= size ?? 0 })
    }
}
