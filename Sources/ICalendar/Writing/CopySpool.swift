import Foundation

/// The components a copy has written (`CalendarCopy`), kept until the end of the copy, when they go
/// out after what must come before them (the calendar properties of every input, the VTIMEZONEs
/// their times need): in memory up to `memoryLimit` bytes, then in an unlinked temporary file, so
/// that what a copy holds does not grow with its input.
///
/// Each line is folded as it is appended (`FoldedText`); a long one a piece at a time
/// (`LongTextLine`), so that it is never held whole a second time.
struct CopySpool: ~Copyable {
    /// The bytes not yet in the file: all of them until the spool outgrows `memoryLimit`.
    private var pending = FoldedText()
    /// The temporary file, once there is one; -1 before.
    private var descriptor: Int32 = -1
    /// The bytes in the file.
    private var flushed = 0
    /// The most bytes the spool holds in memory before it moves them to a temporary file.
    let memoryLimit: Int
    /// The most bytes `pending` held at once: what the spool kept in memory.
    private(set) var largestPending = 0

    /// The bytes held in memory before a spool moves to a temporary file: most calendars are smaller.
    static let defaultMemoryLimit = 1 << 20
    /// Once in a file, bytes are written there in pieces of this size; a piece read back is as large.
    static let pieceSize = 1 << 16

    init(memoryLimit: Int = defaultMemoryLimit) {
        self.memoryLimit = memoryLimit
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The bytes written so far: the offset of the next one.
    var count: Int { flushed + pending.bytes.count }

    /// Whether the spool moved to a temporary file.
    var isInFile: Bool { descriptor >= 0 }

    /// Appends one content line, folded.
    mutating func append(line: String) throws(ScratchFileError) {
        pending.append(line: line)
        try settle()
    }

    /// Appends a line `LineCheck` wrote, a long one a piece at a time.
    mutating func append(_ line: LineCheck.WrittenLine) throws(ScratchFileError) {
        switch line {
        case .text(let text):
            try append(line: text)
        case .long(let long):
            var failure: ScratchFileError?
            long.forEachPiece { piece in
                guard failure == nil else { return }
                pending.appendPiece(piece)
                do throws(ScratchFileError) { try settle() } catch { failure = error }
            }
            if let failure { throw failure }
            pending.endLine()
            try settle()
        }
    }

    /// Calls `body` with the bytes in `range` (of those written so far), a piece at a time.
    func forEachPiece(in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var position = range.lowerBound
        let fileEnd = min(range.upperBound, flushed)
        if position < fileEnd {
            var buffer = [UInt8](repeating: 0, count: min(Self.pieceSize, fileEnd - position))
            while position < fileEnd {
                let wanted = min(buffer.count, fileEnd - position)
                let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(position)) }
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    throw ScratchFileError(reason: got < 0 ? String(cString: strerror(errno)) : "it ended before its last byte")
                }
                try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<got])) }
                position += got
            }
        }
        while position < range.upperBound {
            let start = position - flushed
            let end = min(range.upperBound - flushed, start + Self.pieceSize)
            try pending.bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
            position = end + flushed
        }
    }

    /// Moves the pending bytes to the temporary file when there are enough of them (opening it
    /// once they outgrow `memoryLimit`).
    private mutating func settle() throws(ScratchFileError) {
        largestPending = max(largestPending, pending.bytes.count)
        if descriptor < 0 {
            guard pending.bytes.count > memoryLimit else { return }
            descriptor = try Self.temporaryFile()
        }
        guard pending.bytes.count >= Self.pieceSize else { return }
        if let code = pending.bytes.withUnsafeBytes({ Self.write($0, to: descriptor) }) {
            throw ScratchFileError(reason: String(cString: strerror(code)))
        }
        flushed += pending.bytes.count
        pending.removeAllBytes()
    }

    /// A new temporary file with no name (`tmpfile`, as the import keeps standard input): nothing
    /// is left behind, however the process ends.
    private static func temporaryFile() throws(ScratchFileError) -> Int32 {
        guard let file = tmpfile() else { throw ScratchFileError(reason: String(cString: strerror(errno))) }
        let descriptor = dup(fileno(file))
        fclose(file)
        guard descriptor >= 0 else { throw ScratchFileError(reason: String(cString: strerror(errno))) }
        return descriptor
    }

    /// Writes all of `bytes`; the error (`errno`) if that fails.
    private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            if written < 0 { return errno }
            if written == 0 { return EIO }
            offset += written
        }
        return nil
    }
}
