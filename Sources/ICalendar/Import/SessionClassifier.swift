package import Streaks

/// Sorts counted sessions into habits at the import: a bit per habit whose filter takes an event,
/// tested once per event (every instance of a series is its event's, and shares its SUMMARY,
/// CATEGORIES and properties), so that a report with habits counts its sessions without a
/// `Session` for each instance.
package struct SessionClassifier: Sendable {
    /// The bits of an event: bit `i` when habit `i` takes it; ``skipCategoryBit`` when it has a
    /// skip category.
    package let classify: @Sendable (_ description: Session) -> UInt64

    /// The bit of an event with a skip category (a skip marker when it is all-day as well).
    package static let skipCategoryBit: UInt64 = 1 << 63

    /// The most habits a classifier sorts into (a bit each, the last bit for skip categories).
    package static let maximumHabits = 63

    package init(classify: @escaping @Sendable (_ description: Session) -> UInt64) {
        self.classify = classify
    }

    /// The bits of `record`: its SUMMARY, CATEGORIES and kept properties, as a session of it has them.
    func classes(of record: borrowing EventRecord) -> UInt64 {
        let start = SessionTime.date(Day(daysSince1970: 0))
        return classify(Session(
            id: "", start: start, end: start, points: 0,
            summary: record.summary, categories: record.categories, properties: record.kept))
    }
}
