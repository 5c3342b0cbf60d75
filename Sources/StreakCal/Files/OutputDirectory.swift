import Foundation

/// A folder that files are written into through its descriptor, never through a link: where
/// `batch --out` puts its reports and `summary.json`.
///
/// The folder is opened once (following links in the path given, which the user chose); every
/// file is then named relative to that descriptor (`fstatat`, `openat`, `linkat`, `renameat`), so
/// that nothing a name in the folder leads to is ever followed:
/// - a name that is free gets a new file, written whole with no name first (`O_TMPFILE`) and then
///   named, or written under a temporary name and renamed, with the mode `creat` gives it;
/// - a regular file is replaced the same way, keeping its permission bits (and, where the process
///   may, its owner and group);
/// - anything else — a symbolic link (dangling or not), a folder, a named pipe, a device — is
///   refused and left as it is, so that nothing outside the folder is written or created.
///
/// A failure leaves no temporary file and the old file as it was.
///
/// ```swift
/// let reports = try OutputDirectory(opening: "reports", creating: true)
/// try reports.write("date,points\r\n", named: "a.csv")
/// // reports/a.csv → /etc/passwd (a link planted there): "cannot write reports/a.csv: a symbolic link, not a regular file; it is left as it is"
/// ```
package final class OutputDirectory: Sendable {
    let descriptor: Int32
    /// What `URL(fileURLWithPath:).appendingPathComponent(_:).path` puts before a name in this
    /// folder: an absolute path that ends with `/`, for messages and results.
    let prefix: String
    /// How files are written where the folder is the program's own (``PrivateFolder``): each file
    /// gets exactly this mode, and a symbolic link at a name is replaced (the link itself, never
    /// what it leads to) rather than refused. `nil`: the user's folder, as described above.
    let privateFileMode: mode_t?

    /// Opens the folder at `path`, creating it (and the folders above it) first if `creating`.
    init(opening path: String, creating: Bool) throws(AtomicFile.WriteError) {
        if creating {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                let exists = FileManager.default.fileExists(atPath: path)
                throw AtomicFile.WriteError(path: path, reason: exists ? "not a folder" : "cannot create the folder")
            }
        }
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AtomicFile.WriteError(path: path, reason: errno == ENOTDIR ? "not a folder" : String(cString: strerror(errno)))
        }
        prefix = Self.prefix(for: path)
        privateFileMode = nil
    }

    /// The folder open at `descriptor` (taken over: the value closes it), named `path` in messages.
    init(descriptor: Int32, path: String, privateFileMode: mode_t?) {
        self.descriptor = descriptor
        self.prefix = Self.prefix(for: path)
        self.privateFileMode = privateFileMode
    }

    deinit {
        close(descriptor)
    }

    /// What `URL` puts before a name in the folder at `path`, worked out once a folder rather than
    /// once a file (`URL` looks at the file system for it).
    static func prefix(for path: String) -> String {
        String(URL(fileURLWithPath: path).appendingPathComponent("x").path.dropLast())
    }

    /// The path of `name` in the folder, as `URL` gives it, for a name without `/`.
    package func path(of name: String) -> String {
        prefix + name
    }

    /// Writes UTF-8 text as the file `name` (one name, no `/`).
    func write(_ text: String, named name: String) throws(AtomicFile.WriteError) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(AtomicFile.WriteError) in try write(UnsafeRawBufferPointer(bytes), named: name) }
        }
        try result.get()
    }

    /// Writes `bytes` as the file `name` (one name, no `/`).
    func write(_ bytes: [UInt8], named name: String) throws(AtomicFile.WriteError) {
        let result = bytes.withUnsafeBytes { bytes in Result { () throws(AtomicFile.WriteError) in try write(bytes, named: name) } }
        try result.get()
    }

    private func write(_ bytes: UnsafeRawBufferPointer, named name: String) throws(AtomicFile.WriteError) {
        let existing = try regularFile(named: name)
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        if let file = AtomicFile.UnnamedFile(writing: bytes, inFolder: descriptor) {
            defer { file.close() }
            if let privateFileMode, fchmod(file.descriptor, privateFileMode) != 0 {
                throw AtomicFile.WriteError(path: path(of: name), reason: String(cString: strerror(errno)))
            }
            // A free name is taken in one step; a name taken since it was looked at is done below.
            if existing == nil, file.name(name, inFolder: descriptor) == 0 { return }
            if let existing, file.replace(name, inFolder: descriptor, keeping: existing) { return }
        }
        #endif
        try writeThroughTemporaryName(bytes, named: name, replacing: try regularFile(named: name))
    }

    /// The status of the regular file `name`, `nil` if the name is free; throws for anything else.
    /// In a private folder, what the file it replaces is given is the writer's own and the
    /// private mode, whoever owned the old one.
    func regularFile(named name: String) throws(AtomicFile.WriteError) -> stat? {
        guard var status = try fileStatus(named: name) else { return nil }
        if let privateFileMode {
            (status.st_uid, status.st_gid, status.st_mode) = (geteuid(), getegid(), S_IFREG | privateFileMode)
        }
        return status
    }

    private func fileStatus(named name: String) throws(AtomicFile.WriteError) -> stat? {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw AtomicFile.WriteError(path: path(of: name), reason: String(cString: strerror(errno)))
        }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFLNK, privateFileMode != nil {
            // A link in a folder of the program's own was not made by it: the name is taken back.
            guard unlinkat(descriptor, name, 0) == 0 || errno == ENOENT else {
                throw AtomicFile.WriteError(path: path(of: name), reason: String(cString: strerror(errno)))
            }
            return nil
        }
        guard kind == S_IFREG else {
            throw AtomicFile.WriteError(path: path(of: name), reason: "\(describeFileType(kind)), not a regular file; it is left as it is")
        }
        return status
    }

    /// Writes a temporary file in the folder and renames it to `name` (which, renamed over, is
    /// replaced, never followed).
    func writeThroughTemporaryName(_ bytes: UnsafeRawBufferPointer, named name: String, replacing existing: stat?) throws(AtomicFile.WriteError) {
        let temporary = AtomicFile.temporaryName(for: name)
        let failure = { (code: Int32) in AtomicFile.WriteError(path: self.path(of: name), reason: String(cString: strerror(code))) }
        let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
        guard file >= 0 else { throw failure(errno) }
        /// Closes (if still open) and removes the temporary file; the target is untouched.
        func abandon(_ code: Int32, closing: Bool = true) -> AtomicFile.WriteError {
            if closing { close(file) }
            unlinkat(descriptor, temporary, 0)
            return failure(code)
        }
        if let privateFileMode {
            if fchmod(file, privateFileMode) != 0 { throw abandon(errno) }
        } else if let existing, let code = AtomicFile.keepOwnerAndMode(of: existing, on: file) {
            throw abandon(code)
        }
        if let code = FileDescriptorOutput.write(bytes, to: file) { throw abandon(code) }
        if let code = AtomicFile.sync(file) { throw abandon(code) }
        // Linux frees the descriptor even when close is interrupted: never retry it.
        if close(file) != 0, errno != EINTR { throw abandon(errno, closing: false) }
        if renameat(descriptor, temporary, descriptor, name) != 0 { throw abandon(errno, closing: false) }
    }
}

