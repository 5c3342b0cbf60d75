import Streaks

/// The wall-clock starts one recurrence rule gives from its DTSTART, in order, at a bounded cost.
///
/// RFC 5545 §3.3.10 computes a rule period by period (a year, a month, a week, a day, an hour, a
/// minute or a second, every INTERVAL-th one): the BYxxx parts expand or limit the dates and times
/// of each period, BYSETPOS picks among them, and what the rule leaves out is taken from DTSTART
/// (`FREQ=YEARLY` alone recurs on DTSTART's month and day; `FREQ=YEARLY;BYWEEKNO=20` on DTSTART's
/// weekday of week 20). Dates that do not exist (February 30) are passed over.
///
/// Each period looked at and each candidate date tested is a step; past `stepBudget` steps the
/// iterator stops and says so (`isOverBudget`), so no rule — one that never matches, such as
/// `FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30`, or one that matches once in years — costs more than its
/// budget. Sub-daily rules step over whole days, hours and minutes that cannot match.
///
/// ```swift
/// let rule = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=-1FR")
/// var iterator = RecurrenceIterator(rule: rule, dtstart: LocalDateTime(year: 2024, month: 1, day: 1, hour: 9)!,
///                                   isDate: false, stepBudget: 10_000)
/// print(iterator.next()!, iterator.next()!)
/// // Prints "2024-01-26T09:00:00 2024-02-23T09:00:00"
/// ```
struct RecurrenceIterator {
    let rule: RecurrenceRule
    let dtstart: LocalDateTime
    let isDate: Bool
    let stepBudget: Int
    /// Steps taken so far.
    private(set) var steps = 0
    /// The budget ran out before the rule did.
    private(set) var isOverBudget = false

    /// The day parts with DTSTART's defaults filled in.
    private let weekdays: [RecurrenceRule.WeekdayNumber]
    private let monthDays: [Int]
    private let months: [Int]
    /// Seconds of the day an instance of a daily or longer period may start at, sorted.
    private let timesOfDay: [Int]
    /// For sub-daily rules: the first period's start and a period's length in seconds.
    private let subDailyBase: Int64
    private let subDailyLength: Int64
    /// The first day of DTSTART's week (by WKST), for weekly periods.
    private let firstWeekStart: Day

    private var period = 0
    /// The starts of the period being handed out: the first `pendingCount` of `pending` (the array is
    /// kept from period to period and written over, so that a period allocates and clears nothing).
    private var pending: [LocalDateTime] = []
    private var pendingCount = 0
    private var pendingIndex = 0
    private var finished = false
    /// A period's days (the first `periodDayCount`) and, for BYSETPOS, its candidate starts.
    private var periodDays: [Day] = []
    private var periodDayCount = 0
    private var candidates: [LocalDateTime] = []
    /// Whether the day parts need a day's year, month and day (not only its weekday).
    private let needsDateParts: Bool
    /// The weekdays a day must be on (bit `Weekday.rawValue`; all seven when BYDAY names none), when
    /// nothing else limits the days of a walk without date parts: such a walk then tests a bit per
    /// day (`addMatchingDays`); `nil` when week numbers limit them too.
    private let weekdayMask: UInt8?

    /// The last year RFC 5545's four-digit years can name.
    static let lastYear = 9999
    /// Its last day: a period that starts after it ends the rule.
    private static let lastDay = Day(normalizingYear: lastYear, month: 12, day: 31)
    /// DTSTART's year and its month counted from year 0 (`year * 12 + month - 1`), for yearly and monthly periods.
    private let startYear: Int
    private let startMonthIndex: Int

