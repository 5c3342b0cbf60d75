import Streaks

/// An RRULE or EXRULE value (RFC 5545 §3.3.10), read from its text into Swift values.
///
/// Every value is range-checked as RFC 5545 gives it; a rule that breaks a range, repeats a part or
/// has a part StreakCal does not know is not read, and ``init(parsing:)`` says which part.
///
/// ```swift
/// let rule = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=-1FR;COUNT=3")
/// print(rule.frequency, rule.weekdays, rule.count)
/// // Prints "monthly [RecurrenceRule.WeekdayNumber(ordinal: -1, weekday: friday)] Optional(3)"
/// ```
struct RecurrenceRule: Hashable, Sendable {
    /// FREQ, from the shortest period to the longest.
    enum Frequency: Int, Comparable, Sendable, CaseIterable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly

        static func < (lhs: Frequency, rhs: Frequency) -> Bool { lhs.rawValue < rhs.rawValue }

        var name: String {
            switch self {
            case .secondly: "SECONDLY"
            case .minutely: "MINUTELY"
            case .hourly: "HOURLY"
            case .daily: "DAILY"
            case .weekly: "WEEKLY"
            case .monthly: "MONTHLY"
            case .yearly: "YEARLY"
            }
        }
    }

    /// A BYDAY value: a weekday, and for MONTHLY and YEARLY rules which one of the month or year
    /// (`2MO` the second Monday, `-1FR` the last Friday; 0 for every one).
    struct WeekdayNumber: Hashable, Sendable {
        var ordinal: Int
        var weekday: Weekday
    }

    var frequency: Frequency
    var interval = 1
    /// COUNT: how many instances the rule gives in all, DTSTART included.
    var count: Int?
    /// UNTIL: the last instant or day an instance may start.
    var until: ICalTime?
    var seconds: [Int] = []
    var minutes: [Int] = []
    var hours: [Int] = []
    var weekdays: [WeekdayNumber] = []
    var monthDays: [Int] = []
    var yearDays: [Int] = []
    var weekNumbers: [Int] = []
    var months: [Int] = []
    var setPositions: [Int] = []
    var weekStart: Weekday = .monday

    /// Why a rule's text cannot be read: the part and what is wrong with it.
    struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        var description: String
    }

    /// Reads a rule's text (`FREQ=WEEKLY;BYDAY=MO,WE`): names are read in any case, values exactly.
    init(parsing text: String) throws(ParseError) {
        try self.init(readingEachPart: text)
    }

    /// `init(parsing:)` part by part, in any form RFC 5545 allows, saying what is wrong.
    init(readingEachPart text: String) throws(ParseError) {
        var frequency: Frequency?
        var seen: Set<String> = []
        var rule = RecurrenceRule(frequency: .daily)
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            guard let equals = part.firstIndex(of: "=") else {
                throw ParseError(description: "\"\(part)\" is not NAME=VALUE")
            }
            let name = part[..<equals].trimmingSpaces.uppercased()
            let value = part[part.index(after: equals)...].trimmingSpaces
            guard seen.insert(name).inserted else { throw ParseError(description: "\(name) is given twice") }
            switch name {
            case "FREQ":
                guard let known = Frequency.allCases.first(where: { $0.name == value.uppercased() }) else {
                    throw ParseError(description: "FREQ=\(value) is not a frequency")
                }
                frequency = known
            case "INTERVAL":
                rule.interval = try Self.integer(value, name: name, in: 1...Int(Int32.max))
            case "COUNT":
                rule.count = try Self.integer(value, name: name, in: 1...Int.max)
            case "UNTIL":
                guard let until = ICalTime(iCalendarText: value) else {
                    throw ParseError(description: "UNTIL=\(value) is not a real date or date-time")
                }
                rule.until = until
            case "BYSECOND": rule.seconds = try Self.list(value, name: name, in: 0...60)
            case "BYMINUTE": rule.minutes = try Self.list(value, name: name, in: 0...59)
            case "BYHOUR": rule.hours = try Self.list(value, name: name, in: 0...23)
            case "BYMONTHDAY": rule.monthDays = try Self.list(value, name: name, in: -31...31, nonZero: true)
            case "BYYEARDAY": rule.yearDays = try Self.list(value, name: name, in: -366...366, nonZero: true)
            case "BYWEEKNO": rule.weekNumbers = try Self.list(value, name: name, in: -53...53, nonZero: true)
            case "BYMONTH": rule.months = try Self.list(value, name: name, in: 1...12)
            case "BYSETPOS": rule.setPositions = try Self.list(value, name: name, in: -366...366, nonZero: true)
            case "BYDAY":
                rule.weekdays = try value.split(separator: ",").map { item throws(ParseError) in try Self.weekdayNumber(item) }
            case "WKST":
                guard let weekday = Self.weekday(value.uppercased()) else {
                    throw ParseError(description: "WKST=\(value) is not a weekday")
                }
                rule.weekStart = weekday
            case "RSCALE":
                guard value.uppercased() == "GREGORIAN" else {
                    throw ParseError(description: "RSCALE=\(value): only the Gregorian calendar is supported")
                }
            case "SKIP":
                // RFC 7529: with the Gregorian calendar, invalid dates are omitted as RFC 5545 does.
                guard value.uppercased() == "OMIT" else {
                    throw ParseError(description: "SKIP=\(value): only OMIT is supported")
                }
            default:
                throw ParseError(description: "\(name) is not a recurrence rule part")
            }
        }
        guard let frequency else { throw ParseError(description: "FREQ is missing") }
        guard rule.count == nil || rule.until == nil else {
            throw ParseError(description: "COUNT and UNTIL are both given (RFC 5545 allows one)")
        }
        rule.frequency = frequency
        let ordinals = rule.weekdays.filter { $0.ordinal != 0 }.map(\.code)
        if !ordinals.isEmpty, frequency < .monthly || !rule.weekNumbers.isEmpty {
            // Read without its ordinals the rule would have instances its author did not write.
            throw ParseError(description: "BYDAY=\(ordinals.joined(separator: ",")): a weekday with an ordinal is only allowed with FREQ=MONTHLY, or YEARLY without BYWEEKNO (RFC 5545 3.3.10)")
        }
        self = rule
    }

    private init(frequency: Frequency) {
        self.frequency = frequency
    }

    private static func integer(_ text: String, name: String, in range: ClosedRange<Int>) throws(ParseError) -> Int {
        var digits = Substring(text)
        var sign = 1
        if let first = digits.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw ParseError(description: "\(name)=\(text) is not a number")
        }
        // Too many digits for an Int is out of range too, and said so.
        guard let magnitude = Int(digits), range.contains(sign * magnitude) else {
            throw ParseError(description: "\(name)=\(text) is out of range (\(range.lowerBound)...\(range.upperBound))")
        }
        return sign * magnitude
    }

    private static func list(_ text: String, name: String, in range: ClosedRange<Int>, nonZero: Bool = false) throws(ParseError) -> [Int] {
        var values: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let value = try integer(item.trimmingSpaces, name: name, in: range)
            if nonZero, value == 0 { throw ParseError(description: "\(name) has 0, which names no day, week or position") }
            if !values.contains(value) { values.append(value) }
        }
        return values
    }

    private static func weekday(_ code: String) -> Weekday? {
        switch code {
        case "SU": .sunday
        case "MO": .monday
        case "TU": .tuesday
        case "WE": .wednesday
        case "TH": .thursday
        case "FR": .friday
        case "SA": .saturday
        default: nil
        }
    }

    private static func weekdayNumber(_ item: Substring) throws(ParseError) -> WeekdayNumber {
        let text = item.trimmingSpaces.uppercased()
        guard text.count >= 2, let weekday = weekday(String(text.suffix(2))) else {
            throw ParseError(description: "BYDAY value \(item) is not a weekday")
        }
        let ordinalText = String(text.dropLast(2))
        let ordinal = ordinalText.isEmpty ? 0 : try integer(ordinalText, name: "BYDAY ordinal", in: -53...53)
        if !ordinalText.isEmpty, ordinal == 0 { throw ParseError(description: "BYDAY value \(item) has the ordinal 0") }
        return WeekdayNumber(ordinal: ordinal, weekday: weekday)
    }
}

