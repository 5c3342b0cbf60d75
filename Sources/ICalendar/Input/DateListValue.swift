import Streaks

/// An RDATE or EXDATE line read by StreakCal rather than libical (which keeps 500 values of a line
/// and holds each in its own property): its TZID and VALUE parameters, and each value as a
/// DATE, a DATE-TIME or a PERIOD (RFC 5545 3.8.5.1, 3.8.5.2).
///
/// ```swift
/// let line = ContentLine(text: "RDATE;TZID=Europe/Berlin:20240605T090000,20240606T090000", line: 7,
///                        name: "RDATE", valueColumn: 26)
/// print(DateListValue(line).values.count)
/// // Prints "2"
/// ```
struct DateListValue {
    /// The values that name real dates, in order (a PERIOD with its end or duration).
    var values: [RecurrenceDate] = []
    /// The first value that does not, as written.
    var firstUnreadable: String?
    /// How many values do not.
    var unreadableCount = 0

    /// Reads all the line's values.
    init(_ line: ContentLine) {
        var values: [RecurrenceDate] = []
        self = Self.read(line, keeping: nil) { values.append($0) }
        self.values = values
    }

    /// Reads the line's values and hands each whose start falls on `wanted` days (all when `nil`) to
    /// `keep`, at most `limit` of them (all when `nil`); the values past the limit are still read, so
    /// that `unreadableCount` counts the whole line. The values are read in place, a byte at a time,
    /// and go straight to `keep`: a line of a million values costs no more than the line and the
    /// values kept. The result's `values` is empty.
    static func read(
        _ line: ContentLine, keeping wanted: ClosedRange<Day>?, limit: Int? = nil, each keep: (RecurrenceDate) -> Void
    ) -> DateListValue {
        var list = DateListValue()
        var kept = 0
        let limit = limit ?? .max
        let timeZoneID = Self.timeZoneID(of: line)
        var text = line.text
        let valueStart = text.utf8.count - line.value.utf8.count
        text.withUTF8 { bytes in
            var start = valueStart
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x2C { end += 1 }
                var first = start
                var last = end
                while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
                while last > first, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
                if first < last || end < bytes.count {
                    let item = UnsafeBufferPointer(rebasing: bytes[first..<last])
                    if let value = Self.value(item, timeZoneID: timeZoneID) {
                        if kept < limit, wanted.map({ $0.contains(value.start.day) }) ?? true {
                            keep(value)
                            kept += 1
                        }
                    } else {
                        list.unreadableCount += 1
                        if list.firstUnreadable == nil {
                            list.firstUnreadable = String(decoding: item.prefix(64), as: UTF8.self)
                        }
                    }
                }
                start = end + 1
            }
        }
        return list
    }

    private init() {}

    /// One value: `20240605`, `20240605T090000[Z]`, or a PERIOD of a DATE-TIME and an end or a duration.
    private static func value(_ bytes: UnsafeBufferPointer<UInt8>, timeZoneID: String?) -> RecurrenceDate? {
        func time(_ part: UnsafeBufferPointer<UInt8>) -> ICalTime? {
            guard var time = ICalTime(iCalendarBytes: part) else { return nil }
            if !time.isDate, !time.isUTC { time.timeZoneID = timeZoneID }
            return time
        }
        guard let slash = bytes.firstIndex(of: 0x2F) else {
            return time(bytes).map { RecurrenceDate(start: $0, end: nil, duration: nil) }
        }
        // A PERIOD is made of DATE-TIMEs (RFC 5545 3.3.9).
        guard let start = time(UnsafeBufferPointer(rebasing: bytes[..<slash])), !start.isDate else { return nil }
        let rest = UnsafeBufferPointer(rebasing: bytes[(slash + 1)...])
        if let end = time(rest), !end.isDate { return RecurrenceDate(start: start, end: end, duration: nil) }
        if case .duration(let duration) = ICalDuration.reading(String(decoding: rest, as: UTF8.self)) {
            return RecurrenceDate(start: start, end: nil, duration: duration)
        }
        return nil
    }

    /// The value of the line's first TZID parameter, as `parameters(of:)` gives it; read from the
    /// bytes when the parameters are ASCII (a DATE-TIME list's line is one of a series' many).
    static func timeZoneID(of line: ContentLine) -> String? {
        let headCount = line.text.utf8.count - line.value.utf8.count - (line.valueColumn == nil ? 0 : 1)
        var text = line.text
        let found: String?? = text.withUTF8 { bytes in
            let head = UnsafeBufferPointer(rebasing: bytes[..<headCount])
            // Non-ASCII names uppercase by Unicode's rules: those go the general way.
            guard head.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard var index = head.firstIndex(of: 0x3B) else { return .some(nil) }
            index += 1
            while index <= head.count {
                // One parameter: up to a ; outside quotes.
                var end = index
                var inQuotes = false
                while end < head.count, head[end] != 0x3B || inQuotes {
                    if head[end] == 0x22 { inQuotes.toggle() }
                    end += 1
                }
                let parameter = UnsafeBufferPointer(rebasing: head[index..<end])
                if let equals = parameter.firstIndex(of: 0x3D), equals == 4,
                   zip(parameter[..<4], "TZID".utf8).allSatisfy({ $0 & 0xDF == $1 }) {
                    return .some(String(decoding: parameter[(equals + 1)...].filter { $0 != 0x22 }, as: UTF8.self))
                }
                index = end + 1
            }
            return .some(nil)
        }
        return found ?? parameters(of: line).first { $0.name == "TZID" }?.value
    }

    /// The line's parameters (`;NAME=VALUE`, the value unquoted), names uppercased.
    static func parameters(of line: ContentLine) -> [(name: String, value: String)] {
        let head = line.text.utf8.prefix(line.text.utf8.count - line.value.utf8.count - (line.valueColumn == nil ? 0 : 1))
        var result: [(name: String, value: String)] = []
        var current: [UInt8] = []
        var inQuotes = false
        func finish() {
            if let equals = current.firstIndex(of: 0x3D) {
                let name = String(decoding: current[..<equals], as: UTF8.self).uppercased()
                let value = current[(equals + 1)...].filter { $0 != 0x22 }
                result.append((name, String(decoding: value, as: UTF8.self)))
            }
            current.removeAll()
        }
        var afterName = false
        for byte in head {
            if !afterName {
                afterName = byte == 0x3B
                continue
            }
            if byte == 0x22 { inQuotes.toggle() }
            if byte == 0x3B, !inQuotes {
                finish()
            } else {
                current.append(byte)
            }
        }
        if afterName { finish() }
        return result
    }
}