    init(rule: RecurrenceRule, dtstart: LocalDateTime, isDate: Bool, stepBudget: Int) {
        self.rule = rule
        self.dtstart = dtstart
        self.isDate = isDate
        self.stepBudget = stepBudget
        let start = dtstart.day
        let (startYear, startMonth, startDayOfMonth) = start.components
        self.startYear = startYear
        startMonthIndex = startYear * 12 + startMonth - 1
        var weekdays = rule.weekdays
        var monthDays = rule.monthDays
        var months = rule.months
        let noDayParts = weekdays.isEmpty && monthDays.isEmpty && rule.yearDays.isEmpty && rule.weekNumbers.isEmpty
        switch rule.frequency {
        case .weekly where noDayParts:
            weekdays = [.init(ordinal: 0, weekday: start.weekday)]
        case .monthly where noDayParts:
            monthDays = [startDayOfMonth]
        case .yearly where noDayParts:
            monthDays = [startDayOfMonth]
            if months.isEmpty { months = [startMonth] }
        case .yearly where weekdays.isEmpty && monthDays.isEmpty && rule.yearDays.isEmpty:
            // BYWEEKNO names weeks; the day within them comes from DTSTART (RFC 5545 §3.3.10).
            weekdays = [.init(ordinal: 0, weekday: start.weekday)]
        default:
            break
        }
        self.weekdays = weekdays
        self.monthDays = monthDays
        self.months = months.sorted()
        needsDateParts = !months.isEmpty || !monthDays.isEmpty || !rule.yearDays.isEmpty || weekdays.contains { $0.ordinal != 0 }
        if !rule.weekNumbers.isEmpty, rule.frequency != .yearly {
            weekdayMask = nil
        } else {
            weekdayMask = weekdays.isEmpty ? 0x7F : weekdays.reduce(0) { $0 | 1 << $1.weekday.rawValue }
        }

        let (hour, minute, second) = dtstart.timeOfDay
        if isDate {
            timesOfDay = [0]
        } else {
            let hours = rule.hours.isEmpty ? [hour] : rule.hours
            let minutes = rule.minutes.isEmpty ? [minute] : rule.minutes
            let seconds = (rule.seconds.isEmpty ? [second] : rule.seconds).map { min($0, 59) }
            timesOfDay = Array(Set(hours.flatMap { h in minutes.flatMap { m in seconds.map { h * 3600 + m * 60 + $0 } } })).sorted()
        }
        let unit: Int64
        switch rule.frequency {
        case .secondly: unit = 1
        case .minutely: unit = 60
        case .hourly: unit = 3600
        default: unit = 86_400
        }
        subDailyLength = unit * Int64(rule.interval)
        subDailyBase = dtstart.secondsSince1970 - ((dtstart.secondsSince1970 % unit) + unit) % unit
        firstWeekStart = start.advanced(by: -start.weekday.daysSince(rule.weekStart))
    }

    /// Moves ahead to the period that holds `local` (or the one before it), skipping the periods in
    /// between at no cost; never moves back. Only for rules without COUNT, which counts every instance.
    mutating func skip(toward local: LocalDateTime) {
        guard local > dtstart else { return }
        let interval = rule.interval
        let target: Int
        switch rule.frequency {
        case .yearly:
            // A week-numbered year can begin in the December before.
            target = (local.day.year - 1 - dtstart.day.year).dividedRoundingDown(by: interval)
        case .monthly:
            let (year, month, _) = local.day.components
            let (startYear, startMonth, _) = dtstart.day.components
            target = ((year * 12 + month) - (startYear * 12 + startMonth)).dividedRoundingDown(by: interval)
        case .weekly:
            target = (firstWeekStart.distance(to: local.day)).dividedRoundingDown(by: 7 * interval)
        case .daily:
            target = (dtstart.day.distance(to: local.day)).dividedRoundingDown(by: interval)
        case .hourly, .minutely, .secondly:
            target = Int((local.secondsSince1970 - subDailyBase).dividedRoundingDown(by: subDailyLength))
        }
        if target > period {
            period = target
            pendingCount = 0
            pendingIndex = 0
            periodCursor = nil
        }
    }

    /// The next start, or `nil` when the rule has no more (past year 9999) or the budget is spent.
    mutating func next() -> LocalDateTime? {
        while true {
            if pendingIndex < pendingCount {
                defer { pendingIndex += 1 }
                return pending[pendingIndex]
            }
            if periodCursor != nil, let start = nextOfPeriod() { return start }
            guard !finished else { return nil }
            pendingCount = 0
            pendingIndex = 0
            fillNextPeriod()
        }
    }

    /// Where the walk over a period's days and times stands (`nextOfPeriod`), while one is walked.
    private var periodCursor: (day: Int, time: Int)?

