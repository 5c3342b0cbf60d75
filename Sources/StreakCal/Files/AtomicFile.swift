public import Foundation

/// Writes files so that a reader sees the old content or the new, never a half-written file.
///
/// The bytes go to a new file with no name in the target's folder (Linux's `O_TMPFILE`, a
/// `write(2)` loop, `fsync`), which is then given the path (`linkat`): a file that did not exist
/// appears whole, in one change to the folder, and a crash leaves nothing behind. Where the path is
/// taken, or where the file system has no `O_TMPFILE` (and on other systems), the bytes go to a new
/// temporary file beside the target (`open` with `O_CREAT|O_EXCL`), which is then renamed over the
/// target. What is at the path decides the target:
/// - nothing: a new file, with the mode `creat` would give it (`0666` less the umask);
/// - a regular file: replaced, keeping its permission bits (and, where the process may set them,
///   such as when running as root, its owner and group);
/// - a symbolic link: written through, at the file the link finally leads to (created if the
///   link dangles); the link stays a link. A loop of links is an error;
/// - anything else (a folder, a device such as `/dev/null`, a named pipe, a socket): refused,
///   and left as it is.
///
/// Any failure — a full disk, an I/O error, a rename that fails — removes the temporary file and
/// leaves the target as it was. (A failure on the way with no name is tried again the other way,
/// which reports it if it is real: a symbolic link may lead to another file system.)
///
/// ```swift
/// do {
///     try AtomicFile.write("date,points,sessions,status\r\n", to: "/dev/null")
/// } catch {
///     print(error)
///     // Prints "cannot write /dev/null: a character device, not a regular file"
/// }
/// ```
public enum AtomicFile {
    /// Why a write failed.
    public struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The path as it was given.
        public var path: String
        /// What went wrong, such as `No space left on device`.
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// Writes `data` to `path` atomically (see ``AtomicFile``).
    public static func write(_ data: Data, to path: String) throws(WriteError) {
        let result = data.withUnsafeBytes { bytes in Result { () throws(WriteError) in try write(bytes, to: path) } }
        try result.get()
    }

