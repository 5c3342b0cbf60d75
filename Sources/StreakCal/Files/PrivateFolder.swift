import Foundation

/// A folder that holds the user's private copies (the cache of fetched calendars): the user's own,
/// mode 0700, its files 0600, every name in it read and written through the folder's descriptor
/// without following a link.
///
/// The folder is made if missing (0700). One that exists is taken only when the user owns it; its
/// mode is then made 0700 if it let others in (a folder made by `mkdir -p`, a shared
/// `XDG_CACHE_HOME`). Names in it are predictable, so a link planted there before it was made
/// private is never followed: a write replaces the link itself (``OutputDirectory`` with a
/// private file mode), and a read refuses it.
///
/// ```swift
/// let cache = try PrivateFolder("/home/ada/.cache/streakcal/calendars")
/// try cache.write(Array("BEGIN:VCALENDAR\r\n".utf8), named: "team.ics")  // 0600
/// ```
package final class PrivateFolder: Sendable {
    /// The folder as given, for messages.
    package let path: String
    private let directory: OutputDirectory

    static let folderMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// Why a folder cannot hold private copies.
    package struct Refusal: Error {
        package var path: String
        package var reason: String
    }

    /// The folder at `path`, made (with the folders above it, each 0700) if missing.
    package init(_ path: String) throws(Refusal) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: Self.folderMode])
        } catch {
            throw Refusal(path: path, reason: "cannot make the folder (\(error.localizedDescription))")
        }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Refusal(path: path, reason: String(cString: strerror(errno))) }
        if let reason = Self.makePrivate(descriptor) {
            close(descriptor)
            throw Refusal(path: path, reason: reason)
        }
        self.path = path
        directory = OutputDirectory(descriptor: descriptor, path: path, privateFileMode: Self.fileMode)
    }

    private init(path: String, directory: OutputDirectory) {
        self.path = path
        self.directory = directory
    }

    /// Checks the folder open at `descriptor` is the user's, and makes it 0700; why not, if it cannot be.
    private static func makePrivate(_ descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return String(cString: strerror(errno)) }
        guard status.st_uid == geteuid() else {
            return "it belongs to another user (uid \(status.st_uid)); private copies are kept only in a folder of your own"
        }
        if status.st_mode & 0o7777 != folderMode, fchmod(descriptor, folderMode) != 0 {
            return "it is open to other users (mode \(String(status.st_mode & 0o7777, radix: 8))) and cannot be made 0700 (\(String(cString: strerror(errno))))"
        }
        return nil
    }

    /// The path of `name` in the folder.
    package func path(of name: String) -> String {
        directory.path(of: name)
    }

    /// A folder in this one (one name, no `/`), made if missing; a link there is refused.
    package func subfolder(named name: String) throws(Refusal) -> PrivateFolder {
        if mkdirat(directory.descriptor, name, Self.folderMode) != 0, errno != EEXIST {
            throw Refusal(path: path(of: name), reason: "cannot make the folder (\(String(cString: strerror(errno))))")
        }
        let descriptor = openat(directory.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP || errno == ENOTDIR ? "not a folder (a link or a file is there)" : String(cString: strerror(errno))
            throw Refusal(path: path(of: name), reason: reason)
        }
        if let reason = Self.makePrivate(descriptor) {
            close(descriptor)
            throw Refusal(path: path(of: name), reason: reason)
        }
        return PrivateFolder(path: path(of: name), directory: OutputDirectory(descriptor: descriptor, path: path(of: name), privateFileMode: Self.fileMode))
    }

    /// Writes `bytes` as the file `name`, atomically, mode 0600.
    package func write(_ bytes: [UInt8], named name: String) throws(AtomicFile.WriteError) {
        try directory.write(bytes, named: name)
    }

    /// Writes UTF-8 text as the file `name`, atomically, mode 0600.
    package func write(_ text: String, named name: String) throws(AtomicFile.WriteError) {
        try directory.write(text, named: name)
    }

    /// A file written a piece at a time that takes the name `name` when committed.
    package func stream(named name: String) throws(AtomicFile.WriteError) -> OutputDirectory.FileStream {
        try OutputDirectory.FileStream(in: directory, named: name)
    }

    /// Whether `name` is a regular file (not a link, whatever it leads to).
    package func hasFile(named name: String) -> Bool {
        var status = stat()
        return fstatat(directory.descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The bytes of the regular file `name`; `nil` when it is missing, a link or unreadable.
    package func read(named name: String) -> [UInt8]? {
        let descriptor = openat(directory.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let file = OpenFile(descriptor: descriptor)
        var status = stat()
        guard fstat(file.descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(file.descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// The UTF-8 text of the regular file `name`, as ``read(named:)``.
    package func text(named name: String) -> String? {
        read(named: name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// When the regular file `name` was last modified, in nanoseconds since 1970; `nil` without one.
    package func modificationTime(named name: String) -> Int64? {
        var status = stat()
        guard fstatat(directory.descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }

    /// Removes the name `name` (a file or a link; never what a link leads to).
    package func remove(named name: String) {
        unlinkat(directory.descriptor, name, 0)
    }
}