    /// The next start of the period's days and times (a day and a time of day at a time, a step
    /// each), from DTSTART on; `nil` when the period is done or the budget spent. A period of a
    /// dense rule (every second of 90 days of a year) gives its instances one by one, up to the
    /// cap, rather than all at once or none.
    private mutating func nextOfPeriod() -> LocalDateTime? {
        while let cursor = periodCursor {
            guard cursor.day < periodDayCount else {
                periodCursor = nil
                return nil
            }
            let start = LocalDateTime(day: periodDays[cursor.day], secondOfDay: timesOfDay[cursor.time])
            periodCursor = cursor.time + 1 < timesOfDay.count ? (cursor.day, cursor.time + 1) : (cursor.day + 1, 0)
            guard step() else {
                periodCursor = nil
                return nil
            }
            if start >= dtstart { return start }
        }
        return nil
    }

    /// Counts a step; `false` (and the iterator finished) once the budget is spent.
    private mutating func step(_ count: Int = 1) -> Bool {
        steps += count
        if steps > stepBudget {
            isOverBudget = true
            finished = true
            return false
        }
        return true
    }

    private mutating func appendPending(_ start: LocalDateTime) {
        if pendingCount < pending.count {
            pending[pendingCount] = start
        } else {
            pending.append(start)
        }
        pendingCount += 1
    }

    private mutating func appendPeriodDay(_ day: Day) {
        if periodDayCount < periodDays.count {
            periodDays[periodDayCount] = day
        } else {
            periodDays.append(day)
        }
        periodDayCount += 1
    }

    // MARK: Periods

    private mutating func fillNextPeriod() {
        switch rule.frequency {
        case .yearly, .monthly, .weekly, .daily:
            fillDayPeriod()
        case .hourly, .minutely, .secondly:
            fillSubDailyPeriod()
        }
    }

    /// One period of a daily or longer rule: its days, then their times, BYSETPOS, and nothing before DTSTART.
    private mutating func fillDayPeriod() {
        guard step() else { return }
        let index = period
        period += 1
        periodDayCount = 0
        switch rule.frequency {
        case .yearly:
            let year = startYear + index * rule.interval
            guard year <= Self.lastYear else { return finish() }
            addYearDays(of: year)
        case .monthly:
            let monthIndex = startMonthIndex + index * rule.interval
            let year = (monthIndex).dividedRoundingDown(by: 12)
            let month = monthIndex - year * 12 + 1
            guard year <= Self.lastYear else { return finish() }
            if !months.isEmpty, !months.contains(month) { return }
            let first = Day(normalizingYear: year, month: month, day: 1)
            let length = Day.daysInMonth(year: year, month: month)
            addMatchingDays(first..<first.advanced(by: length), scope: .month)
        case .weekly:
            let first = firstWeekStart.advanced(by: 7 * index * rule.interval)
            guard first <= Self.lastDay else { return finish() }
            addMatchingDays(first..<first.advanced(by: 7), scope: .none)
        default:
            let day = dtstart.day.advanced(by: index * rule.interval)
            guard day <= Self.lastDay else { return finish() }
            addMatchingDays(day..<day.advanced(by: 1), scope: .none)
        }
        guard periodDayCount > 0, !isOverBudget else { return }
        if rule.setPositions.isEmpty {
            // Without BYSETPOS the candidates are the starts (days ascending, and times within a
            // day): walked one by one (`nextOfPeriod`).
            periodCursor = (0, 0)
            return
        }
        candidates.removeAll(keepingCapacity: true)
        for index in 0..<periodDayCount {
            for time in timesOfDay { candidates.append(LocalDateTime(day: periodDays[index], secondOfDay: time)) }
        }
        emitCandidates()
    }

    /// The days of a yearly period: the year's days that match, or with BYWEEKNO the days of the
    /// named weeks of the week-numbering year (ISO 8601 weeks starting on WKST), which can begin in
    /// December before and end in January after.
    private mutating func addYearDays(of year: Int) {
        if !rule.weekNumbers.isEmpty {
            let firstWeek = Self.firstWeekStart(of: year, weekStart: rule.weekStart)
            let weekCount = firstWeek.distance(to: Self.firstWeekStart(of: year + 1, weekStart: rule.weekStart)) / 7
            for number in Set(rule.weekNumbers.map { $0 > 0 ? $0 : weekCount + 1 + $0 }).sorted()
            where number >= 1 && number <= weekCount {
                let start = firstWeek.advanced(by: 7 * (number - 1))
                addMatchingDays(start..<start.advanced(by: 7), scope: .none)
            }
            return
        }
        if !months.isEmpty {
            for month in months {
                let first = Day(normalizingYear: year, month: month, day: 1)
                addMatchingDays(first..<first.advanced(by: Day.daysInMonth(year: year, month: month)), scope: .month)
            }
            return
        }
        let first = Day(normalizingYear: year, month: 1, day: 1)
        addMatchingDays(first..<Day(normalizingYear: year + 1, month: 1, day: 1), scope: .year)
    }

