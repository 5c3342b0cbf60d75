/// Where the time went: sessions, minutes and points per group (a category, a summary, a calendar
/// or a habit) and per period (a day, a week, a month or a year) of a window — the table of
/// `streakcal totals`.
///
/// It is made from a ``TimeTotals/Counter``, which counts sessions one at a time into a cell per
/// group and period, so that its memory grows with the groups and periods, never with the sessions.
///
/// - Minutes are each session's time within each period: a session across midnight counts in
///   both days, and what lies outside the window is not counted. All-day sessions count none
///   (they mark days, as a vacation does).
/// - Sessions and points count on the day a session starts, as in a report.
/// - Habits also have their met days out of the days in each period (Loop Habit Tracker's "17/31").
///
/// ```swift
/// var counter = TimeTotals.Counter(timeZone: .utc, days: window, period: .week)
/// counter.add(start: start, end: end, points: 30, groups: [0])
/// let totals = TimeTotals(counter, groups: ["Piano"], grouping: .summary, window: window)
/// print(totals.groups[0].total.minutes)
/// ```
public struct TimeTotals: Hashable, Sendable {
    /// What a group is.
    public enum Grouping: String, CaseIterable, Hashable, Sendable, Codable {
        /// Each `CATEGORIES` value: an event with several counts in each; one with none under ``TimeTotals/noGroup``.
        case category
        /// The `SUMMARY` as written, trimmed; an empty one under ``TimeTotals/noGroup``.
        case summary
        /// The calendar (`X-WR-CALNAME`, else the file's name).
        case calendar
        /// Each named habit, with its met days.
        case habit
    }

    /// How long a period is. A period is named by its first day, even where the window begins
    /// inside it.
    public enum Period: String, CaseIterable, Hashable, Sendable, Codable {
        case day, week, month, year

        /// The first day of the period `day` falls in; weeks begin on `firstWeekday`.
        ///
        /// ```swift
        /// let day = Day("2024-02-29")   // a Thursday
        /// print(TimeTotals.Period.week.first(of: day, firstWeekday: .monday), TimeTotals.Period.year.first(of: day))
        /// // Prints "2024-02-26 2024-01-01"
        /// ```
        public func first(of day: Day, firstWeekday: Weekday = .monday) -> Day {
            switch self {
            case .day: day
            case .week: day.advanced(by: -day.weekday.daysSince(firstWeekday))
            case .month: day.firstOfMonth
            case .year: Day(normalizingYear: day.year, month: 1, day: 1)
            }
        }

        /// The first day of the period after the one that begins on `first`.
        func next(after first: Day) -> Day {
            switch self {
            case .day: first.advanced(by: 1)
            case .week: first.advanced(by: 7)
            case .month: first.advanced(by: Day.daysInMonth(year: first.year, month: first.month))
            case .year: Day(normalizingYear: first.year + 1, month: 1, day: 1)
            }
        }

        /// The first days of the periods that overlap `window`, ascending.
        public func periods(covering window: ClosedRange<Day>, firstWeekday: Weekday = .monday) -> [Day] {
            var firsts: [Day] = []
            var first = self.first(of: window.lowerBound, firstWeekday: firstWeekday)
            while first <= window.upperBound {
                firsts.append(first)
                first = next(after: first)
            }
            return firsts
        }
    }

    /// What a row, a group or the whole window counts.
    public struct Figures: Hashable, Sendable {
        /// Sessions that start in it.
        public var sessions = 0
        /// Minutes of sessions within it.
        public var minutes = 0
        /// Points of the sessions that start in it, as the report counts them.
        public var points = 0
        /// For a habit: its days that met the habit's own goal; `nil` for other groups.
        public var metDays: Int?
        /// For a habit: the days of the window in it up to the last day scored (today for a window that
        /// runs on), which `metDays` is out of; `nil` for other groups.
        public var days: Int?

        public init(sessions: Int = 0, minutes: Int = 0, points: Int = 0, metDays: Int? = nil, days: Int? = nil) {
            self.sessions = sessions
            self.minutes = minutes
            self.points = points
            self.metDays = metDays
            self.days = days
        }

        /// Adds `other`'s counts (met days and days only where both have them).
        mutating func add(_ other: Figures) {
            sessions += other.sessions
            minutes += other.minutes
            points += other.points
            metDays = metDays.flatMap { mine in other.metDays.map { mine + $0 } }
            days = days.flatMap { mine in other.days.map { mine + $0 } }
        }
    }

