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
final class OutputDirectory: Sendable {
    let descriptor: Int32
    /// What `URL(fileURLWithPath:).appendingPathComponent(_:).path` puts before a name in this
    /// folder: an absolute path that ends with `/`, for messages and results.
    let prefix: String

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
    func path(of name: String) -> String {
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
            // A free name is taken in one step; a name taken since it was looked at is done below.
            if existing == nil, file.name(name, inFolder: descriptor) == 0 { return }
            if let existing, file.replace(name, inFolder: descriptor, keeping: existing) { return }
        }
        #endif
        try writeThroughTemporaryName(bytes, named: name, replacing: try regularFile(named: name))
    }

    /// The status of the regular file `name`, `nil` if the name is free; throws for anything else.
    private func regularFile(named name: String) throws(AtomicFile.WriteError) -> stat? {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw AtomicFile.WriteError(path: path(of: name), reason: String(cString: strerror(errno)))
        }
        let kind = status.st_mode & S_IFMT
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
        if let existing, let code = AtomicFile.keepOwnerAndMode(of: existing, on: file) { throw abandon(code) }
        if let code = FileDescriptorOutput.write(bytes, to: file) { throw abandon(code) }
        if let code = AtomicFile.sync(file) { throw abandon(code) }
        // Linux frees the descriptor even when close is interrupted: never retry it.
        if close(file) != 0, errno != EINTR { throw abandon(errno, closing: false) }
        if renameat(descriptor, temporary, descriptor, name) != 0 { throw abandon(errno, closing: false) }
    }
}
