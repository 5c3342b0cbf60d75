import Foundation
import StreakCal
import Testing

/// A fresh folder under the temporary directory, removed after `body`.
private func inTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-stream-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try body(folder)
}

private func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

private let tutorial = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/tutorial-sample.ics").path

@Suite("Atomic files written a piece at a time")
struct AtomicFileStreamTests {
    @Test("Pieces make the file once it is committed, not before")
    func committed() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            let path = folder + "/annotated.ics"
            let file = try AtomicFileStream(path: path)
            try file.write(Array("BEGIN:VCALENDAR\r\n".utf8))
            try file.write(Array("END:VCALENDAR\r\n".utf8))
            #expect(!FileManager.default.fileExists(atPath: path))
            try file.commit()
            #expect(contents(path) == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["annotated.ics"])
        }
    }

    @Test("A stream dropped before its commit leaves the old file as it was, and no temporary file")
    func abandoned() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            let path = folder + "/annotated.ics"
            try "the old calendar".write(toFile: path, atomically: false, encoding: .utf8)
            do {
                let file = try AtomicFileStream(path: path)
                try file.write(Array(String(repeating: "x", count: 100_000).utf8))
                _ = consume file
            }
            #expect(contents(path) == "the old calendar")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["annotated.ics"])
        }
    }

    @Test("A file replaced keeps its permission bits; a link is written through and stays a link")
    func replaced() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            let path = folder + "/calendar.ics"
            try "old".write(toFile: path, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
            try FileManager.default.createSymbolicLink(atPath: folder + "/link.ics", withDestinationPath: "calendar.ics")
            let file = try AtomicFileStream(path: folder + "/link.ics")
            try file.write(Array("new".utf8))
            try file.commit()
            #expect(contents(path) == "new")
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.ics") == "calendar.ics")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["calendar.ics", "link.ics"])
        }
    }

    @Test("A folder or a device is refused before anything is written")
    func refused() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            #expect(throws: AtomicFile.WriteError(path: folder, reason: "a folder, not a regular file")) {
                _ = try AtomicFileStream(path: folder)
            }
            #expect(throws: AtomicFile.WriteError(path: "/dev/null", reason: "a character device, not a regular file")) {
                _ = try AtomicFileStream(path: "/dev/null")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
        }
    }

    @Test("annotatedCopy written to a file is what annotated writes in memory, and says the same")
    func annotatedCopyToFile() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            var settings = ReportSettings(requiredPoints: 100, timeZone: "UTC")
            settings.to = try Day(year: 2024, month: 2, day: 29)
            let now = Int64(1_709_164_800)
            let inMemory = try settings.annotated([.file(tutorial)], includingEmptyDays: true, markingSessions: true, now: now)
            let copy = try settings.annotatedCopy([.file(tutorial)], includingEmptyDays: true, markingSessions: true, now: now)
            let (report, diagnostics) = (copy.report, copy.diagnostics)
            var file = try AtomicFileStream(path: folder + "/annotated.ics")
            try copy.write(to: &file)
            try file.commit()
            #expect(contents(folder + "/annotated.ics") == inMemory.text)
            #expect(report == inMemory.report)
            #expect(diagnostics == inMemory.diagnostics)
            #expect(inMemory.text.contains("X-STREAKCAL-DAY-STATUS:met\r\n"))
        }
    }
}
