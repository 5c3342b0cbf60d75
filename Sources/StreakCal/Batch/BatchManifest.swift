import Foundation
import ICalendar
import StreakExport
import Streaks

/// What a batch has done so far, kept in its output folder as it goes (issue 49.2): one JSON line
/// per calendar done, with the key of what it was made from (a hash of the calendar's bytes and of
/// the settings it was scored with) and its row of the summary. `--resume` takes a calendar's row
/// from here, without reading it again, when its key is the same and its report is in the folder;
/// a run without `--resume` starts the manifest over.
///
/// Lines are appended one `write` at a time under the ledger's lock; a run killed mid-line leaves
/// a last line that does not parse, which reading passes over.
struct BatchManifest {
    /// The manifest's name in the output folder: hidden, so that it is never listed as a stale report.
    static let fileName = ".streakcal-batch.jsonl"

    /// One calendar done.
    struct Entry: Decodable, Sendable {
        /// ``BatchManifest/key(of:fingerprint:)`` of the input it was made from.
        var key: String
        var result: BatchFileResult
    }

    /// The entries of an earlier run, by report name (``BatchFileResult/output``), the last for a
    /// name winning; empty when there is no manifest or it cannot be read.
    static func entries(in folder: OutputDirectory) -> [String: Entry] {
        let descriptor = openat(folder.descriptor, fileName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return [:] }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var information = stat()
        guard fstat(descriptor, &information) == 0, information.st_mode & S_IFMT == S_IFREG,
              let data = try? handle.readToEnd()
        else { return [:] }
        let decoder = JSONDecoder()
        var entries: [String: Entry] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let entry = try? decoder.decode(Entry.self, from: line), let output = entry.result.output else { continue }
            entries[output] = entry
        }
        return entries
    }

    /// What an input's report depends on, as sixteen hexadecimal digits: its bytes (every source
    /// of it, in order) and `fingerprint` (the settings). `nil` when it cannot be read now: such an
    /// input is always done again.
    static func key(of input: BatchInput, fingerprint: String) -> String? {
        var hash = StableHash.fnv1a(fingerprint)
        switch input.content {
        case .file(let path):
            guard let hashed = hashFile(path, from: hash) else { return nil }
            hash = hashed
        case .sources(let sources):
            for source in sources {
                switch source.content {
                case .bytes(let bytes): hash = bytes.withUnsafeBytes { StableHash.fnv1a($0, from: hash) }
                case .file(let path):
                    guard let hashed = hashFile(path, from: hash) else { return nil }
                    hash = hashed
                case .standardInput, .unreadable: return nil
                }
                hash = StableHash.fnv1a(source.name.utf8, from: hash)
            }
        case .unreadable: return nil
        }
        return StableHash.hexadecimal(hash)
    }

    /// A value's stored properties as text that is the same in every run: what `String(reflecting:)`
    /// shows, but with the members of sets and dictionaries sorted (their order changes with each
    /// run's hash seed) and objects shown by their type alone (a cache inside one fills as the
    /// batch goes, and its address changes every run). A zone is its name: its tables are the
    /// database's for that name, thousands of numbers that would say nothing more.
    static func stableDescription(of value: Any) -> String {
        if let zone = value as? TimeZoneRules { return "TimeZoneRules(\(zone.identifier))" }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .class?: return String(describing: mirror.subjectType)
        case .set?, .dictionary?:
            return "[" + mirror.children.map { stableDescription(of: $0.value) }.sorted().joined(separator: ", ") + "]"
        case .optional?: return mirror.children.first.map { stableDescription(of: $0.value) } ?? "nil"
        case nil: return String(reflecting: value)
        default:
            guard !mirror.children.isEmpty else { return String(reflecting: value) }
            let members = mirror.children.map { child in (child.label.map { $0 + ": " } ?? "") + stableDescription(of: child.value) }
            return String(describing: mirror.subjectType) + "(" + members.joined(separator: ", ") + ")"
        }
    }

    /// A regular file's bytes hashed on from `seed`, read 64 KiB at a time; `nil` for
    /// anything else or a read error.
    private static func hashFile(_ path: String, from seed: UInt64) -> UInt64? {
        // Looked at before it is opened: opening a named pipe, even without waiting, would be its
        // reader, and the writer would lose what it wrote when this one closed it.
        var status = stat()
        guard FileName.withSystemRepresentation(path, { stat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let descriptor = FileName.withSystemRepresentation(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var information = stat()
        guard fstat(descriptor, &information) == 0, information.st_mode & S_IFMT == S_IFREG else { return nil }
        var hash = seed
        // Not zeroed first: 64 KiB a read, most calendars of a batch in one.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 { return nil }
            if count == 0 { return hash }
            hash = StableHash.fnv1a(UnsafeRawBufferPointer(rebasing: buffer[..<count]), from: hash)
        }
    }

    /// Replaces the manifest with `entries`, atomically (a manifest that cannot be written is
    /// left as it was: a later `--resume` then reads more lines than it needs, no wrong one).
    static func rewrite(_ entries: [Entry], in folder: OutputDirectory) {
        var bytes: [UInt8] = []
        for entry in entries {
            guard let line = line(entry) else { continue }
            bytes += line
        }
        try? folder.write(bytes, named: fileName)
    }

    /// An entry as one line of JSON, `\n`-ended: `{"key":…,"result":…}`, the result as
    /// `summary.json` writes it (``BatchSummary/jsonEntry(of:layout:)``, compact, `habits` always
    /// there), which `Entry`'s `Decodable` reads back (`JSONEncoder` cost a tenth of a small
    /// calendar's time).
    static func line(_ entry: Entry) -> [UInt8]? {
        var json = JSONWriter(layout: .compact)
        json.open("{")
        json.key("key", indent: 0, first: true)
        json.string(entry.key)
        json.key("result", indent: 0)
        json.bytes += BatchSummary.jsonEntry(of: entry.result, layout: .compact)
        json.close("}", indent: 0, empty: false)
        return json.bytes + [UInt8(ascii: "\n")]
    }

    /// The manifest being written: opened (through the folder's descriptor, never following a
    /// link) and started over, or kept and appended to when resuming.
    final class Writer: Sendable {
        private let descriptor: Int32

        init?(in folder: OutputDirectory, keeping: Bool) {
            let flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC | (keeping ? 0 : O_TRUNC)
            let descriptor = openat(folder.descriptor, BatchManifest.fileName, flags, 0o644)
            guard descriptor >= 0 else { return nil }
            var information = stat()
            guard fstat(descriptor, &information) == 0, information.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        /// Appends one entry as one line, in one `write` (a line is short: one calendar's figures).
        func append(_ entry: Entry) {
            guard let line = BatchManifest.line(entry) else { return }
            _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }
}
