/// Sorts counted sessions into habits at the import: a bit per habit whose filter takes an event,
/// tested once per event (every instance of a series is its event's, and shares its SUMMARY,
/// CATEGORIES and properties), so that a report with habits counts its sessions without a
/// `Session` for each instance.
package struct SessionClassifier: Sendable {
    /// The bits of an event: bit `i` when habit `i` takes it; ``skipCategoryBit`` when it has a
    /// skip category.
    package let classify: @Sendable (_ summary: String, _ categories: [String], _ properties: [String: String]) -> UInt64

    /// The bit of an event with a skip category (a skip marker when it is all-day as well).
    package static let skipCategoryBit: UInt64 = 1 << 63

    /// The bit of an event no habit takes, when its owner tells such events apart: the low 32
    /// bits then hold a token for its SUMMARY (see `ReportAccumulator`), not habit bits.
    package static let unmatchedBit: UInt64 = 1 << 62

    /// The most habits a classifier sorts into (a bit each; the last two bits are ``unmatchedBit``
    /// and ``skipCategoryBit``).
    package static let maximumHabits = 62

    /// Whether descriptions sorted once are kept (``Memo``): not for a classifier that is itself
    /// a lookup by description (`streakcal totals` by summary), where the memo would be a second
    /// lock per event for nothing.
    private let memoizes: Bool

    package init(
        memoizing: Bool = true,
        classify: @escaping @Sendable (_ summary: String, _ categories: [String], _ properties: [String: String]) -> UInt64
    ) {
        self.memoizes = memoizing
        self.classify = classify
    }

    /// The bits of `record`: its SUMMARY, CATEGORIES and kept properties, as a session of it has them.
    func classes(of record: borrowing EventRecord) -> UInt64 {
        guard memoizes, memo.withLock({ $0.isWorthIt }) else { return classify(record.summary, record.categories, record.kept) }
        let description = Description(summary: record.summary, categories: record.categories, kept: record.kept)
        if let bits = memo.withLock({ $0.bits(of: description) }) { return bits }
        let bits = classify(record.summary, record.categories, record.kept)
        memo.withLock { $0.keep(bits, of: description) }
        return bits
    }

    /// The descriptions sorted so far, shared by every copy of the classifier: the workers of one import.
    private let memo = Locked(Memo())

    /// What a classifier reads of an event.
    private struct Description: Hashable, Sendable {
        var summary: String
        var categories: [String]
        var kept: [String: String]
    }

    /// The bits of the descriptions sorted so far. A calendar made by people repeats a few
    /// descriptions (every "Piano" session has the same SUMMARY and CATEGORIES), so most of its
    /// events are sorted by one lookup instead of every habit's filter; the answer is the
    /// classifier's either way. It keeps at most `limit` descriptions; once full, it is asked
    /// only while at least half of its lookups find the description known, so that a calendar of
    /// different descriptions (every SUMMARY numbered, say) pays for `limit` lookups and no more.
    private struct Memo: Sendable {
        private var known: [Description: UInt64] = [:]
        private var lookups = 0
        private var hits = 0
        static let limit = 4_096

        var isWorthIt: Bool { known.count < Self.limit || hits * 2 >= lookups }

        mutating func bits(of description: Description) -> UInt64? {
            lookups += 1
            guard let bits = known[description] else { return nil }
            hits += 1
            return bits
        }

        mutating func keep(_ bits: UInt64, of description: Description) {
            if known.count < Self.limit { known[description] = bits }
        }
    }
}
