import Foundation
import Testing

/// A report of a calendar without diagnostics, written with `--output`.
private let report = ["report", fixture("all-day-events.ics"), "--tz", "UTC", "--to", "2024-03-31"]

/// A temporary folder, removed (after unmounting anything mounted on it) when the test ends.
private final class Scratch {
    let root: URL
    private var mounted = false

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        if mounted { _ = try? run("/bin/umount", [root.path]) }
        try? FileManager.default.removeItem(at: root)
    }

    func path(_ name: String) -> String { root.appendingPathComponent(name).path }

    /// Mounts a tmpfs of `size` (such as `1M`) on the folder; the error of `mount` if it fails.
    func mountSmallDisk(size: String) throws -> String? {
        let result = try run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", root.path])
        mounted = result.status == 0
        return mounted ? nil : result.standardError
    }

    /// The folder's entries, sorted, hidden ones included.
    func listing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
    }

    func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    func write(_ text: String, to name: String, mode: Int? = nil) throws {
        try text.write(toFile: path(name), atomically: false, encoding: .utf8)
        if let mode { #expect(chmod(path(name), mode_t(mode)) == 0) }
    }

    /// `lstat` of an entry: its type and permission bits, owner and group.
    func status(_ name: String) throws -> stat {
        var information = stat()
        #expect(lstat(path(name), &information) == 0, "\(name)")
        return information
    }
}

