#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which UIDs an input has more than once, found in the first pass without keeping the UIDs: a
/// Bloom filter of their hashes (16 bits for each distinct UID the input is likely to hold, at most 8 MB;
/// four bits set per UID), and the hashes of the UIDs it had seen before.
///
/// A UID that occurs twice is always found; one that occurs once is taken for a repeat only
/// rarely (its bits were all set by others: about one in 400 when the input holds the UIDs it
/// was sized for), which only makes its event wait, where copies are compared by their UIDs
/// themselves. (More bits a UID would take more memory for fewer such waits, which cost little.)
///
/// ```swift
/// var filter = UIDFilter(expectedUIDs: 1_000)
/// print(filter.insert(UIDFilter.hash("a")), filter.insert(UIDFilter.hash("a")))
/// // Prints "false true"
/// ```
struct UIDFilter: Sendable {
    private var words: [UInt64]
    private let bits: UInt64

    /// Bits set per UID.
    private static let probes = 4

    /// Bits per UID the filter is sized for.
    static let bitsPerUID = 16

    /// The fewest bits a filter has (2 KiB): a small input, whose few UIDs fill few of them, has
    /// almost none taken for a repeat (one in 40,000 for 300 UIDs).
    static let minimumBits = 1 << 14

    /// The most bits a filter has: 8 MB, 4.2 million UIDs' worth, which still takes 1.75 million
    /// with one in 10,000 mistaken for a repeat.
    static let maximumBits = 1 << 26

    /// A filter for about `expectedUIDs` UIDs (`expectedUIDs(inputSize:sample:)`).
    init(expectedUIDs: Int) {
        let wanted = min(Self.maximumBits, max(Self.minimumBits, expectedUIDs.multipliedReportingOverflow(by: Self.bitsPerUID).overflow
            ? Self.maximumBits : expectedUIDs * Self.bitsPerUID))
        words = [UInt64](repeating: 0, count: (wanted + 63) / 64)
        bits = UInt64(words.count * 64)
    }

    /// How many UIDs an input of `inputSize` bytes is likely to hold, from `sample`, its first bytes
    /// (all of it when as long): the distinct values of the sample's `UID:` lines (a series and its
    /// overrides share one), in proportion, a quarter more for inputs whose events grow shorter
    /// further on, and at least one per 2 KiB (a sample of one long DESCRIPTION holds none).
    static func expectedUIDs(inputSize: Int, sample: UnsafeBufferPointer<UInt8>) -> Int {
        var uids: Set<UInt64> = []
        var index = 0
        // From one `U` to the next (`memchr`, many bytes at a time): most bytes are not one.
        while index + 4 < sample.count, let base = sample.baseAddress,
              let found = memchr(base + index, 0x55, sample.count - 4 - index) {
            index = UnsafeRawPointer(base).distance(to: found)
            // A line (LF or CR before it, or the sample's start) that starts with "UID:" or "UID;".
            if index == 0 || sample[index - 1] == 0x0A || sample[index - 1] == 0x0D,
               sample[index + 1] == 0x49, sample[index + 2] == 0x44, sample[index + 3] == 0x3A || sample[index + 3] == 0x3B {
                let end = ContentLineScanner.lineEnd(in: sample, from: index + 4)
                uids.insert(hash(bytes: UnsafeBufferPointer(rebasing: sample[(index + 4)..<end])))
                index = end
                continue
            }
            index += 1
        }
        let floor = inputSize / 2_048
        guard sample.count < inputSize, sample.count > 0 else { return max(uids.count, floor) }
        let (scaled, overflow) = uids.count.multipliedReportingOverflow(by: inputSize)
        return max(floor, overflow ? Int.max / 2 : scaled / sample.count / 4 * 5)
    }

    /// The filter's size in bits.
    var bitCount: Int { words.count * 64 }

    /// Adds a UID's hash; `true` if it may have been added before.
    mutating func insert(_ hash: UInt64) -> Bool {
        var present = true
        // The filter's bits for a hash: double hashing, each probe scaled to the size by its high
        // bits (so the step between probes must reach them: a full-width odd number).
        let step = Self.step(hash)
        words.withUnsafeMutableBufferPointer { words in
            for probe in 0..<UInt64(Self.probes) {
                let bit = (hash &+ probe &* step).multipliedFullWidth(by: bits).high
                let word = Int(bit >> 6)
                let flag = UInt64(1) << (bit & 63)
                if words[word] & flag == 0 {
                    present = false
                    words[word] |= flag
                }
            }
        }
        return present
    }

    /// Whether a UID's hash may have been added.
    func contains(_ hash: UInt64) -> Bool {
        let step = Self.step(hash)
        return words.withUnsafeBufferPointer { words in
            for probe in 0..<UInt64(Self.probes) {
                let bit = (hash &+ probe &* step).multipliedFullWidth(by: bits).high
                if words[Int(bit >> 6)] & (UInt64(1) << (bit & 63)) == 0 { return false }
            }
            return true
        }
    }

    /// The distance between a hash's probes.
    private static func step(_ hash: UInt64) -> UInt64 {
        (hash &* 0x9E37_79B9_7F4A_7C15) | 1
    }

    /// The hash of a UID as StreakCal reads it (its UTF-8, escapes undone, spaces around trimmed).
    static func hash(_ uid: String) -> UInt64 {
        var uid = uid
        return uid.withUTF8 { hash(bytes: $0) }
    }

    /// `hash(_:)` of the UID whose UTF-8 is `bytes`.
    static func hash(bytes: some Collection<UInt8>) -> UInt64 {
        if let hash = bytes.withContiguousStorageIfAvailable({ hash(buffer: UnsafeRawBufferPointer($0)) }) { return hash }
        return Array(bytes).withUnsafeBytes { hash(buffer: $0) }
    }

    /// Eight bytes at a time (little-endian, the last word padded with zeros), each word folded in
    /// with a multiply whose 128-bit product's halves are XORed, which spreads every bit of the
    /// word over the whole hash; the length is in the seed. (Byte-at-a-time FNV-1a took a
    /// multiply a byte, in one chain: four times as long for a UID of 50 bytes.)
    static func hash(buffer: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(buffer.count)
        var offset = 0
        while offset + 8 <= buffer.count {
            hash = fold(hash ^ UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        if offset < buffer.count {
            var last: UInt64 = 0
            for index in offset..<buffer.count { last |= UInt64(buffer[index]) &<< UInt64(8 * (index - offset)) }
            hash = fold(hash ^ last)
        }
        // Spread the bits to the high half the probes step with.
        hash ^= hash >> 29
        return hash &* 0xBF58_476D_1CE4_E5B9
    }

    /// Whether `bytes` hold a backslash or a byte above ASCII (a UID that needs decoding before
    /// it is hashed), looked for eight bytes at a time.
    static func hasEscapeOrNonASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            // A zero byte of `word ^ backslashes` is a backslash: `(x - 0x01...) & ~x & 0x80...` marks it.
            let backslashes = word ^ (0x5C &* ones)
            if (word | ((backslashes &- ones) & ~backslashes)) & (0x80 &* ones) != 0 { return true }
            offset += 8
        }
        return bytes[offset...].contains { $0 == 0x5C || $0 >= 0x80 }
    }

    private static func fold(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return product.high ^ product.low
    }
}
