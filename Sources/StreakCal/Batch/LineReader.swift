import Foundation
import ICalendar

/// Lines of a file descriptor, as bytes, read a chunk at a time: LF or CRLF ends a line; a last
/// line without an end counts too. Each byte is looked at once, however long the line; a line
/// longer than `longest` is read through without being kept.
///
/// A long line is handed over in the buffer it was read into, not copied, and the reader starts a
/// new buffer: what a line of hundreds of megabytes costs is the line.
struct LineReader {
    private let descriptor: Int32
    private let longest: Int
    private var buffer: [UInt8] = []
    /// Where each `read` puts its bytes before they join `buffer`.
    private var chunk = [UInt8](repeating: 0, count: LineReader.chunkSize)
    /// Where the current line starts in `buffer`, and how far it has been searched for its end.
    private var start = 0
    private var searched = 0
    /// Bytes of the current line already dropped because it is too long.
    private var dropped = 0
    private var atEnd = false

    /// Bytes asked of each `read`.
    static let chunkSize = 1 << 16

    init(descriptor: Int32, longest: Int = JSONLinesBatch.longestLine) {
        self.descriptor = descriptor
        self.longest = longest
    }

    mutating func next() throws(CalendarReadError) -> JSONLinesBatch.InputLine? {
        while true {
            if let newline = firstNewline() {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = take(end: end, next: newline + 1)
                return line
            }
            searched = buffer.count
            if atEnd {
                guard start < buffer.count || dropped > 0 else { return nil }
                return take(end: buffer.count, next: buffer.count)
            }
            // Keep only the current line; drop it too once it is too long.
            if start > 0 {
                buffer.removeSubrange(0..<start)
                searched -= start
                start = 0
            }
            if buffer.count > longest || dropped > 0 {
                dropped += buffer.count
                buffer.removeAll(keepingCapacity: true)
                searched = 0
            }
            try readChunk()
        }
    }

    /// The index of the first LF from `searched` on, if there is one.
    private func firstNewline() -> Int? {
        buffer.withUnsafeBytes { bytes in
            guard searched < bytes.count, let found = memchr(bytes.baseAddress! + searched, 0x0A, bytes.count - searched) else { return nil }
            return bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
        }
    }

    /// Reads the next chunk onto the end of the buffer (none at the end of the input).
    private mutating func readChunk() throws(CalendarReadError) {
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CalendarReadError(path: descriptor == STDIN_FILENO ? "-" : "input", systemError: errno)
            }
            if count == 0 { atEnd = true }
            buffer.append(contentsOf: chunk[0..<count])
            return
        }
    }

    /// The current line, ending at `end`, and the next starting at `next`: its bytes, or its length
    /// when it was too long.
    private mutating func take(end: Int, next: Int) -> JSONLinesBatch.InputLine {
        defer {
            dropped = 0
            searched = start
        }
        let length = dropped + end - start
        guard dropped == 0, length <= longest else {
            start = next
            return .tooLong(length)
        }
        guard start == 0, end >= Self.chunkSize else {
            let line = Array(buffer[start..<end])
            start = next
            return .text(line)
        }
        // The buffer is the line, and at most a chunk after it: the line keeps the buffer.
        var line = buffer
        buffer = Array(buffer[next...])
        line.removeSubrange(end...)
        start = 0
        return .text(line)
    }
}