@Suite("--output targets")
struct OutputFileTests {
    /// What `report` prints on standard output, which `--output` must write.
    static func expectedReport() throws -> String {
        let result = try streakcal(report)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("Streak report: all-day-events, 2024-03-01 to 2024-03-31"))
        return result.standardOutput
    }

    @Test("A symbolic link is written through (repro/output-replaces-device-or-symlink.sh): the link stays a link, its target gets the report")
    func symbolicLink() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path("sub"), withIntermediateDirectories: false)
        try scratch.write("target\n", to: "target.txt")
        // link.txt -> sub/hop.txt -> ../target.txt: relative links resolve from their own folder.
        try FileManager.default.createSymbolicLink(atPath: scratch.path("sub/hop.txt"), withDestinationPath: "../target.txt")
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.txt"), withDestinationPath: "sub/hop.txt")
        let result = try streakcal(report + ["--output", scratch.path("link.txt")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try scratch.text("target.txt") == Self.expectedReport())
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("link.txt")) == "sub/hop.txt")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("sub/hop.txt")) == "../target.txt")
        #expect(try scratch.listing() == ["link.txt", "sub", "target.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("sub")) == ["hop.txt"])
    }

    @Test("A dangling link's target is created; a loop of links is an error and nothing is written")
    func danglingAndLooping() throws {
        let scratch = try Scratch()
        try FileManager.default.createSymbolicLink(atPath: scratch.path("dangling.txt"), withDestinationPath: "new.txt")
        let created = try streakcal(report + ["--output", scratch.path("dangling.txt")])
        #expect(created.status == 0)
        #expect(try scratch.text("new.txt") == Self.expectedReport())
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("dangling.txt")) == "new.txt")

        try FileManager.default.createSymbolicLink(atPath: scratch.path("ping"), withDestinationPath: "pong")
        try FileManager.default.createSymbolicLink(atPath: scratch.path("pong"), withDestinationPath: "ping")
        let looped = try streakcal(report + ["--output", scratch.path("ping")])
        #expect(looped.status == 1)
        #expect(looped.standardError == "streakcal: error: cannot write \(scratch.path("ping")): Too many levels of symbolic links\n")
        #expect(try scratch.listing() == ["dangling.txt", "new.txt", "ping", "pong"])
    }

    @Test("Anything but a regular file is refused and left as it is", arguments: [
        ("fifo", "a named pipe (FIFO)"), ("device", "a character device"), ("folder", "a folder"),
    ])
    func special(kind: String, words: String) throws {
        let scratch = try Scratch()
        let path = scratch.path("target")
        switch kind {
        case "fifo":
            #expect(mkfifo(path, 0o644) == 0)
        case "device":
            // mknod needs root (CAP_MKNOD); as another user this one argument has nothing to test.
            guard geteuid() == 0 else { return }
            // A twin of /dev/null (its device numbers): what `--output /dev/null` as root replaced.
            var null = stat()
            #expect(stat("/dev/null", &null) == 0)
            #expect(mknod(path, S_IFCHR | 0o666, null.st_rdev) == 0)
        default:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        let before = try scratch.status("target")
        for option in ["--output", "-o"] {
            let result = try streakcal(report + [option, path])
            #expect(result.status == 1)
            #expect(result.standardError == "streakcal: error: cannot write \(path): \(words), not a regular file\n")
        }
        // Also through a link.
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link"), withDestinationPath: "target")
        let linked = try streakcal(report + ["--output", scratch.path("link")])
        #expect(linked.status == 1)
        #expect(linked.standardError.contains("\(words), not a regular file"))
        let after = try scratch.status("target")
        #expect(after.st_mode == before.st_mode)
        #expect(after.st_ino == before.st_ino)
        #expect(after.st_rdev == before.st_rdev)
        #expect(try scratch.listing() == ["link", "target"])
    }

    @Test("A file's permission bits are kept (repro: 0600 stayed 0600, not 0644)", arguments: [0o600, 0o640, 0o604, 0o755])
    func keepsMode(mode: Int) throws {
        let scratch = try Scratch()
        try scratch.write("secret\n", to: "private.txt", mode: mode)
        let result = try streakcal(report + ["--output", scratch.path("private.txt")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try scratch.text("private.txt") == Self.expectedReport())
        #expect(Int(try scratch.status("private.txt").st_mode & 0o7777) == mode)
    }

    @Test("As root: a file's owner and group are kept")
    func keepsOwner() throws {
        // Giving a file away needs root; as another user there is nothing to keep.
        guard geteuid() == 0 else { return }
        let scratch = try Scratch()
        try scratch.write("theirs\n", to: "theirs.txt", mode: 0o640)
        #expect(chown(scratch.path("theirs.txt"), 1234, 5678) == 0)
        let result = try streakcal(report + ["--output", scratch.path("theirs.txt")])
        #expect(result.status == 0, "\(result.standardError)")
        let status = try scratch.status("theirs.txt")
        #expect((status.st_uid, status.st_gid) == (1234, 5678))
        #expect(status.st_mode & 0o7777 == 0o640)
        #expect(try scratch.text("theirs.txt") == Self.expectedReport())
    }

    @Test("A new file gets 0666 less the umask, as creat gives", arguments: [("022", 0o644), ("027", 0o640), ("077", 0o600), ("000", 0o666)])
    func newFileMode(umask: String, mode: Int) throws {
        let scratch = try Scratch()
        // The umask is set in a shell that then becomes streakcal.
        let result = try run("/bin/sh", ["-c", "umask \(umask); exec \"$0\" \"$@\"", try streakcalPath()] + report + ["--output", scratch.path("new.txt")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Int(try scratch.status("new.txt").st_mode & 0o7777) == mode)
        #expect(try scratch.text("new.txt") == Self.expectedReport())
    }

    @Test("A full disk (repro/enospc-leaves-temp.sh): exit status 1, no temporary file, the old content intact; batch too")
    func fullDisk() throws {
        let scratch = try Scratch()
        // A 1 MB tmpfs needs root; in a container without the right to mount, say so and stop.
        if let refusal = try scratch.mountSmallDisk(size: "1M") {
            try Test.cancel("cannot mount a 1 MB tmpfs to fill: \(refusal)")
        }
        try scratch.write("old report\n", to: "r.svg", mode: 0o640)
        // About 2 MB of SVG: fourteen years of month grids.
        let long = ["report", fixture("all-day-events.ics"), "--tz", "UTC", "--from", "2010-01-01", "--to", "2024-03-31", "--format", "svg"]
        let result = try streakcal(long + ["--output", scratch.path("r.svg")])
        #expect(result.status == 1)
        #expect(result.standardError == "streakcal: error: cannot write \(scratch.path("r.svg")): No space left on device\n")
        #expect(try scratch.listing() == ["r.svg"])
        #expect(try scratch.text("r.svg") == "old report\n")
        #expect(try scratch.status("r.svg").st_mode & 0o7777 == 0o640)

        // batch writes its reports the same way: the big one fails alone, summary.json is written.
        let batch = try streakcal([
            "batch", fixture("all-day-events.ics"), "--out", scratch.path("out"), "--format", "svg", "--no-timings",
            "--tz", "UTC", "--from", "2010-01-01", "--to", "2024-03-31",
        ])
        // Its one calendar failed: nothing usable, exit status 2 (issue 49.1).
        #expect(batch.status == 2)
        #expect(batch.standardOutput.contains("cannot write \(scratch.path("out/all-day-events.svg")): No space left on device"))
        #expect(try batchOutputListing(scratch.path("out")) == ["summary.json"])
    }

    @Test("-o - and --output /dev/stdout write standard output")
    func standardOutput() throws {
        let expected = try Self.expectedReport()
        for target in ["-", "/dev/stdout"] {
            let result = try streakcal(report + ["--output", target])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput == expected, "\(target)")
        }
        let annotated = try streakcal(["annotate", fixture("all-day-events.ics"), "--tz", "UTC", "--to", "2024-03-31", "-o", "-"])
        #expect(annotated.standardOutput.hasPrefix("BEGIN:VCALENDAR\r\n"))
        let layout = try streakcal(["layout", "--month", "2024-02", "--format", "json", "-o", "-"])
        #expect(try jsonObject(layout.standardOutput)["width"] as? Int == 350)
    }
}
