public import Foundation

/// Writes files so that a reader sees the old content or the new, never a half-written file.
///
/// The bytes go to a new temporary file beside the target (`open` with `O_CREAT|O_EXCL`, a
/// `write(2)` loop, `fsync`), which is then renamed over the target. What is at the path decides
/// the target:
/// - nothing: a new file, with the mode `creat` would give it (`0666` less the umask);
/// - a regular file: replaced, keeping its permission bits (and, where the process may set them,
///   such as when running as root, its owner and group);
/// - a symbolic link: written through, at the file the link finally leads to (created if the
///   link dangles); the link stays a link. A loop of links is an error;
/// - anything else (a folder, a device such as `/dev/null`, a named pipe, a socket): refused,
///   and left as it is.
///
/// Any failure — a full disk, an I/O error, a rename that fails — removes the temporary file and
/// leaves the target as it was.
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
        if let existing {
            // Owner and group first: changing them clears set-user-ID and set-group-ID bits.
            if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)  // Where permitted; else the writer's.
            }
            // A file system without Unix modes (FAT) refuses; there the file system decides.
            if fchmod(descriptor, existing.st_mode & 0o7777) != 0, errno != EPERM, errno != EOPNOTSUPP {
                throw abandon(errno)
            }
        }
        if let code = FileDescriptorOutput.write(bytes, to: descriptor) { throw abandon(code) }
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            if errno == EINVAL { break }  // A file system that cannot sync has nothing to sync.
            throw abandon(errno)
        }
        // Linux frees the descriptor even when close is interrupted: never retry it.
        if close(descriptor) != 0, errno != EINTR { throw abandon(errno, closing: false) }
        if rename(temporary, target) != 0 { throw abandon(errno, closing: false) }
    }

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
        let folder = folder(of: target)
        return (folder == "/" ? "/" : folder + "/") + "." + kept + suffix
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
final class TemporaryNames: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var high: UInt64
    private var low: UInt64

    convenience init() {
        var generator = SystemRandomNumberGenerator()
        self.init(high: generator.next(), low: generator.next())
    }

    /// Names from the 128-bit number `high`, `low` on.
    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The next name, as a UUID string (36 characters).
    func next() -> String {
        let number: (high: UInt64, low: UInt64) = lock.withLock {
            defer {
                self.low &+= 1
                if self.low == 0 { self.high &+= 1 }
            }
            return (self.high, self.low)
        }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: number.high.bigEndian, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: number.low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: uuid).uuidString
    }
}
