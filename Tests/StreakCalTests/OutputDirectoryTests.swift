import Foundation
@testable import StreakCal
import Testing
import FixedClock

/// A fresh folder `out` with a file beside it (`victim.txt`), removed when the test ends.
private final class PlantedFolder {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
    var out: String { path("out") }

    init() throws {
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        try "precious\n".write(toFile: path("victim.txt"), atomically: false, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: base) }

    func path(_ relative: String) -> String { base.appendingPathComponent(relative).path }

    func contents(_ relative: String) -> String? { try? String(contentsOfFile: path(relative), encoding: .utf8) }

    func mode(_ relative: String) -> mode_t? {
        var status = stat()
        return lstat(path(relative), &status) == 0 ? status.st_mode : nil
    }

    /// Everything in the folder (hidden temporary files included), sorted.
    func listing(_ relative: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path(relative)).sorted()
    }
}

@Suite("Writing into an output folder through its descriptor (batch --out)")
struct OutputDirectoryTests {
    @Test("A link planted in the folder, dangling or not, is refused and left as it is; nothing outside is written (repro batch-out-writes-through-symlink.sh)")
    func plantedLinks() throws {
        let folder = try PlantedFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.path("out/a.csv"), withDestinationPath: "../victim.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.path("out/summary.json"), withDestinationPath: folder.path("created-outside.json"))
        let directory = try OutputDirectory(opening: folder.out, creating: false)
        for name in ["a.csv", "summary.json"] {
            #expect(throws: AtomicFile.WriteError(path: folder.path("out/" + name), reason: "a symbolic link, not a regular file; it is left as it is")) {
                try directory.write("new\n", named: name)
            }
        }
        #expect(folder.contents("victim.txt") == "precious\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("created-outside.json")))
        #expect(folder.mode("out/a.csv").map { $0 & S_IFMT } == S_IFLNK && folder.mode("out/summary.json").map { $0 & S_IFMT } == S_IFLNK)
        #expect(try folder.listing("out") == ["a.csv", "summary.json"], "no temporary file left")
        #expect(try folder.listing("") == ["out", "victim.txt"])
    }

    @Test("A folder, a named pipe: refused and left as they are")
    func specialFiles() throws {
        let folder = try PlantedFolder()
        try FileManager.default.createDirectory(atPath: folder.path("out/d.csv"), withIntermediateDirectories: true)
        #expect(mkfifo(folder.path("out/p.csv"), 0o644) == 0)
        let directory = try OutputDirectory(opening: folder.out, creating: false)
        #expect(throws: AtomicFile.WriteError(path: folder.path("out/d.csv"), reason: "a folder, not a regular file; it is left as it is")) {
            try directory.write("x", named: "d.csv")
        }
        #expect(throws: AtomicFile.WriteError(path: folder.path("out/p.csv"), reason: "a named pipe (FIFO), not a regular file; it is left as it is")) {
            try directory.write("x", named: "p.csv")
        }
        #expect(try folder.listing("out") == ["d.csv", "p.csv"])
    }

    @Test("New files get 0666 less the umask; a regular file is replaced whole and keeps its mode; both ways of writing", arguments: [false, true])
    func regularFiles(throughTemporaryName: Bool) throws {
        let folder = try PlantedFolder()
        try "old\n".write(toFile: folder.path("out/kept.csv"), atomically: false, encoding: .utf8)
        #expect(chmod(folder.path("out/kept.csv"), 0o604) == 0)
        let directory = try OutputDirectory(opening: folder.out, creating: false)
        func write(_ text: String, _ name: String) throws {
            if throughTemporaryName {
                var status = stat()
                let existing = fstatat(directory.descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 ? status : nil
                try Array(text.utf8).withUnsafeBytes { bytes in
                    try directory.writeThroughTemporaryName(bytes, named: name, replacing: existing)
                }
            } else {
                try directory.write(text, named: name)
            }
        }
        try write("new\n", "kept.csv")
        try write("fresh\n", "fresh.csv")
        #expect(folder.contents("out/kept.csv") == "new\n" && folder.contents("out/fresh.csv") == "fresh\n")
        #expect(folder.mode("out/kept.csv") == S_IFREG | 0o604)
        let mask = umask(0o022)
        umask(mask)
        #expect(folder.mode("out/fresh.csv") == S_IFREG | (0o666 & ~mask))
        #expect(try folder.listing("out") == ["fresh.csv", "kept.csv"], "no temporary file left")
    }

    @Test("The folder is the one opened: renamed away meanwhile, files still go into it, not to a new folder of its name")
    func folderOpenedOnce() throws {
        let folder = try PlantedFolder()
        let directory = try OutputDirectory(opening: folder.out, creating: false)
        #expect(rename(folder.out, folder.path("moved")) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.out, withDestinationPath: "/nonexistent")
        try directory.write("x\n", named: "a.csv")
        #expect(folder.contents("moved/a.csv") == "x\n")
        #expect(directory.path(of: "a.csv") == folder.path("out/a.csv"))
    }

    @Test("A batch: the report over a planted link fails alone, summary.json over one throws, and nothing outside --out changes")
    func batch() throws {
        let folder = try PlantedFolder()
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
        let sources = try ["tutorial-sample.ics", "folding.ics"].map {
            CalendarSource.bytes(try CalendarSource.file(fixtures.appendingPathComponent($0).path).read(), name: $0)
        }
        try FileManager.default.createSymbolicLink(atPath: folder.path("out/folding.csv"), withDestinationPath: "../victim.txt")
        let batch = BatchReport(sources: sources, settings: ReportSettings(timeZone: "UTC"), format: .csv, jobs: 2, recordsElapsedTime: false, now: testNow)
        let summary = try batch.write(to: folder.out)
        #expect(summary.files.map(\.error) == [nil, "cannot write \(folder.path("out/folding.csv")): a symbolic link, not a regular file; it is left as it is"])
        #expect(summary.files.map(\.output) == ["tutorial-sample.csv", nil])
        #expect(folder.contents("victim.txt") == "precious\n")

        try FileManager.default.removeItem(atPath: folder.path("out/summary.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("out/summary.json"), withDestinationPath: "../outside.json")
        #expect(throws: AtomicFile.WriteError(path: folder.path("out/summary.json"), reason: "a symbolic link, not a regular file; it is left as it is")) {
            _ = try batch.write(to: folder.out)
        }
        #expect(try folder.listing("") == ["out", "victim.txt"])
        #expect(folder.contents("victim.txt") == "precious\n")
    }
}