    /// The first day of week 1 of a week-numbering year: the week (from `weekStart`) that has at
    /// least four days of the year.
    static func firstWeekStart(of year: Int, weekStart: Weekday) -> Day {
        let januaryFirst = Day(normalizingYear: year, month: 1, day: 1)
        let offset = januaryFirst.weekday.daysSince(weekStart)
        return januaryFirst.advanced(by: offset <= 3 ? -offset : 7 - offset)
    }

    /// Where a BYDAY ordinal counts from: the month, the year, or nowhere (ordinals are ignored).
    private enum OrdinalScope {
        case month, year, none
    }

    /// Adds the days of `range` that match to `periodDays`.
    ///
    /// A month (`scope: .month`, always a whole one) whose days only BYMONTHDAY and BYDAY limit has
    /// them worked out from those parts (`matchingDays(ofMonthStarting:length:)`). Another range is
    /// walked with its date parts (year, month, day of month, day of year, weekday) carried from one
    /// day to the next. Either way the range costs its days in steps.
    private mutating func addMatchingDays(_ range: Range<Day>, scope: OrdinalScope) {
        guard step(range.count) else { return }
        if scope == .month, var days = matchingDays(ofMonthStarting: range.lowerBound, length: range.count) {
            while days != 0 {
                appendPeriodDay(range.lowerBound.advanced(by: days.trailingZeroBitCount - 1))
                days &= days - 1
            }
            return
        }
        guard needsDateParts, !range.isEmpty else {
            if let weekdayMask, !range.isEmpty {
                // Only the weekday limits (as `matches(_:scope:)` tests it): a bit per day.
                var weekday = range.lowerBound.weekday.rawValue
                for number in range.lowerBound.daysSince1970..<range.upperBound.daysSince1970 {
                    if weekdayMask & 1 << weekday != 0 { appendPeriodDay(Day(daysSince1970: number)) }
                    weekday = weekday == 6 ? 0 : weekday + 1
                }
                return
            }
            for number in range.lowerBound.daysSince1970..<range.upperBound.daysSince1970 {
                let day = Day(daysSince1970: number)
                if matches(day, scope: scope) { appendPeriodDay(day) }
            }
            return
        }
        var parts = DateParts(range.lowerBound)
        for number in range.lowerBound.daysSince1970..<range.upperBound.daysSince1970 {
            let day = Day(daysSince1970: number)
            if matches(day, parts, scope: scope) { appendPeriodDay(day) }
            parts.advance()
        }
    }

    /// The days of the month that starts on `first` (`length` days long) that pass the rule's day
    /// parts, as a bit for each day of the month (bit 1 for the 1st), worked out from BYMONTHDAY and
    /// BYDAY rather than by testing each day; `nil` when BYYEARDAY, or BYWEEKNO on a rule that is not
    /// yearly, limits the days too (the days are then walked). The same days as `matches(_:scope:)`
    /// gives with `.month` (a test holds the two equal).
    func matchingDays(ofMonthStarting first: Day, length: Int) -> UInt64? {
        guard rule.yearDays.isEmpty, rule.weekNumbers.isEmpty || rule.frequency == .yearly else { return nil }
        if !months.isEmpty, !months.contains(first.month) { return 0 }
        var days: UInt64 = (1 << (length + 1)) - 2  // 1...length
        if !monthDays.isEmpty {
            var named: UInt64 = 0
            for value in monthDays {
                let day = value > 0 ? value : length + 1 + value  // -1 is the last day
                if day >= 1, day <= length { named |= 1 << day }
            }
            days &= named
        }
        if !weekdays.isEmpty {
            let firstWeekday = first.weekday.rawValue
            var named: UInt64 = 0
            for wanted in weekdays {
                let firstOccurrence = 1 + (wanted.weekday.rawValue - firstWeekday + 7) % 7
                if wanted.ordinal == 0 {
                    for day in stride(from: firstOccurrence, through: length, by: 7) { named |= 1 << day }
                } else if wanted.ordinal > 0 {
                    let day = firstOccurrence + 7 * (wanted.ordinal - 1)
                    if day <= length { named |= 1 << day }
                } else {
                    let lastOccurrence = firstOccurrence + 7 * ((length - firstOccurrence) / 7)
                    let day = lastOccurrence - 7 * (-wanted.ordinal - 1)
                    if day >= 1 { named |= 1 << day }
                }
            }
            days &= named
        }
        return days
    }

