/// Property names, each with a value, matched against a line's bytes in any case without making a
/// String of the name (the scanner and the import's event reader look up a name on every line).
struct PropertyNameTable<Value> {
    /// The names (uppercase ASCII bytes) with their values, by the names' length.
    private var byLength: [[(name: [UInt8], value: Value)]] = []

    /// A table of `entries`; names are uppercased. A later entry for the same name is never found.
    init(_ entries: some Sequence<(String, Value)>) {
        for (name, value) in entries {
            let bytes = Array(name.uppercased().utf8)
            if byLength.count <= bytes.count {
                byLength += Array(repeating: [], count: bytes.count + 1 - byLength.count)
            }
            byLength[bytes.count].append((bytes, value))
        }
    }

    /// The value of the name `bytes[range]`, in any case; `nil` if it is not in the table.
    func value(of bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> Value? {
        guard range.count < byLength.count else { return nil }
        for entry in byLength[range.count] where Self.equalsIgnoringCase(bytes, range, entry.name) {
            return entry.value
        }
        return nil
    }

    /// Whether `bytes[range]` is `name` (uppercase ASCII), in any case.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: [UInt8]) -> Bool {
        guard range.count == name.count else { return false }
        var index = range.lowerBound
        for expected in name {
            let byte = bytes[index]
            guard byte == expected || (byte >= 0x61 && byte <= 0x7A && byte - 0x20 == expected) else { return false }
            index += 1
        }
        return true
    }
}

extension PropertyNameTable: Sendable where Value: Sendable {}
