import Foundation
import Streaks
import Synchronization

/// The IANA time zone database as `TimeZoneRules`, each zone tabulated once per process, and the
/// real-world names (Windows ids, display names, vendor paths) that stand for its zones.
final class TimeZoneDatabase: Sendable {
    static let shared = TimeZoneDatabase()

    /// A TZID resolved to IANA rules; `alias` is the IANA identifier when the TZID is another name for it.
    struct Resolution: Sendable {
        var rules: TimeZoneRules
        var alias: String?
    }

    private let zones = Mutex<[String: TimeZoneRules?]>([:])
    private let names = Mutex<[String: Resolution?]>([:])

    /// The rules for an IANA zone name, or `nil` if the database does not know it.
    func rules(for identifier: String) -> TimeZoneRules? {
        if let cached = zones.withLock({ $0[identifier] }) { return cached }
        let rules = TimeZoneRules(identifier: identifier)
        zones.withLock { $0[identifier] = rules }
        return rules
    }

    /// The rules a TZID stands for: an IANA name, or a name `TimeZoneNames` maps to one.
    func resolve(_ tzid: String) -> Resolution? {
        if let cached = names.withLock({ $0[tzid] }) { return cached }
        var resolution = rules(for: tzid).map { Resolution(rules: $0, alias: nil) }
        if resolution == nil,
           let identifier = TimeZoneNames.ianaIdentifier(for: tzid, isKnown: { TimeZone(identifier: $0) != nil }),
           let rules = rules(for: identifier) {
            resolution = Resolution(rules: rules, alias: identifier)
        }
        names.withLock { $0[tzid] = resolution }
        return resolution
    }
}