    /// `matchingDays(ofMonthStarting:length:)` found by testing each day (`matches(_:scope:)`), for tests.
    func testedDays(ofMonthStarting first: Day, length: Int) -> UInt64 {
        var days: UInt64 = 0
        for offset in 0..<length where matches(first.advanced(by: offset), scope: .month) { days |= 1 << (offset + 1) }
        return days
    }

    /// Whether a day passes the rule's day parts (each one limits; a period's days are those of its range).
    private func matches(_ day: Day, scope: OrdinalScope) -> Bool {
        if !needsDateParts {
            // Only the weekday (or nothing) limits: no year, month and day to work out.
            if !rule.weekNumbers.isEmpty, rule.frequency != .yearly, !Self.isInWeeks(day, rule.weekNumbers, weekStart: rule.weekStart) {
                return false
            }
            if weekdays.isEmpty { return true }
            let weekday = day.weekday
            return weekdays.contains { $0.weekday == weekday }
        }
        return matches(day, DateParts(day), scope: scope)
    }

    /// `matches(_:scope:)` for a day whose date parts are known.
    private func matches(_ day: Day, _ parts: DateParts, scope: OrdinalScope) -> Bool {
        if !months.isEmpty, !months.contains(parts.month) { return false }
        if !monthDays.isEmpty {
            let dayOfMonth = parts.dayOfMonth
            if !monthDays.contains(dayOfMonth), !monthDays.contains(dayOfMonth - parts.monthLength - 1) { return false }
        }
        if !rule.yearDays.isEmpty {
            let dayOfYear = parts.dayOfYear + 1
            if !rule.yearDays.contains(dayOfYear), !rule.yearDays.contains(dayOfYear - parts.yearLength - 1) { return false }
        }
        if !rule.weekNumbers.isEmpty, rule.frequency != .yearly, !Self.isInWeeks(day, rule.weekNumbers, weekStart: rule.weekStart) {
            return false
        }
        if !weekdays.isEmpty {
            let weekday = parts.weekday
            let found = weekdays.contains { wanted in
                guard wanted.weekday.rawValue == weekday else { return false }
                guard wanted.ordinal != 0 else { return true }
                switch scope {
                case .none:
                    return true
                case .month:
                    return wanted.ordinal > 0
                        ? (parts.dayOfMonth - 1) / 7 + 1 == wanted.ordinal
                        : (parts.monthLength - parts.dayOfMonth) / 7 + 1 == -wanted.ordinal
                case .year:
                    return wanted.ordinal > 0
                        ? parts.dayOfYear / 7 + 1 == wanted.ordinal
                        : (parts.yearLength - 1 - parts.dayOfYear) / 7 + 1 == -wanted.ordinal
                }
            }
            if !found { return false }
        }
        return true
    }

    /// A day's date parts, which a walk over consecutive days carries forward (`advance()`) instead
    /// of working them out from the day's number each time.
    struct DateParts: Equatable {
        var year: Int
        var month: Int
        var dayOfMonth: Int
        var monthLength: Int
        /// Days since 1 January, 0-based.
        var dayOfYear: Int
        var yearLength: Int
        /// `Weekday.rawValue`: 0 is Sunday.
        var weekday: Int

        init(_ day: Day) {
            (year, month, dayOfMonth) = day.components
            monthLength = Day.daysInMonth(year: year, month: month)
            dayOfYear = Day(normalizingYear: year, month: 1, day: 1).distance(to: day)
            yearLength = Day.isLeapYear(year) ? 366 : 365
            weekday = day.weekday.rawValue
        }

