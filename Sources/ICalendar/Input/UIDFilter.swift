/// Which UIDs an input has more than once, found in the first pass without keeping the UIDs: a
/// Bloom filter of their hashes (about one bit per byte of input, at most 8 MB: four bits per UID),
/// and the hashes of the UIDs it had seen before.
///
/// A UID that occurs twice is always found; one that occurs once is taken for a repeat only
/// rarely (its bits were all set by others), which only makes its event wait for the end of the
/// input, where copies are compared by their UIDs themselves.
///
/// ```swift
/// var filter = UIDFilter(inputSize: 1 << 20)
/// print(filter.insert(UIDFilter.hash("a")), filter.insert(UIDFilter.hash("a")))
/// // Prints "false true"
/// ```
struct UIDFilter: Sendable {
    private var words: [UInt64]
    private let bitMask: UInt64

    /// Bits set per UID.
    private static let probes = 4

    /// The most bits a filter has: 8 MB. An input's size says how many UIDs it may hold only
    /// roughly (a 1 GB DESCRIPTION holds none), and 2^26 bits still take 1.75 million UIDs with one
    /// in 10,000 mistaken for a repeat.
    static let maximumBits = 1 << 26

    /// A filter for an input of `inputSize` bytes (an event takes a few hundred).
    init(inputSize: Int) {
        var bits = 1 << 12
        while bits < inputSize, bits < Self.maximumBits { bits <<= 1 }
        words = [UInt64](repeating: 0, count: bits / 64)
        bitMask = UInt64(bits - 1)
    }

    /// The filter's size in bits.
    var bitCount: Int { words.count * 64 }

    /// Adds a UID's hash; `true` if it may have been added before.
    mutating func insert(_ hash: UInt64) -> Bool {
        var present = true
        // The filter's bits for a hash: double hashing of its two halves.
        let step = (hash >> 32) | 1
        words.withUnsafeMutableBufferPointer { words in
            for probe in 0..<UInt64(Self.probes) {
                let bit = (hash &+ probe &* step) & bitMask
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
        let step = (hash >> 32) | 1
        return words.withUnsafeBufferPointer { words in
            for probe in 0..<UInt64(Self.probes) {
                let bit = (hash &+ probe &* step) & bitMask
                if words[Int(bit >> 6)] & (UInt64(1) << (bit & 63)) == 0 { return false }
            }
            return true
        }
    }

    /// FNV-1a of a UID as StreakCal reads it (its UTF-8, escapes undone, spaces around trimmed).
    static func hash(_ uid: String) -> UInt64 {
        var uid = uid
        return uid.withUTF8 { hash(bytes: $0) }
    }

    /// `hash(_:)` of the UID whose UTF-8 is `bytes`.
    static func hash(bytes: some Collection<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        // Spread the bits FNV leaves in its low half to the high half the probes step with.
        hash ^= hash >> 29
        return hash &* 0xBF58_476D_1CE4_E5B9
    }
}
