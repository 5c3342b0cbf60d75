/// A hash that is the same in every run and on every platform (Swift's `Hasher` is seeded anew
/// each run): 64-bit FNV-1a. For names and change checks, not for security.
///
/// One definition for every stable name: annotation UIDs, the download cache's files, batch
/// report names that clash, and the batch manifest's content checks.
package enum StableHash {
    /// The FNV-1a offset basis: the hash of nothing.
    package static let empty: UInt64 = 0xcbf2_9ce4_8422_2325

    /// `bytes` hashed on from `seed` (``empty`` to start).
    package static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes, from seed: UInt64 = empty) -> UInt64 {
        var value = seed
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
        return value
    }

    /// `bytes` in memory hashed on from `seed`: the same value as the sequence's, read in place
    /// (a file's megabyte at a time, with no iterator in the way).
    package static func fnv1a(_ bytes: UnsafeRawBufferPointer, from seed: UInt64 = empty) -> UInt64 {
        var value = seed
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
        return value
    }

    /// The hash of `text`'s UTF-8 bytes.
    package static func fnv1a(_ text: String) -> UInt64 { fnv1a(text.utf8) }

    /// Eight hexadecimal digits of `text`'s hash, its halves XORed (`1c2e4f7a`).
    package static func hexadecimal(_ text: String) -> String {
        let value = fnv1a(text)
        return padded(UInt64(UInt32(truncatingIfNeeded: value ^ (value >> 32))), digits: 8)
    }

    /// Sixteen hexadecimal digits of a whole hash.
    package static func hexadecimal(_ value: UInt64) -> String { padded(value, digits: 16) }

    private static func padded(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