    /// One group's figures in one period.
    public struct Row: Hashable, Sendable {
        /// The period's first day.
        public var period: Day
        public var group: String
        public var figures: Figures

        public init(period: Day, group: String, figures: Figures) {
            self.period = period
            self.group = group
            self.figures = figures
        }
    }

    /// One group over the whole window: its totals and its average per period.
    public struct GroupTotal: Hashable, Sendable {
        public var group: String
        public var total: Figures
        /// Sessions per period, over every period of the window (empty ones included).
        public var averageSessions: Double
        /// Minutes per period, over every period of the window.
        public var averageMinutes: Double
        /// Points per period, over every period of the window.
        public var averagePoints: Double
    }

    /// The name of the group of events with no category or no summary.
    public static let noGroup = "(none)"
    /// The name of the groups ``keepingLargest(_:)`` folds together.
    public static let otherGroups = "(other)"
    /// The most groups a table names: the sessions of any further summary, category or calendar
    /// count under ``otherGroups`` (a note says so), so that a calendar of a million numbered
    /// summaries cannot make a million groups.
    public static let maximumGroups = 10_000

    public var grouping: Grouping
    public var period: Period
    /// The days counted.
    public var window: ClosedRange<Day>
    /// The first day of weeks.
    public var firstWeekday: Weekday
    /// What points count.
    public var unit: PointsUnit
    /// The first day of every period that overlaps the window, ascending: the periods averages are over.
    public var periods: [Day]
    /// Every group, largest first (most minutes, then points, then sessions, then by name);
    /// habits in the order they were given; ``otherGroups`` last.
    public var groups: [GroupTotal]
    /// Each group's figures in each period: periods ascending, groups in ``groups``' order. A
    /// group and period with nothing in it has no row, except a habit's (its days are in it).
    public var rows: [Row]
    /// Every session once, whichever groups it counts in (the sum of the rows counts an event of
    /// two categories twice); its met days and days are `nil`.
    public var overall: Figures

    /// The table of what `counter` counted: its periods and first weekday, over `window` (the
    /// counter's days, or the days of a report that begins later: its earliest session's).
    ///
    /// - Parameters:
    ///   - counter: What was counted.
    ///   - groups: Each group index's name. Groups of one name are counted as one (two calendars
    ///     named alike).
    ///   - grouping: What a group is.
    ///   - window: The days the table is about: its periods are those that overlap them.
    ///   - unit: What points count.
    ///   - countsMinutes: Points are the sessions' whole minutes (`PointsRule.minutes`, or automatic
    ///     points on a calendar without the points property): each session's `minutePoints`.
    ///   - habitDays: For habits, each group's scored days (at least the window's); a day whose
    ///     status is `upcoming` is not among a period's days.
    ///   - keepsGroupOrder: Groups keep the order of `groups` instead of largest first (habits).
    public init(
        _ counter: Counter, groups: [String], grouping: Grouping, window: ClosedRange<Day>, unit: PointsUnit = .points,
        countsMinutes: Bool = false, habitDays: [[DayTotal]]? = nil, keepsGroupOrder: Bool = false
    ) {
        let (period, firstWeekday) = (counter.period, counter.firstWeekday)
        self.grouping = grouping
        self.period = period
        self.window = window
        self.firstWeekday = firstWeekday
        self.unit = unit
        self.periods = period.periods(covering: window, firstWeekday: firstWeekday)
        let names = Self.mergedNames(groups)
        var figures: [Int: [Day: Figures]] = [:]
        var overall = Figures()
        for (group, periodFirst, cell) in counter.entries {
            guard let group else {
                overall.add(cell.figures(countsMinutes: countsMinutes))
                continue
            }
            guard group < names.index.count else { continue }
            figures[names.index[group], default: [:]][periodFirst, default: Figures()].add(cell.figures(countsMinutes: countsMinutes))
        }
        if let habitDays {
            let periodOf = { (day: Day) in period.first(of: day, firstWeekday: firstWeekday) }
            for (group, days) in habitDays.enumerated() where group < names.index.count {
                Self.addDays(days, of: names.index[group], in: window, periodOf: periodOf, to: &figures)
            }
        }
        self.overall = overall
        let count = Double(max(1, periods.count))
        var totals = names.names.indices.map { index in
            let total = (figures[index] ?? [:]).values.reduce(into: habitDays == nil ? Figures() : Figures(metDays: 0, days: 0)) { $0.add($1) }
            return GroupTotal(
                group: names.names[index], total: total, averageSessions: Double(total.sessions) / count,
                averageMinutes: Double(total.minutes) / count, averagePoints: Double(total.points) / count)
        }
        if !keepsGroupOrder { totals.sort(by: Self.isLarger) }
        self.groups = totals
        let order = Dictionary(uniqueKeysWithValues: totals.enumerated().map { ($0.element.group, $0.offset) })
        self.rows = figures.flatMap { index, byPeriod in
            byPeriod.map { Row(period: $0.key, group: names.names[index], figures: $0.value) }
        }.sorted { ($0.period, order[$0.group]!) < ($1.period, order[$1.group]!) }
    }

