import Foundation

/// An input's bytes, read a chunk at a time: memory holds one chunk and the longest line, never the
/// whole file (except for UTF-16, which is transcoded whole; such files are small).
///
/// A scanner keeps the bytes from `start` on (its unread lines) and asks for more with `refill()`,
/// which moves them to the front of the buffer and returns how far they moved.
final class InputBytes {
    /// The buffered bytes; `buffer[start..<count]` has not been consumed.
    private(set) var buffer: [UInt8]
    private(set) var count: Int
    /// The descriptor still to read, or `nil` when everything is in `buffer`.
    private var descriptor: Int32?
    private let ownsDescriptor: Bool
    /// Why reading stopped early, if it did.
    private(set) var readError: String?

    /// Bytes read per chunk by default.
    static let defaultChunkSize = 1 << 20
    private let chunkSize: Int

    /// Bytes already in memory.
    init(bytes: [UInt8]) {
        chunkSize = Self.defaultChunkSize
        buffer = bytes
        count = bytes.count
        descriptor = nil
        ownsDescriptor = false
    }

    /// Bytes read from an open descriptor as they are needed; closes it at the end when `owning`.
    init(reading descriptor: Int32, owning: Bool, chunkSize: Int = defaultChunkSize) {
        self.chunkSize = max(1, chunkSize)
        buffer = []
        count = 0
        self.descriptor = descriptor
        ownsDescriptor = owning
        _ = readMore()
    }

    /// Reads until at least `minimum` bytes are buffered or the input ends (for a byte order mark
    /// that the first read may split).
    func buffer(atLeast minimum: Int) {
        while count < minimum, readMore() {}
    }

    /// Whether bytes may still come after `count`.
    var isExhausted: Bool { descriptor == nil }

    /// Reads everything that is left (for inputs that must be transcoded whole).
    func readToEnd() {
        while readMore() {}
    }

    /// Drops `buffer[..<start]` and reads another chunk after what is left. Returns the number of
    /// bytes the kept ones moved towards the front, or `nil` at the end of the input.
    func refill(keepingFrom start: Int) -> Int? {
        guard descriptor != nil else { return nil }
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { all in
                let base = all.baseAddress!
                base.update(from: base + start, count: count - start)
            }
            count -= start
        }
        _ = readMore()
        return start
    }

    /// Reads one chunk at `count`, growing the buffer when it is full; `false` at the end.
    private func readMore() -> Bool {
        guard let descriptor else { return false }
        if buffer.count - count < min(chunkSize, 4096) { grow(descriptor: descriptor) }
        while true {
            let got = buffer.withUnsafeMutableBytes { raw in
                read(descriptor, raw.baseAddress! + count, min(chunkSize, raw.count - count))
            }
            if got < 0, errno == EINTR { continue }
            if got < 0 { readError = String(cString: strerror(errno)) }
            if got <= 0 {
                if ownsDescriptor { close(descriptor) }
                self.descriptor = nil
                return false
            }
            count += got
            return true
        }
    }

    /// Room for another chunk: the first time as much as a small file needs, then half again.
    private func grow(descriptor: Int32) {
        var capacity = count + chunkSize
        if buffer.isEmpty {
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_size > 0, Int(status.st_size) < chunkSize {
                capacity = Int(status.st_size) + 1  // one more byte, to see the end in one read
            }
        } else {
            capacity = max(capacity, buffer.count + buffer.count / 2)
        }
        var grown = [UInt8](repeating: 0, count: capacity)
        grown.withUnsafeMutableBufferPointer { target in
            buffer.withUnsafeBufferPointer { source in
                if let from = source.baseAddress, count > 0 { target.baseAddress!.update(from: from, count: count) }
            }
        }
        buffer = grown
    }

    deinit {
        // A scan stopped before the end still closes what it opened.
        if let descriptor, ownsDescriptor { close(descriptor) }
    }
}
