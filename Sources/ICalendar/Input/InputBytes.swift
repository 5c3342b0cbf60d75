import Foundation

/// An input's bytes, read a chunk at a time: memory holds one chunk and the longest line, never the
/// whole file (except for UTF-16, which is transcoded whole; such files are small).
///
/// A scanner keeps the bytes from `start` on (its unread lines) and asks for more with `refill()`,
/// which moves them to the front of the buffer and returns how far they moved. The bytes live in
/// memory this object allocates, so scanners read them through `bytes` without Swift's dynamic
/// exclusivity checks or reference counting; `bytes` is valid until the next refill or read.
final class InputBytes {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes `storage` holds.
    private(set) var count: Int
    /// The descriptor still to read, or `nil` when everything is in memory.
    private var descriptor: Int32?
    private let ownsDescriptor: Bool
    /// For a part of a file (`init(reading:from:to:chunkSize:)`): where the next read starts, and
    /// where the part ends.
    private var position: Int?
    private var end: Int?
    /// The system's error number when reading stopped early, if it did.
    private(set) var readFailure: Int32?
    /// Why reading stopped early, in words, if it did.
    var readError: String? { readFailure.map { String(cString: strerror($0)) } }
    /// Whether any byte read so far is NUL (checked as each chunk comes in).
    private(set) var sawNUL = false

    /// Bytes read per chunk by default.
    static let defaultChunkSize = 1 << 20
    private let chunkSize: Int

    /// Bytes already in memory.
    init(bytes: [UInt8]) {
        chunkSize = Self.defaultChunkSize
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
        bytes.withUnsafeBufferPointer { source in
            if let from = source.baseAddress { storage.initialize(from: from, count: source.count) }
        }
        self.storage = storage
        capacity = max(1, bytes.count)
        count = bytes.count
        descriptor = nil
        ownsDescriptor = false
        sawNUL = memchr(storage, 0, count) != nil
    }

    /// Bytes read from an open descriptor as they are needed; closes it at the end when `owning`.
    convenience init(reading descriptor: Int32, owning: Bool, chunkSize: Int = defaultChunkSize) {
        self.init(descriptor: descriptor, owning: owning, stretch: nil, chunkSize: chunkSize)
    }

    /// The bytes of `descriptor` from offset `start` up to `end` (or the end of the file), read with
    /// `pread` as they are needed: parts of one file can be read at once. The descriptor's own offset
    /// does not move, and it is not closed.
    convenience init(reading descriptor: Int32, from start: Int, to end: Int?, chunkSize: Int = defaultChunkSize) {
        self.init(descriptor: descriptor, owning: false, stretch: (start, end), chunkSize: chunkSize)
    }

    private init(descriptor: Int32, owning: Bool, stretch: (start: Int, end: Int?)?, chunkSize: Int) {
        self.chunkSize = max(1, chunkSize)
        capacity = 0
        storage = .allocate(capacity: 1)
        count = 0
        self.descriptor = descriptor
        ownsDescriptor = owning
        position = stretch?.start
        end = stretch?.end
        _ = readMore()
    }

    deinit {
        storage.deallocate()
        // A scan stopped before the end still closes what it opened.
        if let descriptor, ownsDescriptor { close(descriptor) }
    }

    /// How many bytes the whole input holds, as far as can be told before reading it: the file's
    /// size (or its part's), else what is in memory.
    var expectedSize: Int {
        guard let descriptor else { return count }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return count }
        return max(count, end ?? Int(status.st_size))
    }

    /// The bytes read and not dropped; valid until the next `refill`, `buffer(atLeast:)` or `readToEnd`.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    /// The bytes as an array (a copy).
    var array: [UInt8] { Array(bytes) }

    /// Whether bytes may still come after `count`.
    var isExhausted: Bool { descriptor == nil }

    /// Reads until at least `minimum` bytes are buffered or the input ends (for a byte order mark
    /// that the first read may split).
    func buffer(atLeast minimum: Int) {
        while count < minimum, readMore() {}
    }

    /// Reads everything that is left (for inputs that must be transcoded whole).
    func readToEnd() {
        while readMore() {}
    }

    /// Drops the bytes before `start` and reads another chunk after what is left. Returns the
    /// number of bytes the kept ones moved towards the front, or `nil` at the end of the input.
    func refill(keepingFrom start: Int) -> Int? {
        guard descriptor != nil else { return nil }
        if start > 0 {
            storage.update(from: storage + start, count: count - start)
            count -= start
        }
        _ = readMore()
        return start
    }

    /// Reads one chunk at `count`, growing the buffer when it is full; `false` at the end.
    private func readMore() -> Bool {
        guard let descriptor else { return false }
        if capacity - count < min(chunkSize, 4096) { grow(descriptor: descriptor) }
        while true {
            var wanted = min(chunkSize, capacity - count)
            let got: Int
            if let position {
                if let end { wanted = min(wanted, end - position) }
                got = wanted > 0 ? pread(descriptor, storage + count, wanted, off_t(position)) : 0
                if got > 0 { self.position = position + got }
            } else {
                got = read(descriptor, storage + count, wanted)
            }
            if got < 0, errno == EINTR { continue }
            if got < 0 { readFailure = errno }
            if got <= 0 {
                if ownsDescriptor { close(descriptor) }
                self.descriptor = nil
                return false
            }
            if !sawNUL, memchr(storage + count, 0, got) != nil { sawNUL = true }
            count += got
            return true
        }
    }

    /// Room for another chunk: the first time as much as a small file needs, then half again.
    private func grow(descriptor: Int32) {
        var newCapacity = count + chunkSize
        if capacity == 0 {
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_size > 0 {
                let size = min(Int(status.st_size), end ?? Int.max) - (position ?? 0)
                if size >= 0, size < chunkSize {
                    newCapacity = size + 1  // one more byte, to see the end in one read
                }
            }
        } else {
            newCapacity = max(newCapacity, capacity + capacity / 2)
        }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: storage, count: count)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }
}