extension OutputDirectory {
    /// A file of the folder written a piece at a time (a download too large to hold), that takes
    /// its name only when whole (``commit()``), as ``write(_:named:)`` writes one at once: through
    /// the folder's descriptor, never following a link. Dropped without ``commit()``, or after a
    /// failed write, it leaves the name as it was and no temporary file.
    package struct FileStream: ~Copyable {
        private let directory: OutputDirectory
        private let name: String
        private let descriptor: Int32
        /// The temporary name, where the file system has no `O_TMPFILE`; `nil` for a file with no name.
        private let temporary: String?
        private var isCommitted = false

        /// `O_TMPFILE` of Linux's `<fcntl.h>`, a macro the Glibc module does not bring in.
        private static let openUnnamed = Int32(0o20000000) | O_DIRECTORY

        init(in directory: OutputDirectory, named name: String) throws(AtomicFile.WriteError) {
            _ = try directory.regularFile(named: name)
            var descriptor: Int32 = -1
            var temporary: String?
            #if os(Linux)
            descriptor = openat(directory.descriptor, ".", O_WRONLY | O_CLOEXEC | Self.openUnnamed, 0o666)
            #endif
            if descriptor < 0 {
                let candidate = AtomicFile.temporaryName(for: name)
                descriptor = openat(directory.descriptor, candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
                guard descriptor >= 0 else { throw AtomicFile.WriteError(path: directory.path(of: name), reason: String(cString: strerror(errno))) }
                temporary = candidate
            }
            if let mode = directory.privateFileMode, fchmod(descriptor, mode) != 0 {
                let code = errno
                close(descriptor)
                if let temporary { unlinkat(directory.descriptor, temporary, 0) }
                throw AtomicFile.WriteError(path: directory.path(of: name), reason: String(cString: strerror(code)))
            }
            self.directory = directory
            self.name = name
            self.descriptor = descriptor
            self.temporary = temporary
        }

        deinit {
            close(descriptor)
            if !isCommitted, let temporary { unlinkat(directory.descriptor, temporary, 0) }
        }

        /// Writes the next bytes.
        package func write(_ bytes: UnsafeRawBufferPointer) throws(AtomicFile.WriteError) {
            if let code = FileDescriptorOutput.write(bytes, to: descriptor) { throw failure(code) }
        }

        /// Syncs the file and puts it at its name, in place of what is there (a regular file; in a
        /// private folder, a link too, which is replaced, not followed).
        package consuming func commit() throws(AtomicFile.WriteError) {
            let existing = try directory.regularFile(named: name)
            if let existing, let code = AtomicFile.keepOwnerAndMode(of: existing, on: descriptor) { throw failure(code) }
            if let code = AtomicFile.sync(descriptor) { throw failure(code) }
            let named = temporary ?? AtomicFile.temporaryName(for: name)
            if temporary == nil, linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", directory.descriptor, named, AT_SYMLINK_FOLLOW) != 0 {
                throw failure(errno)
            }
            guard renameat(directory.descriptor, named, directory.descriptor, name) == 0 else {
                let code = errno
                unlinkat(directory.descriptor, named, 0)
                throw failure(code)
            }
            isCommitted = true
        }

        private func failure(_ code: Int32) -> AtomicFile.WriteError {
            AtomicFile.WriteError(path: directory.path(of: name), reason: String(cString: strerror(code)))
        }
    }
}
