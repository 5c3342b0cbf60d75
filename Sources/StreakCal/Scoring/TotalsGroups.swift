import ICalendar
import Streaks

/// The groups of `streakcal totals` as sessions are read: each distinct summary, set of categories
/// or calendar file gets a token once, and each token stands for the groups it counts in. Shared by
/// the report's accumulator and the import's classifier, which sorts each event once on the import's
/// workers (`SessionClassifier`), so that the import need not make a `Session` of every instance.
struct TotalsGroups: Sendable {
    /// The most groups named (`TimeTotals.maximumGroups`).
    static let maximumGroups = TimeTotals.maximumGroups

    let grouping: TimeTotals.Grouping
    private let table = Locked(Table())

    init(_ grouping: TimeTotals.Grouping) {
        self.grouping = grouping
    }

    /// Whether the groups come from each event's SUMMARY or CATEGORIES, which the classifier reads.
    var readsDescriptions: Bool { grouping == .summary || grouping == .category }

    /// The token of an event's groups: its trimmed summary, or its set of trimmed categories
    /// (`TimeTotals.noGroup` when it has none).
    func token(summary: String, categories: [String]) -> UInt32 {
        switch grouping {
        case .summary:
            let name = summary.trimmingSpaces
            return table.withLock { $0.token(forName: name.isEmpty ? TimeTotals.noGroup : name) }
        case .category:
            var names: [String] = []
            for category in categories {
                let name = category.trimmingSpaces
                if !name.isEmpty, !names.contains(name) { names.append(name) }
            }
            return table.withLock { $0.token(for: names.isEmpty ? [TimeTotals.noGroup] : names) }
        case .calendar, .habit:
            return 0
        }
    }

    /// The token of the calendar file `file` (grouping by calendar: files are named as calendars at the end).
    func token(file: String) -> UInt32 {
        table.withLock { $0.token(for: [file]) }
    }

    /// The groups of every token given so far, by token, and the name of each group.
    var snapshot: (sets: [[Int]], names: [String], folded: Bool) {
        table.withLock { ($0.sets, $0.names, $0.folded) }
    }

    /// The tokens and groups given so far.
    private struct Table: Sendable {
        var names: [String] = []
        var groupOfName: [String: Int] = [:]
        var sets: [[Int]] = []
        var tokenOfKey: [[String]: UInt32] = [:]
        /// Whether some name came after ``TotalsGroups/maximumGroups`` and counts under `(other)`.
        var folded = false

        var tokenOfSet: [[Int]: UInt32] = [:]
        /// Grouping by summary: each name's token, one lookup of the name itself.
        var tokenOfName: [String: UInt32] = [:]

        /// The token of `(other)`, once made.
        var otherToken: UInt32?

        /// The token of one name's group (a summary): past the limit, an unknown name's is the
        /// `(other)` group's, and the name is not kept. Every name given a group here is in
        /// `tokenOfName`, so one lookup tells a known name from a new one.
        mutating func token(forName name: String) -> UInt32 {
            if let token = tokenOfName[name] { return token }
            if names.count >= TotalsGroups.maximumGroups {
                if let otherToken { return otherToken }
                let token = token(for: [TimeTotals.otherGroups])
                otherToken = token
                return token
            }
            let token = self.token(for: [name])
            tokenOfName[name] = token
            return token
        }

        mutating func token(for key: [String]) -> UInt32 {
            if let token = tokenOfKey[key] { return token }
            var set: [Int] = []
            for name in key {
                let group = group(named: name)
                if !set.contains(group) { set.append(group) }
            }
            if let token = tokenOfSet[set] {
                // Past the limit, keys are not kept: only their sets, of which there are few.
                if !folded { tokenOfKey[key] = token }
                return token
            }
            let token = UInt32(sets.count)
            sets.append(set)
            tokenOfSet[set] = token
            if !folded { tokenOfKey[key] = token }
            return token
        }

        private mutating func group(named name: String) -> Int {
            if let group = groupOfName[name] { return group }
            guard names.count < TotalsGroups.maximumGroups else {
                folded = true
                return group(namedOther: TimeTotals.otherGroups)
            }
            groupOfName[name] = names.count
            names.append(name)
            return names.count - 1
        }

        /// The `(other)` group, made past the limit.
        private mutating func group(namedOther name: String) -> Int {
            if let group = groupOfName[name] { return group }
            groupOfName[name] = names.count
            names.append(name)
            return names.count - 1
        }
    }
}

extension String {
    /// The text without the spaces, tabs and line breaks at its ends.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        // Most names have nothing to trim: they are returned as they are, not copied.
        if let first = scalars.first, let last = scalars.last, !first.properties.isWhitespace, !last.properties.isWhitespace { return self }
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
