import ICalendar
import Streaks
import Synchronization

/// The groups of `streakcal totals` as sessions are read: each distinct summary, set of categories
/// or calendar file gets a token once, and each token stands for the groups it counts in. Shared by
/// the report's accumulator and the import's classifier, which sorts each event once on the import's
/// workers (`SessionClassifier`), so that the import need not make a `Session` of every instance.
struct TotalsGroups: Sendable {
    /// The most groups named (`TimeTotals.maximumGroups`).
    static let maximumGroups = TimeTotals.maximumGroups

    let grouping: TimeTotals.Grouping
    private let table = Locked(Table())
    /// Grouping by summary: the names given a token so far, read without the table's lock.
    private let knownNames = KnownNames()

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
            let trimmed = summary.trimmingSpaces
            let name = trimmed.isEmpty ? TimeTotals.noGroup : trimmed
            if let token = knownNames.token(of: name) { return token }
            let (token, isOther) = table.withLock { table in
                let token = table.token(forName: name)
                return (token, token == table.otherToken)
            }
            knownNames.record(name, token: token, isOther: isOther)
            return token
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

        /// The token of one name's group (a summary): past the limit, an unknown name's is the
        /// `(other)` group's, and the name is not kept.
        /// The token of `(other)`, once made.
        var otherToken: UInt32?

        mutating func token(forName name: String) -> UInt32 {
            if let token = tokenOfName[name] { return token }
            if names.count >= TotalsGroups.maximumGroups, groupOfName[name] == nil {
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

/// The names of summaries with a token, in shards that each have a lock, so that the import's
/// workers seldom wait for one another: with a million different summaries, one lock for every
/// event made a total by summary take 1.2-1.3 times a report's time (issue 47), the workers
/// taking turns at it. New names still go through the one table, which numbers them.
private final class KnownNames: Sendable {
    private static let shardCount = 16
    private let shards = (0..<KnownNames.shardCount).map { _ in Locked([String: UInt32]()) }
    /// The token of `(other)` once some name came past the limit (`UInt32.max` until then):
    /// then an unknown name counts there without taking the table's lock.
    private let otherToken = Atomic<UInt32>(.max)

    /// The token of `name` if it has one, or `(other)`'s if names are folded.
    func token(of name: String) -> UInt32? {
        if let token = shard(of: name).withLock({ $0[name] }) { return token }
        let other = otherToken.load(ordering: .acquiring)
        return other == .max ? nil : other
    }

    /// Keeps `token` for `name`, unless it is `(other)`'s, which is remembered as such instead.
    func record(_ name: String, token: UInt32, isOther: Bool) {
        if isOther {
            otherToken.store(token, ordering: .releasing)
        } else {
            shard(of: name).withLock { $0[name] = token }
        }
    }

    /// The shard of a name, chosen by its length and last bytes (which tell numbered names
    /// apart) so as not to hash the whole name twice.
    private func shard(of name: String) -> Locked<[String: UInt32]> {
        var mixed = name.utf8.count
        for byte in name.utf8.suffix(4) { mixed = mixed &* 31 &+ Int(byte) }
        return shards[mixed & (KnownNames.shardCount - 1)]
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
