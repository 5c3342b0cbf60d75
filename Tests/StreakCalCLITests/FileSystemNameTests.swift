import Foundation
import Testing
@testable import StreakCal

/// Files as the file system names them (issue 45): names that are not UTF-8, and files of a
/// folder that cannot be read, which never take the folder's other files with them.
@Suite("File names and unreadable files")
struct FileSystemNameTests {
    let window = ["--tz", "UTC", "--from", "2024-01-05", "--to", "2024-01-05", "--format", "csv"]

    static func event(_ uid: String, hour: Int, points: Int) -> Data {
        Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTART:20240105T\(String(format: "%02d", hour))0000Z\r\nX-POINTS:\(points)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
    }

    /// Writes `data` at the path whose bytes are `folder`'s, `/`, then `name`.
    private func write(_ data: Data, in folder: URL, name: [UInt8]) throws {
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        _ = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Latin-1 `Übung.ics`: `DC 62 75 6E 67 2E 69 63 73`.
    static let latin1Name: [UInt8] = [0xDC] + Array("bung.ics".utf8)

    @Test("non-utf8-file-name-unreadable.sh: a file whose name is not UTF-8 is read in a folder, by its name and in a batch, and shown escaped")
    func latin1Name() throws {
        try withTemporaryFolder("latin1") { folder in
            try Self.event("a", hour: 9, points: 10).write(to: folder.appendingPathComponent("run.ics"))
            try write(Self.event("b", hour: 10, points: 20), in: folder, name: Self.latin1Name)
            let report = try streakcal(["report", folder.path] + window)
            #expect(report.status == 0, "\(report.standardError)")
            #expect(report.standardOutput.contains("2024-01-05,30,2,"), "\(report.standardOutput)")
            // Named on the command line with its bytes (the shell passes them as they are).
            let path = folder.path + "/" + FileName.string(fromSystem: Self.latin1Name)
            let script = "exec \"$0\" report \"$(printf '%s/\\334bung.ics' \"$1\")\" " + window.joined(separator: " ")
            let named = try run("/bin/sh", ["-c", script, try streakcalPath(), folder.path])
            #expect(named.status == 0, "\(named.standardError)")
            #expect(named.standardOutput.contains("2024-01-05,20,1,"), "\(named.standardOutput)")
            let out = folder.appendingPathComponent("out")
            let batch = try streakcal(["batch", folder.path, "--out", out.path, "--no-timings"] + window)
            #expect(batch.status == 0, "\(batch.standardError)")
            #expect(batch.standardOutput.contains("\\xDCbung.ics"), "\(batch.standardOutput)")
            #expect(try batchOutputListing(out.path) == ["_xDCbung.csv", "run.csv", "summary.json"])
            #expect(FileName.displayed(path).hasSuffix("/\\xDCbung.ics"))
        }
    }

    @Test("A file of a folder that cannot be read (a broken link) is an error of its own; the folder's other files are reported and annotated")
    func unreadableInFolder() throws {
        try withTemporaryFolder("unreadable") { folder in
            try Self.event("a", hour: 9, points: 10).write(to: folder.appendingPathComponent("a.ics"))
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("b.ics").path, withDestinationPath: "/nonexistent/b.ics")
            try Self.event("c", hour: 10, points: 20).write(to: folder.appendingPathComponent("c.ics"))
            let said = "\(folder.path)/b.ics:1:1: error: the file cannot be read (a broken link or a vanished file); the other inputs are read without it"
            let report = try streakcal(["report", folder.path] + window)
            #expect(report.status == 0)
            #expect(report.standardOutput.contains("2024-01-05,30,2,"), "\(report.standardOutput)")
            #expect(report.standardError.contains(said), "\(report.standardError)")
            let strict = try streakcal(["report", folder.path, "--strict"] + window)
            #expect(strict.status == 1)
            let annotated = folder.appendingPathComponent("annotated.out")
            let annotate = try streakcal(["annotate", folder.path, "-o", annotated.path] + window.dropLast(2))
            #expect(annotate.status == 0, "\(annotate.standardError)")
            #expect(annotate.standardError.contains(said), "\(annotate.standardError)")
            let copy = try String(contentsOf: annotated, encoding: .utf8)
            #expect(copy.contains("UID:a") && copy.contains("UID:c"))
        }
    }

    @Test("File names: UTF-8 kept as it is; other bytes stand for themselves and come back whole", arguments: [
        Array("Übung.ics".utf8), [0xDC, 0x62], [0xFF, 0xFE, 0x41], [0xE2, 0x82], [0xE2, 0x82, 0xAC], Array("plain".utf8),
    ])
    func roundTrip(bytes: [UInt8]) {
        let name = FileName.string(fromSystem: bytes)
        #expect(FileName.systemBytes(name) == bytes)
        #expect(FileName.hasStandIns(name) == (String(validating: bytes, as: UTF8.self) == nil))
        FileName.withSystemRepresentation(name) { #expect(Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) == bytes) }
    }
}
