import Foundation
@testable import StreakCal
import Testing

/// A fresh folder under the temporary directory, removed after `body`.
private func inTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try body(folder)
}

@Suite("Atomic files: names, folders, links, devices")
struct AtomicFileTargetTests {
    @Test("Empty text makes an empty file")
    func empty() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            try AtomicFile.write("", to: folder + "/empty.txt")
            // (Not Data(contentsOf:): on Linux it leaks its buffer when the file is empty.)
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/empty.txt")
            #expect(attributes[.type] as? FileAttributeType == .typeRegular)
            #expect(attributes[.size] as? Int == 0)
        }
    }

    @Test("A 255-byte name still gets a temporary file beside it (its name is cut to fit)")
    func longName() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            let name = String(repeating: "ä", count: 125) + "x.txt"  // 250 + 5 bytes
            #expect(name.utf8.count == 255)
            try AtomicFile.write("long\n", to: folder + "/" + name)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [name])
        }
    }

    @Test("A folder that does not exist: the system's reason, and nothing is made")
    func missingFolder() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            #expect(throws: AtomicFile.WriteError(path: folder + "/gone/report.txt", reason: "No such file or directory")) {
                try AtomicFile.write("x", to: folder + "/gone/report.txt")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
        }
    }

    @Test("A dangling link into a missing folder says where the link leads")
    func danglingIntoNowhere() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "gone/target")
            #expect(throws: AtomicFile.WriteError(
                path: folder + "/link", reason: "No such file or directory (writing \(folder)/gone/target, where the link leads)")) {
                try AtomicFile.write("x", to: folder + "/link")
            }
        }
    }

    @Test("The error reads as one line: cannot write PATH: REASON")
    func description() {
        #expect(AtomicFile.WriteError(path: "/dev/null", reason: "a character device, not a regular file").description
            == "cannot write /dev/null: a character device, not a regular file")
    }

    @Test("/dev/null itself is refused, and stays a device")
    func deviceNull() throws {
        #expect(throws: AtomicFile.WriteError(path: "/dev/null", reason: "a character device, not a regular file")) {
            try AtomicFile.write("x", to: "/dev/null")
        }
        var status = stat()
        #expect(stat("/dev/null", &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFCHR)
    }
}

@Suite("Atomic writes")
struct AtomicReplacementTests {
    @Test("Replaces the whole file and leaves no temporary file; a failed write changes nothing")
    func write() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.txt").path
        try AtomicFile.write("first version, longer", to: path)
        try AtomicFile.write("second", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"])
        #expect(throws: AtomicFile.WriteError.self) {
            try AtomicFile.write("x", to: directory.appendingPathComponent("missing/out.txt").path)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"])
    }
}

@Suite("Atomic files: temporary names")
struct AtomicFileTemporaryNameTests {
    @Test("A path's folder is what comes before its last / byte", arguments: [
        ("/a/b.json", "/a"), ("b.json", "."), ("/b.json", "/"), ("a/é/x.json", "a/é"), ("a/\u{301}x", "a"), ("a//b", "a/"),
    ])
    func folder(path: String, expected: String) {
        #expect(AtomicFile.folder(of: path) == expected)
    }

    @Test("The temporary name is hidden, beside the target, and unique")
    func shortName() throws {
        let first = AtomicFile.temporaryPath(for: "/out/run.json")
        let second = AtomicFile.temporaryPath(for: "/out/run.json")
        #expect(first != second)
        let name = try #require(first.split(separator: "/").last)
        #expect(first.hasPrefix("/out/.run.json."))
        #expect(name.hasSuffix(".tmp"))
        #expect(name.utf8.count == ".run.json.".utf8.count + 36 + ".tmp".utf8.count)
        #expect(AtomicFile.temporaryPath(for: "run.json").hasPrefix("./.run.json."))
        #expect(AtomicFile.temporaryPath(for: "/run.json").hasPrefix("/.run.json."))
    }

    @Test("Temporary names are UUIDs that count up from random bits, carrying into the high half")
    func temporaryNames() throws {
        let names = TemporaryNames(high: 0x0123_4567_89AB_CDEF, low: .max - 1)
        #expect(names.next() == "01234567-89AB-CDEF-FFFF-FFFFFFFFFFFE")
        #expect(names.next() == "01234567-89AB-CDEF-FFFF-FFFFFFFFFFFF")
        #expect(names.next() == "01234567-89AB-CDF0-0000-000000000000")
        let random = TemporaryNames()
        let drawn = (0..<10_000).map { _ in random.next() }
        #expect(Set(drawn).count == drawn.count)
        #expect(drawn.allSatisfy { UUID(uuidString: $0)?.uuidString == $0 })
        #expect(TemporaryNames().next() != TemporaryNames().next())  // each draws its own bits
    }

    @Test("A long name is cut to 255 bytes at a character's edge")
    func longName() throws {
        for stem in [String(repeating: "a", count: 300), String(repeating: "é", count: 150), String(repeating: "😀", count: 80)] {
            let path = AtomicFile.temporaryPath(for: "/out/" + stem)
            let name = String(try #require(path.split(separator: "/").last))
            #expect(name.utf8.count <= 255)
            #expect(name.utf8.count > 255 - 4)
            #expect(name.hasSuffix(".tmp"))
            let kept = name.dropFirst().prefix { $0 != "." }
            #expect(stem.hasPrefix(kept))
        }
    }
}
