extension GoalSchedule {
    /// The schedule arranged to answer `requiredPoints(on:)` for many days in O(log n) each
    /// (n entries), as a report asks it once per day of its window: per weekday, the entries that
    /// name it ordered by start, each with the entry that decides from that start on.
    ///
    /// ```swift
    /// var schedule = GoalSchedule(requiredPoints: 100)
    /// try schedule.add(parsing: "mon-fri:60,sat-sun:0")
    /// try schedule.add(parsing: "from 2024-06-01: 90")
    /// let lookup = schedule.lookup()
    /// print(lookup.requiredPoints(on: Day("2024-05-31")), lookup.requiredPoints(on: Day("2024-06-01")))
    /// // Prints "60 90"
    /// ```
    public struct Lookup: Sendable {
        let defaultPoints: Int
        /// By weekday: the starts (days since 1970; `Int.min` for an entry without a start), ascending.
        let starts: [[Int]]
        /// By weekday, for each start: the points of the latest entry (in the schedule's order) of
        /// those that start by then.
        let points: [[Int]]

        init(_ schedule: GoalSchedule) {
            defaultPoints = schedule.defaultPoints
            var starts: [[Int]] = []
            var points: [[Int]] = []
            for weekday in Weekday.allCases {
                let naming = schedule.entries.indices
                    .filter { schedule.entries[$0].weekdays.contains(weekday) }
                    .map { (start: schedule.entries[$0].start?.daysSince1970 ?? Int.min, order: $0) }
                    .sorted { ($0.start, $0.order) < ($1.start, $1.order) }
                var latest = -1
                var decided: [Int] = []
                decided.reserveCapacity(naming.count)
                for entry in naming {
                    latest = max(latest, entry.order)
                    decided.append(schedule.entries[latest].requiredPoints)
                }
                starts.append(naming.map(\.start))
                points.append(decided)
            }
            self.starts = starts
            self.points = points
        }

        /// The points `day` requires, as `GoalSchedule.requiredPoints(on:)` says.
        public func requiredPoints(on day: Day) -> Int {
            let weekday = day.weekday.rawValue
            let starts = starts[weekday]
            let number = day.daysSince1970
            // The number of starts on or before the day.
            var (low, high) = (0, starts.count)
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= number { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? defaultPoints : points[weekday][low - 1]
        }
    }

    /// The schedule arranged for asking many days (see ``Lookup``).
    public func lookup() -> Lookup {
        Lookup(self)
    }
}

/// Ranges of skipped days merged into disjoint, ascending ranges, to be asked about days in
/// ascending order: each range is passed once, so a window of d days against r ranges costs
/// O(r log r + d) instead of O(r × d).
struct SkippedDayRanges {
    private let ranges: [ClosedRange<Int>]
    private var next = 0

    init(_ days: [ClosedRange<Day>]) {
        let sorted = days.map { $0.lowerBound.daysSince1970...$0.upperBound.daysSince1970 }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Int>] = []
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        ranges = merged
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// Whether `day` is skipped; days must be asked in ascending order.
    mutating func contains(_ day: Int) -> Bool {
        while next < ranges.count, ranges[next].upperBound < day { next += 1 }
        return next < ranges.count && ranges[next].lowerBound <= day
    }

    /// For each of `count` days from `first`: whether it is skipped; empty when none is.
    func flags(first: Int, count: Int) -> [Bool] {
        var flags: [Bool] = []
        for range in ranges {
            let low = max(range.lowerBound, first)
            let high = min(range.upperBound, first + count - 1)
            guard low <= high else { continue }
            if flags.isEmpty { flags = [Bool](repeating: false, count: count) }
            for day in low...high { flags[day - first] = true }
        }
        return flags
    }
}
