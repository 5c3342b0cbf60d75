import Foundation

/// A file descriptor the process holds open, closed when the value goes away, with a path that
/// opens the same file again (`/proc/self/fd/N`): how a file checked through its descriptor, or a
/// file with no name, is given to a reader that takes paths (the import).
///
/// ```swift
/// let file = try OpenFile.temporary()
/// _ = file.write(Array("BEGIN:VCALENDAR\r\n".utf8))
/// print(file.path)
/// // Prints "/proc/self/fd/7" (the descriptor's number)
/// ```
final class OpenFile: Sendable {
    let descriptor: Int32

    /// Takes `descriptor` over: the value closes it.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// A path that opens the file the descriptor is open on: the same file, even once it has no
    /// name or another file took its name.
    var path: String {
        "\(Self.descriptorFolder)/\(descriptor)"
    }

    /// Where the process's descriptors are links to their files: Linux's `/proc/self/fd`, else `/dev/fd`.
    private static let descriptorFolder = access("/proc/self/fd", X_OK) == 0 ? "/proc/self/fd" : "/dev/fd"

    /// A new file with no name, open for reading and writing at its start, gone once closed (as the
    /// import keeps standard input: `tmpfile`).
    static func temporary() throws(POSIXError) -> OpenFile {
        guard let file = tmpfile() else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let descriptor = dup(fileno(file))
        fclose(file)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return OpenFile(descriptor: descriptor)
    }

    /// Writes all of `bytes` at the file's offset; `errno` of a failure, `nil` when every byte went out.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        FileDescriptorOutput.write(bytes, to: descriptor)
    }
}
