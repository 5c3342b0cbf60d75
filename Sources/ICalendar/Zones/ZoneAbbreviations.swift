import Foundation

/// The abbreviations (`CET`, `CEST`, `-03`) and daylight-saving flags of an IANA zone, read from its
/// compiled file in the system's tzdata (TZif, RFC 8536), for the TZNAMEs of a generated VTIMEZONE.
///
/// Foundation knows the same zones but names their offsets only as `GMT+1` on Linux; the TZif file
/// is where the IANA database keeps the abbreviations. A zone whose file cannot be found or read
/// has none (`nil`), and a VTIMEZONE made for it has no TZNAME, which RFC 5545 allows.
///
/// ```swift
/// let berlin = ZoneAbbreviations(identifier: "Europe/Berlin")
/// print(berlin?.abbreviation(offset: 7200, at: 1_711_846_800) ?? "nil")
/// // Prints "CEST" (2024-03-31T01:00Z, the spring transition)
/// ```
struct ZoneAbbreviations: Sendable {
    /// One of the file's local time types.
    struct LocalTimeType: Hashable, Sendable {
        /// Seconds east of UTC.
        var offset: Int
        var isDaylight: Bool
        var abbreviation: String
    }

    /// The file's transitions, ascending, with the type in force from each.
    private(set) var transitions: [(instant: Int64, type: LocalTimeType)] = []
    /// The file's types, in the order the file lists them.
    private(set) var types: [LocalTimeType] = []

    /// Folders tzdata is installed in: `TZDIR` first, then the usual places on Linux and macOS.
    static var directories: [String] {
        let environment = ProcessInfo.processInfo.environment["TZDIR"].map { [$0] } ?? []
        return environment + ["/usr/share/zoneinfo", "/var/db/timezone/zoneinfo", "/usr/lib/zoneinfo", "/usr/share/lib/zoneinfo"]
    }

    /// Reads the zone's TZif file from the first of `directories` that has it; `nil` if none has a
    /// readable one (or `identifier` is not a plain relative path).
    init?(identifier: String, directories: [String] = Self.directories) {
        let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard !identifier.isEmpty, !identifier.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else { return nil }
        for directory in directories {
            guard let data = FileManager.default.contents(atPath: directory + "/" + identifier),
                  let parsed = Self(tzif: Array(data)) else { continue }
            self = parsed
            return
        }
        return nil
    }

    /// Parses TZif bytes (version 1, or the 64-bit data of versions 2 to 4); `nil` if they are not TZif.
    init?(tzif bytes: [UInt8]) {
        func word(_ offset: Int) -> Int {
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        }
        // A header: "TZif", the version, 15 reserved bytes, then six counts.
        func header(at offset: Int) -> (isUT: Int, isStandard: Int, leaps: Int, times: Int, types: Int, characters: Int)? {
            guard offset + 44 <= bytes.count, bytes[offset..<(offset + 4)].elementsEqual("TZif".utf8) else { return nil }
            return (word(offset + 20), word(offset + 24), word(offset + 28), word(offset + 32), word(offset + 36), word(offset + 40))
        }
        guard var counts = header(at: 0) else { return nil }
        var start = 44
        var timeSize = 4
        if bytes[4] >= UInt8(ascii: "2") {
            // Skip the 32-bit data; the 64-bit data after the second header is the same zone, in full.
            let skipped = counts.times * 5 + counts.types * 6 + counts.characters + counts.leaps * 8 + counts.isStandard + counts.isUT
            guard let second = header(at: 44 + skipped) else { return nil }
            counts = second
            start = 44 + skipped + 44
            timeSize = 8
        }
        let typeStart = start + counts.times * (timeSize + 1)
        let characterStart = typeStart + counts.types * 6
        guard counts.types > 0, characterStart + counts.characters <= bytes.count else { return nil }
        for index in 0..<counts.types {
            let entry = typeStart + index * 6
            let offset = Int(Int32(bitPattern: UInt32(word(entry))))
            let nameStart = characterStart + Int(bytes[entry + 5])
            guard nameStart < characterStart + counts.characters else { return nil }
            let nameEnd = bytes[nameStart..<(characterStart + counts.characters)].firstIndex(of: 0) ?? characterStart + counts.characters
            types.append(LocalTimeType(
                offset: offset, isDaylight: bytes[entry + 4] != 0,
                abbreviation: String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)))
        }
        for index in 0..<counts.times {
            var instant: Int64 = 0
            for byte in bytes[(start + index * timeSize)..<(start + (index + 1) * timeSize)] { instant = instant << 8 | Int64(byte) }
            if timeSize == 4 { instant = Int64(Int32(truncatingIfNeeded: instant)) }
            let typeIndex = Int(bytes[start + counts.times * timeSize + index])
            guard typeIndex < types.count else { return nil }
            transitions.append((instant, types[typeIndex]))
        }
    }

    /// The local time type in force from a transition at `instant` to `offset`: the file's own
    /// transition at that instant, else the last one before it with that offset, else the last type
    /// the file lists with that offset (a file may leave future transitions to its footer rule).
    func type(offset: Int, at instant: Int64) -> LocalTimeType? {
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle].instant <= instant { low = middle + 1 } else { high = middle }
        }
        if let found = transitions[..<low].last(where: { $0.type.offset == offset }) { return found.type }
        return transitions.last(where: { $0.type.offset == offset })?.type ?? types.last(where: { $0.offset == offset })
    }

    /// The abbreviation of the type `type(offset:at:)` finds, if any.
    func abbreviation(offset: Int, at instant: Int64) -> String? {
        type(offset: offset, at: instant).map(\.abbreviation).flatMap { $0.isEmpty ? nil : $0 }
    }
}