extension RecurrenceRule {
    /// Parts RFC 5545 §3.3.10's table does not allow with the rule's frequency, which are read as
    /// limits on the days (so they can only take instances away), said in words for a warning;
    /// empty for a rule without such parts.
    var misplacedParts: [String] {
        var parts: [String] = []
        if !weekNumbers.isEmpty, frequency != .yearly {
            parts.append("BYWEEKNO is only meaningful with FREQ=YEARLY; it limits the days to those weeks")
        }
        if frequency == .weekly, !monthDays.isEmpty {
            parts.append("BYMONTHDAY is not allowed with FREQ=WEEKLY; it limits the days")
        }
        if !yearDays.isEmpty, [.daily, .weekly, .monthly].contains(frequency) {
            parts.append("BYYEARDAY is not allowed with FREQ=\(frequency.name); it limits the days")
        }
        return parts
    }

    /// Why no date can ever match the rule's day parts, if that can be seen from them alone: a
    /// BYMONTHDAY no BYMONTH has (February 30), a BYYEARDAY outside every BYMONTH, a BYDAY ordinal
    /// no month or year has. `nil` when some date may match.
    var impossibility: String? {
        let monthsToCheck = months.isEmpty ? Array(1...12) : months
        let longest = monthsToCheck.map { Day.daysInMonth(year: 2000, month: $0) }.max() ?? 31
        if !monthDays.isEmpty, monthDays.allSatisfy({ abs($0) > longest }) {
            return "BYMONTHDAY=\(monthDays.map(String.init).joined(separator: ",")) is in no month of BYMONTH=\(monthsToCheck.map(String.init).joined(separator: ","))"
        }
        if !yearDays.isEmpty, !months.isEmpty {
            // Day-of-year ranges of the months, in common and in leap years, from the start and from the end.
            let reachable = yearDays.contains { yearDay in
                [365, 366].contains { length in
                    let dayOfYear = yearDay > 0 ? yearDay : length + 1 + yearDay
                    guard dayOfYear >= 1, dayOfYear <= length else { return false }
                    let year = length == 366 ? 2000 : 2001
                    return months.contains(Day(normalizingYear: year, month: 1, day: dayOfYear).month)
                }
            }
            if !reachable {
                return "BYYEARDAY=\(yearDays.map(String.init).joined(separator: ",")) falls in no month of BYMONTH=\(months.map(String.init).joined(separator: ","))"
            }
        }
        // A sub-daily period holds a fixed number of instances (one second; a minute's seconds; an
        // hour's minutes × seconds, DTSTART's when the rule names none): BYSETPOS beyond it picks none.
        if !setPositions.isEmpty, frequency <= .hourly {
            let seconds = max(1, Set(self.seconds.map { min($0, 59) }).count)
            let perPeriod = switch frequency {
            case .secondly: 1
            case .minutely: seconds
            default: max(1, Set(minutes).count) * seconds
            }
            if setPositions.allSatisfy({ abs($0) > perPeriod }) {
                let name = frequency.name
                return "BYSETPOS=\(setPositions.map(String.init).joined(separator: ",")) picks none of the \(perPeriod) \(perPeriod == 1 ? "instance" : "instances") a \(name) period holds"
            }
        }
        let ordinals = weekdays.filter { $0.ordinal != 0 }
        if frequency >= .monthly, !ordinals.isEmpty, ordinals.count == weekdays.count {
            let scopeIsMonth = frequency == .monthly || !months.isEmpty
            let limit = scopeIsMonth ? 5 : 53
            if ordinals.allSatisfy({ abs($0.ordinal) > limit }) {
                return "BYDAY=\(ordinals.map(\.code).joined(separator: ",")): no \(scopeIsMonth ? "month" : "year") has that many of a weekday"
            }
        }
        return nil
    }
}

extension RecurrenceRule.WeekdayNumber {
    /// The value as written: `MO`, `2MO`, `-1FR`.
    var code: String {
        let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        return (ordinal == 0 ? "" : String(ordinal)) + names[weekday.rawValue]
    }
}
