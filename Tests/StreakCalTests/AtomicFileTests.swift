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

    @Test("Bytes are written as they are, also bytes that are not UTF-8, over an older file")
    func bytes() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            let path = folder + "/summary.json"
            try AtomicFile.write("an older, longer file", to: path)
            let bytes: [UInt8] = [0x7B, 0x0A, 0xFF, 0x00, 0xC3, 0x0A]
            try AtomicFile.write(bytes, to: path)
            #expect(FileManager.default.contents(atPath: path).map(Array.init) == bytes)
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

#if os(Linux) && (arch(x86_64) || arch(arm64))
/// The names in `folder`, sorted.
private func entries(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
}

/// `path`'s permission bits.
private func mode(_ path: String) -> mode_t {
    var status = stat()
    return stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
}

@Suite("Atomic files: a new file has no name until it is whole (O_TMPFILE)")
struct UnnamedFileTests {
    /// Runs `body` with `bytes` as a buffer.
    private func withBytes<T>(_ text: String, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try Array(text.utf8).withUnsafeBytes(body)
    }

    @Test("Written and synced with no name in the folder; named in one step, with 0666 less the umask")
    func named() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            let file = try #require(withBytes("whole\n") { AtomicFile.UnnamedFile(writing: $0, in: folder) })
            defer { file.close() }
            #expect(try entries(folder) == [])
            #expect(file.name(folder + "/report.txt") == 0)
            #expect(try entries(folder) == ["report.txt"])
            #expect(try String(contentsOfFile: folder + "/report.txt", encoding: .utf8) == "whole\n")
            let mask = umask(0)
            umask(mask)
            #expect(mode(folder + "/report.txt") == 0o666 & ~mask)
        }
    }

    @Test("Closed without a name, it is gone")
    func closedUnnamed() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            let file = try #require(withBytes("dropped") { AtomicFile.UnnamedFile(writing: $0, in: folder) })
            file.close()
            #expect(try entries(folder) == [])
        }
    }

    @Test("A taken name is refused (EEXIST) and left as it was; replace keeps the old file's mode")
    func taken() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            let path = folder + "/report.txt"
            try AtomicFile.write("old", to: path)
            #expect(chmod(path, 0o600) == 0)
            let file = try #require(withBytes("new, longer") { AtomicFile.UnnamedFile(writing: $0, in: folder) })
            defer { file.close() }
            #expect(file.name(path) == EEXIST)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
            let (target, existing) = try AtomicFile.resolve(path)
            #expect(target == path)
            #expect(file.replace(target, keeping: existing))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "new, longer")
            #expect(mode(path) == 0o600)
            #expect(try entries(folder) == ["report.txt"])
        }
    }

    /// A fresh folder in `/dev/shm` when that is another file system than the temporary folder's,
    /// removed after `body`; cancels the test otherwise.
    private func inOtherFileSystem(than folder: String, _ body: (String) throws -> Void) throws {
        var here = stat()
        var there = stat()
        guard stat(folder, &here) == 0, stat("/dev/shm", &there) == 0, here.st_dev != there.st_dev else {
            try Test.cancel("/dev/shm is missing or on the same file system as \(folder)")
        }
        let other = "/dev/shm/atomic-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: other) }
        try body(other)
    }

    @Test("A target on another file system cannot take it: false, and nothing is left in either folder")
    func otherFileSystem() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            try inOtherFileSystem(than: folder) { other in
                try AtomicFile.write("old", to: other + "/report.txt")
                let file = try #require(withBytes("new") { AtomicFile.UnnamedFile(writing: $0, in: folder) })
                defer { file.close() }
                let (target, existing) = try AtomicFile.resolve(other + "/report.txt")
                #expect(!file.replace(target, keeping: existing))
                #expect(try entries(folder) == [])
                #expect(try entries(other) == ["report.txt"])
                #expect(try String(contentsOfFile: other + "/report.txt", encoding: .utf8) == "old")
            }
        }
    }

    @Test("A link to another file system is written through: the target has the bytes, the link stays")
    func linkToOtherFileSystem() throws {
        try inTemporaryFolder { (folder: String) throws(any Error) in
            try inOtherFileSystem(than: folder) { other in
                try AtomicFile.write("old", to: other + "/report.txt")
                try FileManager.default.createSymbolicLink(atPath: folder + "/link.txt", withDestinationPath: other + "/report.txt")
                try AtomicFile.write("new", to: folder + "/link.txt")
                #expect(try String(contentsOfFile: other + "/report.txt", encoding: .utf8) == "new")
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.txt") == other + "/report.txt")
                #expect(try entries(folder) == ["link.txt"])
                #expect(try entries(other) == ["report.txt"])
            }
        }
    }
}
#endif
