import Foundation

/// A CalDAV collection's resources kept in the cache between runs, with the sync token of the state
/// they show (RFC 6578), so that the next run asks the server only for what changed since.
///
/// Beside the cache's entry for the collection: a folder (`NAME.items/`) with a file per resource,
/// and an index (`NAME.sync`): the entry's key, the token, then a line per resource (its URL and
/// its file). The index is written last, atomically: a run cut short leaves the old token, and the
/// server sends those changes again. A copy whose index or files do not agree starts over.
struct CalDAVCopy {
    private let itemsFolder: String
    private let indexFile: String
    private let key: String
    /// The token of the state the copy shows; `nil` for none (a first run, or starting over).
    private(set) var token: String?
    /// The file of each resource, by URL.
    private var files: [String: String] = [:]

    init(cache: CalendarCache, collection: CalDAVClient.Collection, user: String?) throws(CalendarReadError) {
        let address = try CalendarAddress(collection.url)
        let entry = cache.entry(for: address, user: user, variant: "sync")
        let base = String(entry.calendar.dropLast(".ics".count))
        itemsFolder = base + ".items"
        indexFile = base + ".sync"
        key = entry.key.replacingOccurrences(of: "\n", with: "\t")
        load()
    }

    /// Reads the index; anything amiss leaves the copy empty, to be filled from the start.
    private mutating func load() {
        guard let text = try? String(contentsOfFile: indexFile, encoding: .utf8) else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A token an earlier version kept although it cannot be sent back starts over.
        guard lines.count >= 2, lines[0] == key, !lines[1].isEmpty, CalDAVClient.isUsableToken(lines[1]) else { return }
        var files: [String: String] = [:]
        for line in lines.dropFirst(2) where !line.isEmpty {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard fields.count == 2, FileManager.default.fileExists(atPath: itemsFolder + "/" + fields[1]) else { return }
            files[fields[0]] = fields[1]
        }
        (self.token, self.files) = (lines[1], files)
    }

    /// Writes the changes into the copy: changed resources written, removed ones deleted (all of
    /// them when the server started over), then the index with the new token.
    mutating func apply(_ changes: CalDAVClient.Changes) throws(CalendarReadError) {
        do {
            try FileManager.default.createDirectory(atPath: itemsFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CalendarReadError(path: itemsFolder, reason: "cannot make the cache folder (\(error.localizedDescription))")
        }
        if changes.isComplete {
            for file in files.values { unlink(itemsFolder + "/" + file) }
            files = [:]
        }
        for resource in changes.changed {
            let file = String(CalendarCache.hash(resource.href), radix: 16) + ".ics"
            try write(resource.calendarData, to: itemsFolder + "/" + file)
            files[resource.href] = file
        }
        for href in changes.removed {
            if let file = files.removeValue(forKey: href) { unlink(itemsFolder + "/" + file) }
        }
        token = changes.token
        // Without a token (one the server gave that cannot be kept) the next run starts over.
        let lines = [key, changes.token ?? ""] + files.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }
        try write(lines.joined(separator: "\n") + "\n", to: indexFile)
    }

    /// The resources the copy holds, in URL order.
    func resources() throws(CalendarReadError) -> [CalDAVClient.Resource] {
        var resources: [CalDAVClient.Resource] = []
        for (href, file) in files.sorted(by: { $0.key < $1.key }) {
            guard let text = try? String(contentsOfFile: itemsFolder + "/" + file, encoding: .utf8) else {
                throw CalendarReadError(path: itemsFolder + "/" + file, reason: "the cached copy of \(href) cannot be read")
            }
            resources.append(CalDAVClient.Resource(href: href, calendarData: text))
        }
        return resources
    }

    private func write(_ text: String, to path: String) throws(CalendarReadError) {
        do { try AtomicFile.write(text, to: path) } catch { throw CalendarReadError(path: path, reason: error.reason) }
    }
}