    /// The distinct names, in first-seen order, and each group index's place among them.
    private static func mergedNames(_ groups: [String]) -> (names: [String], index: [Int]) {
        var names: [String] = []
        var places: [String: Int] = [:]
        let index = groups.map { name in
            if let place = places[name] { return place }
            places[name] = names.count
            names.append(name)
            return names.count - 1
        }
        return (names, index)
    }

    /// Adds a habit's met days and days (not upcoming) of `window` to its rows, making a row for
    /// every period it has days in.
    private static func addDays(
        _ days: [DayTotal], of group: Int, in window: ClosedRange<Day>, periodOf: (Day) -> Day, to figures: inout [Int: [Day: Figures]]
    ) {
        for day in days where window.contains(day.date) && day.status != .upcoming {
            var row = figures[group, default: [:]][periodOf(day.date)] ?? Figures()
            row.metDays = (row.metDays ?? 0) + (day.status == .met ? 1 : 0)
            row.days = (row.days ?? 0) + 1
            figures[group, default: [:]][periodOf(day.date)] = row
        }
    }

    /// Whether `first` comes before `second` among groups: more minutes, then points, then
    /// sessions, then the name; ``otherGroups`` always last.
    static func isLarger(_ first: GroupTotal, _ second: GroupTotal) -> Bool {
        if (first.group == otherGroups) != (second.group == otherGroups) { return second.group == otherGroups }
        return (first.total.minutes, first.total.points, first.total.sessions, second.group)
            > (second.total.minutes, second.total.points, second.total.sessions, first.group)
    }

    /// The table with only the `count` largest groups (``groups``' order), the others folded into
    /// one group, ``otherGroups``; the whole table when it has no more than `count` groups.
    ///
    /// Folded habits have no met days: the `(other)` group's are `nil`.
    public func keepingLargest(_ count: Int) -> TimeTotals {
        guard groups.count > count else { return self }
        let kept = Set(groups.prefix(max(0, count)).map(\.group))
        var result = self
        var other = Figures()
        var otherRows: [Day: Figures] = [:]
        for row in rows where !kept.contains(row.group) {
            let figures = Figures(sessions: row.figures.sessions, minutes: row.figures.minutes, points: row.figures.points)
            otherRows[row.period, default: Figures()].add(figures)
            other.add(figures)
        }
        let periods = Double(max(1, self.periods.count))
        result.groups = groups.filter { kept.contains($0.group) } + [GroupTotal(
            group: Self.otherGroups, total: other, averageSessions: Double(other.sessions) / periods,
            averageMinutes: Double(other.minutes) / periods, averagePoints: Double(other.points) / periods)]
        result.rows = (rows.filter { kept.contains($0.group) } + otherRows.map { Row(period: $0.key, group: Self.otherGroups, figures: $0.value) })
            .sorted { first, second in
                first.period != second.period ? first.period < second.period
                    : first.group != Self.otherGroups && (second.group == Self.otherGroups || groupOrder(first.group) < groupOrder(second.group))
            }
        return result
    }

    /// A group's place in ``groups``.
    private func groupOrder(_ group: String) -> Int {
        groups.firstIndex { $0.group == group } ?? groups.count
    }

    /// The rows of the period that begins on `first`, by group.
    public func rows(inPeriod first: Day) -> [String: Figures] {
        Dictionary(rows.filter { $0.period == first }.map { ($0.group, $0.figures) }, uniquingKeysWith: { $1 })
    }
}

