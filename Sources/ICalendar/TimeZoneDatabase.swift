import Foundation
import Streaks
import Synchronization

/// The IANA time zone database as `TimeZoneRules`, each zone tabulated once per process.
final class TimeZoneDatabase: Sendable {
    static let shared = TimeZoneDatabase()

    private let cache = Mutex<[String: TimeZoneRules?]>([:])

    /// The rules for an IANA zone name, or `nil` if the database does not know it.
    func rules(for identifier: String) -> TimeZoneRules? {
        if let cached = cache.withLock({ $0[identifier] }) { return cached }
        let rules = TimeZoneRules(identifier: identifier)
        cache.withLock { $0[identifier] = rules }
        return rules
    }
}
