import StreakCal
import Foundation

/// The copies of fetched calendars, in the user's cache folder (`$XDG_CACHE_HOME/streakcal/calendars`,
/// else `~/.cache/streakcal/calendars`), each with what the server said to revalidate it (its
/// `ETag` and `Last-Modified`), so that an unchanged calendar is not downloaded again (RFC 9110
/// §13.1: `If-None-Match`, `If-Modified-Since`).
///
/// An entry is named by a hash of its address and user; its metadata file starts with the address,
/// so that two addresses with one hash never take each other's copy. The folder is the user's
/// only (mode 0700, its files 0600, made so if it was not; another user's folder is refused): a
/// subscription's secret address gives its calendar to anyone who has it. Names are predictable,
/// so no link in the folder is ever followed (``PrivateFolder``).
struct CalendarCache {
    /// The folder the entries are in: the user's own, 0700, its files 0600, no link in it followed
    /// (``PrivateFolder``).
    let files: PrivateFolder
    /// The folder's path.
    var folder: String { files.path }

    /// What revalidates a copy.
    struct Validators: Equatable {
        var entityTag: String?
        var lastModified: String?

        /// The validators that can be sent back in a header line: a value with a control character
        /// (a NUL, a line end) is dropped, so that the next request is unconditional rather than refused.
        var usable: Validators {
            func sendable(_ value: String?) -> String? {
                value.flatMap { $0.unicodeScalars.contains(where: ServerText.isControl) ? nil : $0 }
            }
            return Validators(entityTag: sendable(entityTag), lastModified: sendable(lastModified))
        }
    }

    struct Entry {
        /// The name of the entry's files without their extension (a hash of ``key``).
        var stem: String
        /// The calendar's copy, a name in the folder.
        var calendar: String { stem + ".ics" }
        /// The address, then the validators, a line each; a name in the folder.
        var metadata: String { stem + ".meta" }
        /// `address` then the user, which the metadata's first line must equal.
        var key: String
    }

    /// The cache at `folder`, created if missing, made private if it is not; `nil` (none given) is
    /// an error naming `address`, which would have been fetched into it: the library writes no
    /// folder its caller did not name.
    init(folder: String?, for address: CalendarAddress) throws(CalendarReadError) {
        guard let folder else {
            throw CalendarReadError(path: address.url, code: .cache, reason: "no cache folder is given (DownloadOptions.cacheFolder) to keep the calendar in")
        }
        do throws(PrivateFolder.Refusal) {
            files = try PrivateFolder(folder)
        } catch {
            throw CalendarReadError(path: error.path, code: .cache, reason: "cannot keep the cache there: \(error.reason)")
        }
    }

    /// The entry for `address` fetched as `user`; `variant` tells apart copies of one address
    /// (a CalDAV server's answer for one time range from another's).
    func entry(for address: CalendarAddress, user: String?, variant: String = "") -> Entry {
        let key = address.url + "\n" + (user ?? "") + (variant.isEmpty ? "" : " " + variant)
        return Entry(stem: String(Self.hash(key), radix: 16), key: key)
    }

    /// The path of a name in the cache.
    func path(of name: String) -> String {
        files.path(of: name)
    }

    /// The validators of the entry's copy; `nil` when there is no copy, or it is another address's.
    func validators(of entry: Entry) -> Validators? {
        guard files.hasFile(named: entry.calendar), let text = files.text(named: entry.metadata) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, lines[0] + "\n" + lines[1] == entry.key else { return nil }
        return Validators(entityTag: lines[2].isEmpty ? nil : lines[2], lastModified: lines[3].isEmpty ? nil : lines[3])
    }

    /// Whether the entry has a copy (of its own address).
    func hasCopy(_ entry: Entry) -> Bool {
        validators(of: entry) != nil
    }

    /// Records the validators of the copy just put in place.
    func store(_ validators: Validators, for entry: Entry) throws(CalendarReadError) {
        let text = [entry.key, validators.entityTag ?? "", validators.lastModified ?? ""].joined(separator: "\n") + "\n"
        try write(text, named: entry.metadata)
    }

    /// Writes a file of the cache, atomically.
    func write(_ text: String, named name: String) throws(CalendarReadError) {
        do {
            try files.write(text, named: name)
        } catch {
            throw CalendarReadError(path: error.path, code: .cache, reason: error.reason)
        }
    }

    /// FNV-1a, 64 bits: a stable name for a key (Swift's `Hasher` changes every run).
    static func hash(_ key: String) -> UInt64 { StableHash.fnv1a(key) }
}