extension TimeTotals {
    /// Counts sessions into a cell per group and period, in a zone and with a day start: the
    /// sessions, points and whole minutes of each in the period of the day it starts, and its
    /// seconds in the period of every day it covers, within ``days`` (the window: nothing outside
    /// it is counted). Memory grows with the cells, never with the sessions.
    ///
    /// It is the one place `streakcal totals` spends time per session, on the thread that reads
    /// the import's batches, so each session costs a few additions: cells in rows by period
    /// (groups past the rows in a table of their own), the last day's limits and period kept, no
    /// generic call across modules.
    public struct Counter: Sendable {
        /// The zone whose local days the sessions are counted by.
        public let timeZone: TimeZoneRules
        /// When each day begins.
        public let dayStart: DayStart
        /// The days counted (the window): time outside them is not, so that a session of years
        /// costs no more than these days.
        public let days: ClosedRange<Day>
        /// How long a period is.
        public let period: Period
        /// The first day of weeks.
        public let firstWeekday: Weekday
        /// The first day of the first period, and how many periods the days overlap.
        private let firstPeriod: Day
        private let periodCount: Int
        /// The whole's cells, one per period, and the first groups' (``denseGroups``), a row of
        /// one per period each, in one array: a session's cells are reached by their index, with
        /// no hashing (sessions of a series come in its order, not the calendar's, so a cell is
        /// seldom the one before). Groups past those rows, and every group when the periods are
        /// too many for rows, are in ``cells``.
        fileprivate var rows: [Cell] = []
        /// How many groups have a row (group `g`'s is `rows[(g + 1) * periodCount...]`; the whole's first).
        private var rowCount = 0
        /// The most groups with a row: rows hold at most ``rowCells`` cells.
        private let rowLimit: Int
        /// The cells of the groups without a row, by group and period (`key(group:period:)`).
        fileprivate var cells = CellTable()
        /// The last day whose limits were asked for: when it begins and when the next one does.
        private var lastDay: (day: Day, begins: Int64, ends: Int64)?
        /// The period of the last day asked for: its first day, the first day of the next, its index.
        private var lastPeriod: (first: Day, next: Day, index: Int)?

        /// What one group counts in one period.
        struct Cell: Hashable, Sendable {
            var sessions = 0
            var seconds: Int64 = 0
            var points = 0
            var minutePoints = 0

            mutating func add(_ other: Cell) {
                sessions += other.sessions
                seconds += other.seconds
                points += other.points
                minutePoints += other.minutePoints
            }

            func figures(countsMinutes: Bool) -> Figures {
                Figures(sessions: sessions, minutes: Int(seconds / 60), points: countsMinutes ? minutePoints : points)
            }
        }

        public init(timeZone: TimeZoneRules, dayStart: DayStart = .midnight, days: ClosedRange<Day>, period: Period = .day, firstWeekday: Weekday = .monday) {
            self.timeZone = timeZone
            self.dayStart = dayStart
            self.days = days
            self.period = period
            self.firstWeekday = firstWeekday
            let firstPeriod = period.first(of: days.lowerBound, firstWeekday: firstWeekday)
            self.firstPeriod = firstPeriod
            let periodCount = Self.index(of: period.first(of: days.upperBound, firstWeekday: firstWeekday), from: firstPeriod, period: period) + 1
            self.periodCount = periodCount
            // The whole's row and the groups': `rowCells` at most, none when one row would pass it.
            self.rowLimit = periodCount > Self.rowCells ? 0 : Self.rowCells / periodCount
        }

        /// The most cells the rows hold (8 MB): the whole's and a few groups' rows, with room for
        /// every week of ten years for 500 groups; a million cells cost 30 MB more than a report
        /// at peak (`Benchmarks/run-totals-benchmark`, plain 280 MB by summary per month).
        static let rowCells = 262_144

        /// The index of the period that begins on `first` among those from `origin` on.
        static func index(of first: Day, from origin: Day, period: Period) -> Int {
            switch period {
            case .day: return origin.distance(to: first)
            case .week: return origin.distance(to: first) / 7
            case .month: return (first.year - origin.year) * 12 + first.month - origin.month
            case .year: return first.year - origin.year
            }
        }

