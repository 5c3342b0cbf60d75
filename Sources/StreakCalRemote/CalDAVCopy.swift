import StreakCal
import Foundation
import ICalendar

/// A CalDAV collection's resources kept in the cache, a file each, read as the files of a vdir
/// are: each resource is an input of its own (named by its address, its lines its own), and the
/// collection is one calendar (``/ICalendar/CalendarSource/Collection``). The same text gives the same
/// sessions and diagnostics whether it came from a file, a folder or a server.
///
/// A copy is either the whole collection kept in sync (``Kind/synced``, with the server's sync
/// token, RFC 6578: the next run asks only for what changed), or the answer to a query for one
/// window (``Kind/window(_:)``). Beside the cache's entry for it: a folder (`NAME.items/`) with a
/// file per resource, and an index (`NAME.sync`): a format line, the entry's key, the token, the
/// collection's name, then a line per resource (its URL and its file). The index is written
/// last, atomically: a run cut short leaves the old index, and the server sends those changes
/// again. A copy whose index or files do not agree starts over. How new a copy is, is its
/// index's modification time.
struct CalDAVCopy {
    /// What a copy holds.
    enum Kind {
        /// The whole collection, kept in sync.
        case synced
        /// The events of a window (the whole history when `nil`: a server that does not sync).
        case window(CalDAVTimeRange?)

        var variant: String {
            switch self {
            case .synced: "sync"
            case .window(let range): "caldav " + (range?.key ?? "/")
            }
        }
    }

    private static let format = "streakcal caldav copy 2"

    private let cache: CalendarCache
    private let collection: CalDAVClient.Collection
    /// The folder of resources: a folder of the cache, made when first written.
    private let itemsFolder: String
    /// The index's name in the cache.
    private let indexFile: String
    private let key: String
    /// Whether the index was read whole (the copy exists).
    private(set) var exists = false
    /// The token of the state the copy shows; `nil` for none (a first run, or starting over).
    private(set) var token: String?
    /// The collection's name when the copy was made.
    private(set) var name: String?
    /// The file of each resource, by URL.
    private var files: [String: String] = [:]

    init(cache: CalendarCache, collection: CalDAVClient.Collection, user: String?, kind: Kind) throws(CalendarReadError) {
        let entry = cache.entry(for: try CalendarAddress(collection.url), user: user, variant: kind.variant)
        self.cache = cache
        self.collection = collection
        itemsFolder = entry.stem + ".items"
        indexFile = entry.stem + ".sync"
        key = entry.key.replacingOccurrences(of: "\n", with: "\t")
        load()
    }

    /// The folder of resources.
    private func items() throws(CalendarReadError) -> PrivateFolder {
        do throws(PrivateFolder.Refusal) {
            return try cache.files.subfolder(named: itemsFolder)
        } catch {
            throw CalendarReadError(path: error.path, code: .cache, reason: "cannot keep the cache there: \(error.reason)")
        }
    }

    /// Reads the index; anything amiss leaves the copy empty, to be filled from the start.
    private mutating func load() {
        guard let text = cache.files.text(named: indexFile) else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, lines[0] == Self.format, lines[1] == key, let items = try? items() else { return }
        // A token an earlier version kept although it cannot be sent back starts over.
        let token = lines[2].isEmpty ? nil : lines[2]
        if let token, !ServerText.isUsableToken(token) { return }
        var files: [String: String] = [:]
        for line in lines.dropFirst(4) where !line.isEmpty {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard fields.count == 2, items.hasFile(named: fields[1]) else { return }
            files[fields[0]] = fields[1]
        }
        (self.exists, self.token, self.name, self.files) = (true, token, lines[3].isEmpty ? nil : lines[3], files)
    }

    /// Writes the changes into the copy: changed resources written, removed ones deleted (all of
    /// them when the server started over), then the index with the new token and the name.
    mutating func apply(_ changes: CalDAVClient.Changes) throws(CalendarReadError) {
        let items = try items()
        if changes.isComplete {
            for file in files.values { items.remove(named: file) }
            files = [:]
        }
        for resource in changes.changed {
            let file = String(CalendarCache.hash(resource.href), radix: 16) + ".ics"
            do { try items.write(resource.calendarData, named: file) } catch { throw CalendarReadError(path: error.path, code: .cache, reason: error.reason) }
            files[resource.href] = file
        }
        for href in changes.removed {
            if let file = files.removeValue(forKey: href) { items.remove(named: file) }
        }
        (exists, token, name) = (true, changes.token, collection.name)
        // Without a token (a window's copy, or a token that cannot be kept) the next sync starts over.
        let header = [Self.format, key, changes.token ?? "", Self.oneLine(collection.name ?? "")]
        let lines = header + files.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }
        try cache.write(lines.joined(separator: "\n") + "\n", named: indexFile)
    }

    /// The resources as inputs, in URL order: each named by its address, all of one collection.
    func sources() throws(CalendarReadError) -> [CalendarSource] {
        let items = try items()
        let collection = CalendarSource.Collection(location: self.collection.url, name: name ?? self.collection.name)
        return files.sorted { $0.key < $1.key }.map { href, file in
            CalendarSource(name: href, content: .file(path: items.path(of: file)), collection: collection)
        }
    }

    /// When the copy was last written (its index's modification time, in nanoseconds since 1970);
    /// `nil` when there is none.
    var modified: Int64? {
        guard exists else { return nil }
        return cache.files.modificationTime(named: indexFile)
    }

    /// A name on one line: line ends become spaces.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

/// The calendars of a CalDAV account, kept in the cache when it is read, so that `--offline` reads
/// the account as the last online run did (`NAME.account`: a format line, the key, then a line per
/// calendar: its URL and its name).
struct CalDAVAccountList {
    private static let format = "streakcal caldav account 1"

    private let cache: CalendarCache
    private let file: String
    private let key: String

    init(cache: CalendarCache, address: CalendarAddress, user: String?) {
        let entry = cache.entry(for: address, user: user, variant: "account")
        self.cache = cache
        file = entry.stem + ".account"
        key = entry.key.replacingOccurrences(of: "\n", with: "\t")
    }

    /// The calendars the account had when it was last read; `nil` when it was never read as an account.
    var collections: [CalDAVClient.Collection]? {
        guard let text = cache.files.text(named: file) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0] == Self.format, lines[1] == key else { return nil }
        return lines.dropFirst(2).filter { !$0.isEmpty }.map { line in
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            return CalDAVClient.Collection(url: fields[0], name: fields.count > 1 && !fields[1].isEmpty ? fields[1] : nil)
        }
    }

    func store(_ collections: [CalDAVClient.Collection]) throws(CalendarReadError) {
        let lines = [Self.format, key] + collections.map { "\($0.url)\t" + String(($0.name ?? "").map { $0.isNewline || $0 == "\t" ? " " : $0 }) }
        try cache.write(lines.joined(separator: "\n") + "\n", named: file)
    }
}