        /// Moves to the next day.
        mutating func advance() {
            weekday = weekday == 6 ? 0 : weekday + 1
            dayOfMonth += 1
            dayOfYear += 1
            guard dayOfMonth > monthLength else { return }
            dayOfMonth = 1
            month += 1
            if month > 12 {
                month = 1
                year += 1
                dayOfYear = 0
                yearLength = Day.isLeapYear(year) ? 366 : 365
            }
            monthLength = Day.daysInMonth(year: year, month: month)
        }
    }

    /// Whether a day lies in one of the numbered weeks of its own week-numbering year.
    private static func isInWeeks(_ day: Day, _ numbers: [Int], weekStart: Weekday) -> Bool {
        var year = day.year + 1
        var firstWeek = firstWeekStart(of: year, weekStart: weekStart)
        while day < firstWeek {
            year -= 1
            firstWeek = firstWeekStart(of: year, weekStart: weekStart)
        }
        let weekCount = firstWeek.distance(to: firstWeekStart(of: year + 1, weekStart: weekStart)) / 7
        let number = firstWeek.distance(to: day) / 7 + 1
        return numbers.contains(number) || numbers.contains(number - weekCount - 1)
    }

    /// One period of an hourly, minutely or secondly rule. A period on a day, hour or minute that
    /// cannot match moves straight on to the first period of the next one.
    private mutating func fillSubDailyPeriod() {
        while !finished {
            guard step() else { return }
            let start = LocalDateTime(secondsSince1970: subDailyBase + Int64(period) * subDailyLength)
            let day = start.day
            guard day.year <= Self.lastYear else { return finish() }
            let (hour, minute, second) = start.timeOfDay
            if !matches(day, scope: .none) {
                skipSubDaily(to: LocalDateTime(day: day.advanced(by: 1), secondOfDay: 0))
                continue
            }
            if !rule.hours.isEmpty, !rule.hours.contains(hour) {
                skipSubDaily(to: LocalDateTime(day: day, secondOfDay: (hour + 1) * 3600))
                continue
            }
            if rule.frequency <= .minutely, !rule.minutes.isEmpty, !rule.minutes.contains(minute) {
                skipSubDaily(to: LocalDateTime(day: day, secondOfDay: hour * 3600 + (minute + 1) * 60))
                continue
            }
            if rule.frequency == .secondly, !rule.seconds.isEmpty, !rule.seconds.contains(second) {
                period += 1
                continue
            }
            period += 1
            let (_, startMinute, startSecond) = dtstart.timeOfDay
            let seconds = (rule.seconds.isEmpty ? [startSecond] : rule.seconds).map { min($0, 59) }
            var candidates: [LocalDateTime] = []
            switch rule.frequency {
            case .hourly:
                let minutes = rule.minutes.isEmpty ? [startMinute] : rule.minutes
                for minute in minutes {
                    for second in seconds {
                        candidates.append(LocalDateTime(day: day, secondOfDay: hour * 3600 + minute * 60 + second))
                    }
                }
            case .minutely:
                for second in seconds {
                    candidates.append(LocalDateTime(day: day, secondOfDay: hour * 3600 + minute * 60 + second))
                }
            default:
                candidates.append(start)
            }
            self.candidates = Array(Set(candidates)).sorted()
            emitCandidates()
            if pendingCount > 0 { return }
        }
    }

    /// Moves to the first sub-daily period that starts at `local` or later.
    private mutating func skipSubDaily(to local: LocalDateTime) {
        let distance = local.secondsSince1970 - subDailyBase
        let target = Int((distance + subDailyLength - 1) / subDailyLength)
        period = max(period + 1, target)
    }

    /// A period's candidates (`candidates`, sorted) after BYSETPOS, without those before DTSTART.
    private mutating func emitCandidates() {
        guard step(candidates.count) else { return }
        if !rule.setPositions.isEmpty {
            var picked: Set<Int> = []
            for position in rule.setPositions {
                let index = position > 0 ? position - 1 : candidates.count + position
                if index >= 0, index < candidates.count { picked.insert(index) }
            }
            for index in picked.sorted() where candidates[index] >= dtstart { appendPending(candidates[index]) }
            return
        }
        for candidate in candidates where candidate >= dtstart {
            appendPending(candidate)
        }
    }

    private mutating func finish() {
        finished = true
    }
}