        /// Counts a session (floating times already read in the zone) in each of `groups`, and in
        /// the whole when `countsInWhole`.
        ///
        /// - Parameters:
        ///   - start: When it starts.
        ///   - end: When it ends (exclusive).
        ///   - points: Its points, counted in the period of the day it starts.
        ///   - minutePoints: Its points when points are minutes (default: its whole minutes).
        ///   - groups: The indices of the groups it counts in (none: it counts only in the whole).
        ///   - countsInWhole: Count it in ``TimeTotals/overall`` as well (default). A session whose
        ///     groups count it with different points (habits, each by its own rule) is added once
        ///     per group, and in the whole only once.
        public mutating func add(
            start: SessionTime, end: SessionTime, points: Int, minutePoints: Int? = nil, groups: [Int], countsInWhole: Bool = true
        ) {
            count(start: start, end: end, points: points, minutePoints: minutePoints, groups: groups, countsInWhole: countsInWhole)
        }

        /// Counts a session in one group, or only in the whole (`group` `nil`), as
        /// ``add(start:end:points:minutePoints:groups:countsInWhole:)`` does; the parameters are that
        /// function's.
        public mutating func add(
            start: SessionTime, end: SessionTime, points: Int, minutePoints: Int? = nil, group: Int?, countsInWhole: Bool = true
        ) {
            if let group {
                count(start: start, end: end, points: points, minutePoints: minutePoints, groups: CollectionOfOne(group), countsInWhole: countsInWhole)
            } else {
                count(start: start, end: end, points: points, minutePoints: minutePoints, groups: EmptyCollection(), countsInWhole: countsInWhole)
            }
        }

        /// The count both `add`s make, specialized for each kind of group list.
        private mutating func count<Groups: Collection<Int>>(
            start: SessionTime, end: SessionTime, points: Int, minutePoints: Int?, groups: Groups, countsInWhole: Bool
        ) {
            let first = start.day(in: timeZone, dayStart: dayStart)
            let session = Cell(sessions: 1, points: points, minutePoints: minutePoints ?? start.wholeMinutes(until: end))
            // The session itself counts on its first day (when in the window), with that day's seconds.
            var isCounted = !days.contains(first)
            if case .date = start {} else {
                let (from, to) = (start.instant(in: timeZone), end.instant(in: timeZone))
                var day = max(first, days.lowerBound)
                var dayBegins = max(from, limits(of: day).begins)
                while dayBegins < to, day <= days.upperBound {
                    // A day of at least one second keeps the walk going whatever the zone's rules say.
                    let dayEnds = max(limits(of: day).ends, dayBegins + 1)
                    var cell = Cell(seconds: min(to, dayEnds) - dayBegins)
                    if day == first, !isCounted {
                        cell.add(session)
                        isCounted = true
                    }
                    add(cell, on: day, to: groups, inWhole: countsInWhole)
                    day = day.advanced(by: 1)
                    dayBegins = dayEnds
                }
            }
            if !isCounted { add(session, on: first, to: groups, inWhole: countsInWhole) }
        }

        /// Adds `cell` to each of `groups`' cells in the period of `day`, and to the whole's when `inWhole`.
        private mutating func add<Groups: Collection<Int>>(_ cell: Cell, on day: Day, to groups: Groups, inWhole: Bool) {
            let (first, index) = period(of: day)
            // Row 0 is the whole's; group g's is row g + 1.
            if inWhole { add(cell, row: 0, index: index, first: first, group: nil) }
            for group in groups {
                add(cell, row: group + 1, index: index, first: first, group: group)
            }
        }

        /// Adds `cell` to a row's period `index`, making the rows up to it first; past the rows'
        /// limit, to ``cells`` (the whole's too, under the impossible group `UInt32.max - 1`).
        private mutating func add(_ cell: Cell, row: Int, index: Int, first: Day, group: Int?) {
            guard row < rowLimit else {
                cells.add(cell, at: Self.key(group: group ?? Self.wholeInCells, period: first))
                return
            }
            if row >= rowCount {
                rows.append(contentsOf: repeatElement(Cell(), count: (row + 1 - rowCount) * periodCount))
                rowCount = row + 1
            }
            rows[row * periodCount + index].add(cell)
        }

        /// The group the whole is counted under in ``cells`` when the periods are too many for rows.
        static let wholeInCells = Int(UInt32.max - 1)

        /// Every cell with something in it: the whole's (group `nil`) and each group's, with its period's first day.
        var entries: [(group: Int?, period: Day, cell: Cell)] {
            var result: [(group: Int?, period: Day, cell: Cell)] = []
            var firsts: [Day] = []
            if rowCount > 0 {
                firsts.reserveCapacity(periodCount)
                var first = firstPeriod
                for _ in 0..<periodCount {
                    firsts.append(first)
                    first = period.next(after: first)
                }
            }
            for row in 0..<rowCount {
                for index in 0..<periodCount {
                    let cell = rows[row * periodCount + index]
                    guard cell != Cell() else { continue }
                    result.append((row == 0 ? nil : row - 1, firsts[index], cell))
                }
            }
            for (key, cell) in cells.entries {
                let (group, first) = Self.split(key)
                result.append((group == Self.wholeInCells ? nil : group, first, cell))
            }
            return result
        }

