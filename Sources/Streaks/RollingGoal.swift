/// Rolling goals ("3 days in any 7"), counted as Loop Habit Tracker counts its frequency habits
/// (`EntryList.buildIntervals` and `snapIntervalsTogether` in its uhabits-core).
extension StreakReport {
    /// A window of a rolling goal, by day index in the report: where it begins and ends (inclusive)
    /// and the day that reached its goal, which it keeps holding when it moves back.
    struct RollingWindow: Hashable, Sendable {
        var begin: Int
        var reached: Int
        var end: Int
    }

    /// Marks the days that windows of `goal` (a rolling goal) cover and that are not met
    /// themselves as `covered`. Rest, skipped and upcoming days keep their status. O(days): each
    /// window is found by walking the met days (or two pointers over the points) once, moved once,
    /// and the covered days are summed once.
    static func cover(_ days: inout [DayTotal], by goal: PeriodGoal) {
        guard case .days(let length) = goal.length else { return }
        let windows = snapped(windows(of: days, length: length, target: goal.target))
        // +1 where a window begins, -1 after it ends: a day is covered where the running sum is positive.
        var changes = [Int](repeating: 0, count: days.count + 1)
        for window in windows {
            changes[max(0, window.begin)] += 1
            changes[min(days.count, window.end + 1)] -= 1
        }
        var open = 0
        for index in days.indices {
            open += changes[index]
            if open > 0, days[index].status == .none || days[index].status == .partial { days[index].status = .covered }
        }
    }

    /// The windows that hold the goal, oldest first: each begins on a met day (for points, a day
    /// with points) and reaches the target within `length` days.
    static func windows(of days: [DayTotal], length: Int, target: PeriodGoal.Target) -> [RollingWindow] {
        switch target {
        case .metDays(let count):
            let met = days.indices.filter { days[$0].status == .met }
            guard count >= 1, met.count >= count else { return [] }
            return (0...(met.count - count)).compactMap { first in
                let (begin, reached) = (met[first], met[first + count - 1])
                return reached - begin < length ? RollingWindow(begin: begin, reached: reached, end: begin + length - 1) : nil
            }
        case .points(let target):
            var windows: [RollingWindow] = []
            // `sum` is the points of begin...reached; `reached` only moves forward.
            var reached = -1
            var sum = 0
            for begin in days.indices {
                if reached < begin {
                    reached = begin - 1
                    sum = 0
                }
                while sum < target, reached + 1 < days.count, reached + 1 - begin < length {
                    reached += 1
                    sum = saturatingSum(sum, max(0, days[reached].points))
                }
                if days[begin].points > 0, sum >= target {
                    windows.append(RollingWindow(begin: begin, reached: reached, end: begin + length - 1))
                }
                sum -= max(0, days[begin].points)
            }
            return windows
        }
    }

    /// The windows moved together, as Loop's interval snapping moves them: from the newest back,
    /// a window that overlaps the (already moved) newer one moves back until they only touch, but
    /// never so far that it stops holding the day that reached its goal.
    static func snapped(_ windows: [RollingWindow]) -> [RollingWindow] {
        var result = windows
        guard result.count > 1 else { return result }
        for index in stride(from: result.count - 2, through: 0, by: -1) {
            let newer = result[index + 1]
            let overlap = result[index].end - newer.begin
            guard overlap >= 0 else { continue }
            let shift = min(result[index].end - result[index].reached, overlap + 1)
            result[index].begin -= shift
            result[index].end -= shift
        }
        return result
    }
}