    /// Writes `bytes` to `path` atomically (see ``AtomicFile``).
    public static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let result = bytes.withUnsafeBytes { bytes in Result { () throws(WriteError) in try write(bytes, to: path) } }
        try result.get()
    }

    /// Writes UTF-8 text to `path` atomically (see ``AtomicFile``).
    public static func write(_ text: String, to path: String) throws(WriteError) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(WriteError) in try write(UnsafeRawBufferPointer(bytes), to: path) }
        }
        try result.get()
    }

    /// Most symbolic links followed to find the target, as the kernel's own limit (`ELOOP`).
    static let maximumLinks = 40

    private static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws(WriteError) {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        if let file = UnnamedFile(writing: bytes, in: folder(of: path)) {
            defer { file.close() }
            let naming = file.name(path)
            if naming == 0 { return }
            if naming == EEXIST {
                // Something is at the path: whatever it leads to is replaced (or refused) as below.
                let (target, existing) = try resolve(path)
                if file.replace(target, keeping: existing) { return }
            }
        }
        #endif
        try writeThroughTemporaryName(bytes, to: path)
    }

    /// Writes a temporary file beside the target and renames it over the target.
    private static func writeThroughTemporaryName(_ bytes: UnsafeRawBufferPointer, to path: String) throws(WriteError) {
        let (target, existing) = try resolve(path)
        func failure(_ code: Int32) -> WriteError {
            let reason = String(cString: strerror(code))
            return WriteError(path: path, reason: target == path ? reason : "\(reason) (writing \(target), where the link leads)")
        }
        let temporary = temporaryPath(for: target)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
        guard descriptor >= 0 else { throw failure(errno) }
        /// Closes (if still open) and removes the temporary file; the target is untouched.
        func abandon(_ code: Int32, closing: Bool = true) -> WriteError {
            if closing { close(descriptor) }
            unlink(temporary)
            return failure(code)
        }
        if let existing, let code = keepOwnerAndMode(of: existing, on: descriptor) { throw abandon(code) }
        if let code = FileDescriptorOutput.write(bytes, to: descriptor) { throw abandon(code) }
        if let code = sync(descriptor) { throw abandon(code) }
        // Linux frees the descriptor even when close is interrupted: never retry it.
        if close(descriptor) != 0, errno != EINTR { throw abandon(errno, closing: false) }
        if rename(temporary, target) != 0 { throw abandon(errno, closing: false) }
    }

    /// Gives the file open at `descriptor` the owner, group and permission bits of the file it
    /// replaces; the error (`errno`) if the permission bits could not be set.
    static func keepOwnerAndMode(of existing: stat, on descriptor: Int32) -> Int32? {
        // Owner and group first: changing them clears set-user-ID and set-group-ID bits.
        if existing.st_uid != geteuid() || existing.st_gid != getegid() {
            _ = fchown(descriptor, existing.st_uid, existing.st_gid)  // Where permitted; else the writer's.
        }
        // A file system without Unix modes (FAT) refuses; there the file system decides.
        if fchmod(descriptor, existing.st_mode & 0o7777) != 0, errno != EPERM, errno != EOPNOTSUPP { return errno }
        return nil
    }

    /// `fsync`, again when interrupted; the error (`errno`) if it failed.
    static func sync(_ descriptor: Int32) -> Int32? {
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            if errno == EINVAL { return nil }  // A file system that cannot sync has nothing to sync.
            return errno
        }
        return nil
    }

    #if os(Linux) && (arch(x86_64) || arch(arm64))
    /// A new file with no name in a folder (`O_TMPFILE`), written whole and synced, until it is given
    /// a name or closed (a file closed without a name is gone).
    struct UnnamedFile {
        /// `O_TMPFILE` of Linux's `<fcntl.h>`, a macro the Glibc module does not bring in.
        private static let openUnnamed = Int32(0o20000000) | O_DIRECTORY

        let descriptor: Int32

        /// Writes and syncs `bytes`; nil (with nothing left behind) if the folder's file system has
        /// no `O_TMPFILE`, the folder cannot be written, or a write or the sync fails.
        init?(writing bytes: UnsafeRawBufferPointer, in folder: String) {
            descriptor = open(folder, O_WRONLY | O_CLOEXEC | Self.openUnnamed, 0o666)
            guard descriptor >= 0 else { return nil }
            guard FileDescriptorOutput.write(bytes, to: descriptor) == nil, AtomicFile.sync(descriptor) == nil else {
                close()
                return nil
            }
        }

        /// Gives the file the name `path` if nothing has it: 0, or the error (`errno`; `EEXIST` when
        /// the name is taken). A descriptor's file is named through its `/proc` link (`linkat`'s
        /// `AT_EMPTY_PATH` takes a capability).
        func name(_ path: String) -> Int32 {
            linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno
        }

        /// Puts the file in place of `target` (a regular file or nothing), keeping `existing`'s owner
        /// and mode, by a temporary name beside it and a rename; false, with nothing left behind, if
        /// that fails (such as when `target` is on another file system).
        func replace(_ target: String, keeping existing: stat?) -> Bool {
            if let existing {
                guard AtomicFile.keepOwnerAndMode(of: existing, on: descriptor) == nil,
                      AtomicFile.sync(descriptor) == nil else { return false }
            }
            let temporary = AtomicFile.temporaryPath(for: target)
            guard name(temporary) == 0 else { return false }
            guard rename(temporary, target) == 0 else {
                unlink(temporary)
                return false
            }
            return true
        }

        /// Writes and syncs `bytes` in a new file with no name in the folder open at `folder`
        /// (`OutputDirectory`); nil, with nothing left behind, as `init(writing:in:)`.
        init?(writing bytes: UnsafeRawBufferPointer, inFolder folder: Int32) {
            descriptor = openat(folder, ".", O_WRONLY | O_CLOEXEC | Self.openUnnamed, 0o666)
            guard descriptor >= 0 else { return nil }
            guard FileDescriptorOutput.write(bytes, to: descriptor) == nil, AtomicFile.sync(descriptor) == nil else {
                close()
                return nil
            }
        }

        /// Gives the file the name `name` in the folder open at `folder` if nothing has it (a link
        /// there included, which `linkat` never follows): 0, or the error (`errno`).
        func name(_ name: String, inFolder folder: Int32) -> Int32 {
            linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", folder, name, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno
        }

        /// Puts the file in place of the regular file `name` in the folder open at `folder`,
        /// keeping `existing`'s owner and mode, by a temporary name and `renameat` (which replaces
        /// the name, never following it); false, with nothing left behind, if that fails.
        func replace(_ name: String, inFolder folder: Int32, keeping existing: stat) -> Bool {
            guard AtomicFile.keepOwnerAndMode(of: existing, on: descriptor) == nil, AtomicFile.sync(descriptor) == nil else { return false }
            let temporary = AtomicFile.temporaryName(for: name)
            guard self.name(temporary, inFolder: folder) == 0 else { return false }
            guard renameat(folder, temporary, folder, name) == 0 else {
                unlinkat(folder, temporary, 0)
                return false
            }
            return true
        }

        /// Closes the descriptor; the file is gone unless it was named. (Its bytes were synced
        /// before any name was given, so a late error here changes nothing.)
        func close() {
            _ = Glibc.close(descriptor)
        }
    }
    #endif

    /// The file to replace (following symbolic links) and its status if it exists; throws for
    /// anything but a regular file or nothing, and for a loop of links.
    static func resolve(_ path: String) throws(WriteError) -> (target: String, existing: stat?) {
        var current = path
        for _ in 0...maximumLinks {
            var status = stat()
            guard lstat(current, &status) == 0 else {
                let code = errno
                if code == ENOENT { return (current, nil) }
                throw WriteError(path: path, reason: String(cString: strerror(code)))
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                return (current, status)
            case S_IFLNK:
                guard let destination = linkDestination(current) else {
                    throw WriteError(path: path, reason: String(cString: strerror(errno)))
                }
                current = destination.hasPrefix("/") ? destination : folder(of: current) + "/" + destination
            case let kind:
                throw WriteError(path: path, reason: "\(describeFileType(kind)), not a regular file")
            }
        }
        throw WriteError(path: path, reason: String(cString: strerror(ELOOP)))
    }

    private static let temporaryNames = TemporaryNames()

    /// What a symbolic link holds.
    private static func linkDestination(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The folder part of a path: what comes before its last `/` byte (as the kernel splits paths,
    /// whatever character a `/` may be joined to), `.` without one, `/` for the root's files.
    static func folder(of path: String) -> String {
        let utf8 = path.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == utf8.startIndex ? "/" : String(decoding: utf8[..<slash], as: UTF8.self)
    }

    /// A hidden name beside `target` that no other writer picks: `.name.UUID.tmp`, the name cut
    /// (at a character boundary of its UTF-8) so that the whole stays within 255 bytes.
    static func temporaryPath(for target: String) -> String {
        let utf8 = target.utf8
        let name = utf8.lastIndex(of: UInt8(ascii: "/")).map { String(decoding: utf8[utf8.index(after: $0)...], as: UTF8.self) } ?? target
        let folder = folder(of: target)
        return (folder == "/" ? "/" : folder + "/") + temporaryName(for: name)
    }

    /// The hidden temporary name for the file `name` (one name, no `/`): `.name.UUID.tmp`, cut to 255 bytes.
    static func temporaryName(for name: String) -> String {
        let suffix = "." + temporaryNames.next() + ".tmp"
        var kept = name
        if 1 + name.utf8.count + suffix.utf8.count > 255 {
            var scalars = String.UnicodeScalarView()
            var bytes = 1 + suffix.utf8.count
            for scalar in name.unicodeScalars {
                bytes += UTF8.width(scalar)
                if bytes > 255 { break }
                scalars.append(scalar)
            }
            kept = String(scalars)
        }
        return "." + kept + suffix
    }
}

/// A file type (`st_mode & S_IFMT`) in words: "a folder", "a named pipe (FIFO)", ...
func describeFileType(_ kind: mode_t) -> String {
    switch kind {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a folder"
    case S_IFLNK: "a symbolic link"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a named pipe (FIFO)"
    case S_IFSOCK: "a socket"
    default: "a special file"
    }
}

/// The UUID-shaped middles of temporary names: 128 random bits drawn once a process
/// (`SystemRandomNumberGenerator`), then one more for each name. Names never repeat within the
/// process, and another process starts from bits of its own; Foundation's `UUID()` opened and read
/// `/dev/urandom` for every name, three system calls for each file of a batch.
final class TemporaryNames: Sendable {
    /// The next name's number, as two halves of 128 bits.
    private let number: Locked<(high: UInt64, low: UInt64)>

    convenience init() {
        var generator = SystemRandomNumberGenerator()
        self.init(high: generator.next(), low: generator.next())
    }

    /// Names from the 128-bit number `high`, `low` on.
    init(high: UInt64, low: UInt64) {
        number = Locked((high, low))
    }

    /// The next name, as a UUID string (36 characters).
    func next() -> String {
        let number = self.number.withLock { number in
            defer {
                number.low &+= 1
                if number.low == 0 { number.high &+= 1 }
            }
            return number
        }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: number.high.bigEndian, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: number.low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: uuid).uuidString
    }
}