        /// When `day` begins and when the next day does, in the zone with the day start.
        private mutating func limits(of day: Day) -> (begins: Int64, ends: Int64) {
            if let lastDay, lastDay.day == day { return (lastDay.begins, lastDay.ends) }
            let begins = lastDay.map { $0.day.advanced(by: 1) == day ? $0.ends : beginning(of: day) } ?? beginning(of: day)
            let ends = beginning(of: day.advanced(by: 1))
            lastDay = (day, begins, ends)
            return (begins, ends)
        }

        private func beginning(of day: Day) -> Int64 {
            timeZone.instant(for: LocalDateTime(day: day, secondOfDay: dayStart.secondsAfterMidnight))
        }

        /// The first day of the period `day` is in, and its index among the days' periods.
        private mutating func period(of day: Day) -> (first: Day, index: Int) {
            if let lastPeriod, lastPeriod.first <= day, day < lastPeriod.next { return (lastPeriod.first, lastPeriod.index) }
            let first = period.first(of: day, firstWeekday: firstWeekday)
            let index = Self.index(of: first, from: firstPeriod, period: period)
            lastPeriod = (first, period.next(after: first), index)
            return (first, index)
        }

        /// A cell's key: the group in the high 32 bits, the period's first day (its number since
        /// 1970) in the low.
        static func key(group: Int, period: Day) -> UInt64 {
            UInt64(UInt32(truncatingIfNeeded: group)) << 32 | UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: period.daysSince1970)))
        }

        /// The group and period of a key.
        static func split(_ key: UInt64) -> (group: Int, period: Day) {
            (Int(key >> 32), Day(daysSince1970: Int(Int32(bitPattern: UInt32(truncatingIfNeeded: key)))))
        }
    }

    /// The counter's cells: an open-addressing table of keys (linear probing, multiplicative
    /// hashing), which a session's few cells reach without the hashing a `Dictionary` does for
    /// every key (two hashed updates a session were a third of `totals`' time on a million
    /// sessions: docs/performance.md).
    struct CellTable: Sendable {
        private var keys: [UInt64] = Array(repeating: CellTable.empty, count: 64)
        private var cells: [Counter.Cell] = Array(repeating: Counter.Cell(), count: 64)
        private(set) var count = 0
        /// No key is all ones: groups stop short of `UInt32.max`.
        private static let empty = UInt64.max
        /// The last key added to and its slot: sessions come in order, and the next one is most
        /// often in the same group and period.
        private var lastKey = CellTable.empty
        private var lastSlot = 0

        mutating func add(_ cell: Counter.Cell, at key: UInt64) {
            if key == lastKey {
                cells[lastSlot].add(cell)
                return
            }
            var slot = slot(of: key)
            if keys[slot] == Self.empty {
                if (count + 1) * 4 > keys.count * 3 {
                    grow()
                    slot = self.slot(of: key)
                }
                keys[slot] = key
                count += 1
            }
            cells[slot].add(cell)
            (lastKey, lastSlot) = (key, slot)
        }

        /// The slot holding `key`, or the empty one where it goes.
        private func slot(of key: UInt64) -> Int {
            let mask = keys.count - 1
            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            while keys[slot] != Self.empty, keys[slot] != key { slot = (slot + 1) & mask }
            return slot
        }

        private mutating func grow() {
            lastKey = Self.empty
            let (oldKeys, oldCells) = (keys, cells)
            keys = Array(repeating: Self.empty, count: oldKeys.count * 2)
            cells = Array(repeating: Counter.Cell(), count: oldKeys.count * 2)
            for (key, cell) in zip(oldKeys, oldCells) where key != Self.empty {
                let slot = slot(of: key)
                keys[slot] = key
                cells[slot] = cell
            }
        }

        /// Every key and its cell, in no order.
        var entries: [(key: UInt64, cell: Counter.Cell)] {
            zip(keys, cells).filter { $0.0 != Self.empty }.map { ($0.0, $0.1) }
        }
    }
}
