import Streaks

/// A DATE or DATE-TIME as a calendar writes it: wall-clock fields, UTC or not, and a TZID.
struct ICalTime: Hashable, Sendable {
    var local: LocalDateTime
    var isDate: Bool
    var isUTC: Bool
    var timeZoneID: String?

    init(local: LocalDateTime, isDate: Bool, isUTC: Bool, timeZoneID: String?) {
        self.local = local
        self.isDate = isDate
        self.isUTC = isUTC
        self.timeZoneID = timeZoneID
    }

    var day: Day { local.day }
}

/// An RFC 5545 duration: a nominal part (days and weeks, in wall-clock time) and an exact part (seconds).
struct ICalDuration: Hashable, Sendable {
    var isNegative: Bool
    var days: Int
    var seconds: Int

    init(isNegative: Bool, days: Int, seconds: Int) {
        self.isNegative = isNegative
        self.days = days
        self.seconds = seconds
    }

    /// The sign as a factor.
    var sign: Int { isNegative ? -1 : 1 }

    /// How a duration's text reads.
    enum Reading: Equatable {
        case duration(ICalDuration)
        /// Well formed, but too long to count in seconds (past `Int`).
        case tooLong
        /// Not an RFC 5545 duration.
        case malformed
    }

    /// Reads a DURATION value as written (`P1W`, `-PT15M`, `P1DT2H`, `PT4294967356S`), exactly.
    static func reading(_ text: String) -> Reading {
        var bytes = Array(text.utf8)[...]
        var isNegative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            isNegative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        guard let p = bytes.first, p | 0x20 == UInt8(ascii: "p") else { return .malformed }
        bytes = bytes.dropFirst()
        var days = 0
        var seconds = 0
        var inTime = false
        var number: Int?
        var sawPart = false
        for byte in bytes {
            if byte >= 0x30, byte <= 0x39 {
                let (times, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                let (sum, carry) = times.addingReportingOverflow(Int(byte - 0x30))
                guard !overflow, !carry else { return .tooLong }
                number = sum
                continue
            }
            let unit = byte | 0x20
            if unit == UInt8(ascii: "t"), number == nil, !inTime {
                inTime = true
                continue
            }
            guard let value = number else { return .malformed }
            let (factor, isDays): (Int, Bool)
            switch (unit, inTime) {
            case (UInt8(ascii: "w"), false): (factor, isDays) = (7, true)
            case (UInt8(ascii: "d"), false): (factor, isDays) = (1, true)
            case (UInt8(ascii: "h"), true): (factor, isDays) = (3600, false)
            case (UInt8(ascii: "m"), true): (factor, isDays) = (60, false)
            case (UInt8(ascii: "s"), true): (factor, isDays) = (1, false)
            default: return .malformed
            }
            let (scaled, overflow) = value.multipliedReportingOverflow(by: factor)
            guard !overflow else { return .tooLong }
            if isDays {
                let (sum, carry) = days.addingReportingOverflow(scaled)
                guard !carry else { return .tooLong }
                days = sum
            } else {
                let (sum, carry) = seconds.addingReportingOverflow(scaled)
                guard !carry else { return .tooLong }
                seconds = sum
            }
            number = nil
            sawPart = true
        }
        guard sawPart, number == nil else { return .malformed }
        // Days become seconds when the session's end is computed: keep that within Int64 too.
        guard days <= 100_000_000, seconds <= Int(Int64.max / 4) else { return .tooLong }
        return .duration(ICalDuration(isNegative: isNegative, days: days, seconds: seconds))
    }
}

extension ICalTime {
    /// A DATE (`20240131`) or DATE-TIME (`20240131T090000`, `...Z`) as written in a value, or `nil`
    /// unless it is a real date and time of day.
    init?(iCalendarText text: String) {
        var text = text
        guard let time = text.withUTF8({ ICalTime(iCalendarBytes: $0) }) else { return nil }
        self = time
    }

    /// `init(iCalendarText:)` on the value's UTF-8 bytes.
    /// Whether a DATE or DATE-TIME value is written as RFC 5545 writes one (3.3.4, 3.3.5): eight
    /// digits, or eight digits, `T`, six digits and an optional `Z`, spaces around it aside.
    /// libical reads other forms too (`20240701T02000Z` as a floating 02:00), which the import
    /// does not guess at.
    static func isWellFormed(_ text: some StringProtocol) -> Bool {
        let bytes = Array(text.trimmingSpaces.utf8)
        func digits(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        switch bytes.count {
        case 8: return digits(0..<8)
        case 15, 16:
            guard digits(0..<8), bytes[8] == UInt8(ascii: "T"), digits(9..<15) else { return false }
            return bytes.count == 15 || bytes[15] == UInt8(ascii: "Z")
        default: return false
        }
    }

    init?(iCalendarBytes bytes: UnsafeBufferPointer<UInt8>) {
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count == 8 || bytes.count == 15 || bytes.count == 16,
              let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
              (1...12).contains(month), (1...Day.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        if bytes.count == 8 {
            self.init(local: LocalDateTime(normalizingYear: year, month: month, day: day), isDate: true, isUTC: false, timeZoneID: nil)
            return
        }
        guard bytes[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13),
              let second = number(13..<15), hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let isUTC = bytes.count == 16
        if isUTC, bytes[15] != UInt8(ascii: "Z") { return nil }
        self.init(
            local: LocalDateTime(normalizingYear: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59)),
            isDate: false, isUTC: isUTC, timeZoneID: nil)
    }
}
