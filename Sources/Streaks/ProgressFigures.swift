/// A stretch of days and what they added up to: a week's or a month's points against the sum of
/// what its days required.
public struct PeriodSum: Hashable, Sendable {
    /// The days of the window in the period.
    public var days: ClosedRange<Day>
    /// Their points.
    public var points: Int
    /// What they required together (rest days none).
    public var required: Int
    /// How many of them met their goal.
    public var metDays: Int
}

extension StreakReport {
    /// The points of each week (beginning on `firstWeekday`) or month of the window, in order: the
    /// totals a habit tracker draws as bars, with the goal the days required together. Upcoming
    /// days (after today) are not scored yet: they are in no sum.
    public func sums(byWeekStarting firstWeekday: Weekday? = nil) -> [PeriodSum] {
        var sums: [PeriodSum] = []
        for day in days where day.status != .upcoming {
            let starts: Bool
            if let firstWeekday { starts = day.date.weekday == firstWeekday } else { starts = day.date.dayOfMonth == 1 }
            if starts || sums.isEmpty {
                sums.append(PeriodSum(days: day.date...day.date, points: 0, required: 0, metDays: 0))
            }
            sums[sums.count - 1].days = sums[sums.count - 1].days.lowerBound...day.date
            sums[sums.count - 1].points = StreakReport.saturatingSum(sums[sums.count - 1].points, day.points)
            sums[sums.count - 1].required = StreakReport.saturatingSum(sums[sums.count - 1].required, day.required)
            if day.status == .met { sums[sums.count - 1].metDays += 1 }
        }
        return sums
    }

    /// For each weekday (Sunday first), how many of its days counted (neither rest, skipped nor upcoming)
    /// and how many of those were met: how often each weekday is met.
    public var weekdayFrequency: [(weekday: Weekday, met: Int, counted: Int)] {
        var met = [Int](repeating: 0, count: 7)
        var counted = [Int](repeating: 0, count: 7)
        for day in days where !day.status.isPassedOver {
            counted[day.date.weekday.rawValue] += 1
            if day.status == .met { met[day.date.weekday.rawValue] += 1 }
        }
        return Weekday.allCases.map { ($0, met[$0.rawValue], counted[$0.rawValue]) }
    }
}
