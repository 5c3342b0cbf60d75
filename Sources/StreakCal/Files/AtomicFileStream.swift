import Foundation

/// A file written a piece at a time that appears at its path only once it is complete
/// (``commit()``), as ``AtomicFile`` writes one whole: a reader sees the old content or the new,
/// never a half-written file, and output that does not fit in memory can be written so.
///
/// The target is decided first, as ``AtomicFile`` decides it (a symbolic link is written through;
/// a folder, a device, a pipe are refused before anything is written). The bytes go to a new file
/// with no name in the target's folder (Linux's `O_TMPFILE`), or where the file system has none, to
/// a new temporary file beside the target (`O_CREAT|O_EXCL`); a file it replaces gives it its
/// permission bits (and, where permitted, its owner and group). ``commit()`` syncs it and puts it
/// in place (`linkat`, or a rename over the target). A stream dropped without ``commit()``, or one
/// whose writing fails, leaves the target as it was and no temporary file behind; one with no name
/// is gone however the process ends.
///
/// ```swift
/// var file = try AtomicFileStream(path: "annotated.ics")
/// try file.write(Array("BEGIN:VCALENDAR\r\n".utf8))
/// try file.write(Array("END:VCALENDAR\r\n".utf8))
/// try file.commit()
/// ```
package struct AtomicFileStream: ~Copyable {
    /// The path as given.
    package let path: String
    /// The file to replace or create (``AtomicFile``'s target), and its status if it exists.
    private let target: String
    private let existing: stat?
    private let descriptor: Int32
    /// The temporary file's name; `nil` for a file with no name.
    private let temporary: String?
    /// Whether the file is in place (nothing to undo).
    private var isCommitted = false

    /// `O_TMPFILE` of Linux's `<fcntl.h>`, a macro the Glibc module does not bring in.
    private static let openUnnamed = Int32(0o20000000) | O_DIRECTORY

    /// Starts the file for `path`.
    ///
    /// - Throws: ``AtomicFile/WriteError`` when the path leads to anything but a regular file or
    ///   nothing, or no temporary file can be made beside it.
    package init(path: String) throws(AtomicFile.WriteError) {
        let (target, existing) = try AtomicFile.resolve(path)
        var temporary: String?
        var descriptor: Int32 = -1
        #if os(Linux)
        descriptor = open(AtomicFile.folder(of: target), O_WRONLY | O_CLOEXEC | Self.openUnnamed, 0o666)
        #endif
        if descriptor < 0 {
            let name = AtomicFile.temporaryPath(for: target)
            descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
            guard descriptor >= 0 else { throw Self.failure(errno, path: path, target: target) }
            temporary = name
        }
        if let existing, let code = Self.keepOwnerAndMode(of: existing, on: descriptor) {
            close(descriptor)
            if let temporary { unlink(temporary) }
            throw Self.failure(code, path: path, target: target)
        }
        self.path = path
        self.target = target
        self.existing = existing
        self.descriptor = descriptor
        self.temporary = temporary
    }

    deinit {
        close(descriptor)
        if !isCommitted, let temporary { unlink(temporary) }
    }

    /// Writes the next bytes.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(AtomicFile.WriteError) {
        if let code = FileDescriptorOutput.write(bytes, to: descriptor) { throw Self.failure(code, path: path, target: target) }
    }

    /// Writes the next bytes.
    package func write(_ bytes: [UInt8]) throws(AtomicFile.WriteError) {
        let result = bytes.withUnsafeBytes { bytes in Result { () throws(AtomicFile.WriteError) in try write(bytes) } }
        try result.get()
    }

    /// Syncs the file and puts it at its path, in place of what was there.
    package consuming func commit() throws(AtomicFile.WriteError) {
        if let code = Self.sync(descriptor) { throw Self.failure(code, path: path, target: target) }
        guard let temporary else {
            try name()
            isCommitted = true
            return
        }
        if rename(temporary, target) != 0 { throw Self.failure(errno, path: path, target: target) }
        isCommitted = true
    }

    /// Gives the file with no name its target's name: at once where nothing has it, else by a
    /// temporary name beside it and a rename over it.
    private func name() throws(AtomicFile.WriteError) {
        let source = "/proc/self/fd/\(descriptor)"
        if existing == nil {
            if linkat(AT_FDCWD, source, AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0 { return }
            guard errno == EEXIST else { throw Self.failure(errno, path: path, target: target) }
        }
        let temporary = AtomicFile.temporaryPath(for: target)
        guard linkat(AT_FDCWD, source, AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 else {
            throw Self.failure(errno, path: path, target: target)
        }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw Self.failure(code, path: path, target: target)
        }
    }

    /// The error for `code`, naming the path as given (and the target, when a link leads there).
    private static func failure(_ code: Int32, path: String, target: String) -> AtomicFile.WriteError {
        let reason = String(cString: strerror(code))
        return AtomicFile.WriteError(path: path, reason: target == path ? reason : "\(reason) (writing \(target), where the link leads)")
    }

    /// As ``AtomicFile`` keeps them: the owner and group (where permitted), then the permission
    /// bits of the file replaced; the error (`errno`) if the bits could not be set.
    private static func keepOwnerAndMode(of existing: stat, on descriptor: Int32) -> Int32? {
        // Owner and group first: changing them clears set-user-ID and set-group-ID bits.
        if existing.st_uid != geteuid() || existing.st_gid != getegid() {
            _ = fchown(descriptor, existing.st_uid, existing.st_gid)
        }
        // A file system without Unix modes (FAT) refuses; there the file system decides.
        if fchmod(descriptor, existing.st_mode & 0o7777) != 0, errno != EPERM, errno != EOPNOTSUPP { return errno }
        return nil
    }

    /// `fsync`, again when interrupted; the error (`errno`) if it failed.
    private static func sync(_ descriptor: Int32) -> Int32? {
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            if errno == EINVAL { return nil }  // A file system that cannot sync has nothing to sync.
            return errno
        }
        return nil
    }
}
