import Foundation

/// A CalDAV collection's resources kept in the cache between runs, with the sync token of the state
/// they show (RFC 6578), so that the next run asks the server only for what changed since.
///
/// Beside the cache's entry for the collection: a folder (`NAME.items/`) with a file per resource,
/// and an index (`NAME.sync`): the entry's key, the token, then a line per resource (its URL and
/// its file). The index is written last, atomically: a run cut short leaves the old token, and the
/// server sends those changes again. A copy whose index or files do not agree starts over.
struct CalDAVCopy {
    private let cache: CalendarCache
    /// The folder of resources: a folder of the cache, made when first written.
    private let itemsFolder: String
    /// The index's name in the cache.
    private let indexFile: String
    private let key: String
    /// The token of the state the copy shows; `nil` for none (a first run, or starting over).
    private(set) var token: String?
    /// The file of each resource, by URL.
    private var files: [String: String] = [:]

    init(cache: CalendarCache, collection: CalDAVClient.Collection, user: String?) throws(CalendarReadError) {
        let address = try CalendarAddress(collection.url)
        let entry = cache.entry(for: address, user: user, variant: "sync")
        self.cache = cache
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
            throw CalendarReadError(path: error.path, reason: "cannot keep the cache there: \(error.reason)")
        }
    }

    /// Reads the index; anything amiss leaves the copy empty, to be filled from the start.
    private mutating func load() {
        guard let text = cache.files.text(named: indexFile), let items = try? items() else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A token an earlier version kept although it cannot be sent back starts over.
        guard lines.count >= 2, lines[0] == key, !lines[1].isEmpty, CalDAVClient.isUsableToken(lines[1]) else { return }
        var files: [String: String] = [:]
        for line in lines.dropFirst(2) where !line.isEmpty {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard fields.count == 2, items.hasFile(named: fields[1]) else { return }
            files[fields[0]] = fields[1]
        }
        (self.token, self.files) = (lines[1], files)
    }

    /// Writes the changes into the copy: changed resources written, removed ones deleted (all of
    /// them when the server started over), then the index with the new token.
    mutating func apply(_ changes: CalDAVClient.Changes) throws(CalendarReadError) {
        let items = try items()
        if changes.isComplete {
            for file in files.values { items.remove(named: file) }
            files = [:]
        }
        for resource in changes.changed {
            let file = String(CalendarCache.hash(resource.href), radix: 16) + ".ics"
            do { try items.write(resource.calendarData, named: file) } catch { throw CalendarReadError(path: error.path, reason: error.reason) }
            files[resource.href] = file
        }
        for href in changes.removed {
            if let file = files.removeValue(forKey: href) { items.remove(named: file) }
        }
        token = changes.token
        // Without a token (one the server gave that cannot be kept) the next run starts over.
        let lines = [key, changes.token ?? ""] + files.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }
        try cache.write(lines.joined(separator: "\n") + "\n", named: indexFile)
    }

    /// The resources the copy holds, in URL order.
    func resources() throws(CalendarReadError) -> [CalDAVClient.Resource] {
        let items = try items()
        var resources: [CalDAVClient.Resource] = []
        for (href, file) in files.sorted(by: { $0.key < $1.key }) {
            guard let text = items.text(named: file) else {
                throw CalendarReadError(path: items.path(of: file), reason: "the cached copy of \(href) cannot be read")
            }
            resources.append(CalDAVClient.Resource(href: href, calendarData: text))
        }
        return resources
    }
}
