import Foundation

/// Standard output or standard error, written with `write(2)`: every byte, or an error that says why.
///
/// A write that the kernel cuts short is continued, one interrupted by a signal (`EINTR`) is
/// retried, and one on a descriptor left non-blocking (`EAGAIN`) waits until it can go on. Any
/// other failure is thrown, for the caller to report and exit; nothing traps. A closed pipe still
/// raises `SIGPIPE`, which ends the process quietly unless the signal is ignored, in which case the
/// write fails with `EPIPE` like any other.
///
/// ```swift
/// do {
///     try StandardStream.output.write("Current streak: 3 days\n")
/// } catch {
///     print(error)
///     // Prints "cannot write to standard output: No space left on device" (with stdout on /dev/full)
/// }
/// ```
package enum StandardStream: Sendable, CaseIterable {
    /// File descriptor 1.
    case output
    /// File descriptor 2.
    case error

    /// Why a write to a standard stream failed.
    package struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The stream's name, such as `standard output`.
        package var stream: String
        /// The system's words for the failure (`strerror`).
        package var reason: String
        package var description: String { "cannot write to \(stream): \(reason)" }
    }

    /// The stream's file descriptor.
    package var fileDescriptor: Int32 {
        switch self {
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// The stream's name in messages.
    package var name: String {
        switch self {
        case .output: "standard output"
        case .error: "standard error"
        }
    }

    /// Writes all of `text` as UTF-8.
    package func write(_ text: String) throws(WriteError) {
        if let code = FileDescriptorOutput.write(text, to: fileDescriptor) {
            throw WriteError(stream: name, reason: String(cString: strerror(code)))
        }
    }
}

/// The `write(2)` loop standard streams and atomic files share.
enum FileDescriptorOutput {
    /// Writes all of `text` as UTF-8 to `descriptor`; returns `errno` of the failure, `nil` when every byte went out.
    static func write(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Writes all of `bytes` to `descriptor`; returns `errno` of the failure, `nil` when every byte went out.
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard var next = bytes.baseAddress else { return nil }
        var left = bytes.count
        while left > 0 {
            // Some systems refuse single writes above Int32.max bytes; stay below.
            let written = Foundation.write(descriptor, next, min(left, 1 << 30))
            if written < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK:
                    var wanted = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    if poll(&wanted, 1, -1) < 0, errno != EINTR { return errno }
                    continue
                case let code: return code
                }
            }
            if written == 0 { return EIO }  // No progress and no error: give up rather than spin.
            next += written
            left -= written
        }
        return nil
    }
}
