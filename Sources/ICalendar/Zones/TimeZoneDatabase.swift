import Foundation
import Streaks

/// The IANA time zone database as `TimeZoneRules`, each zone tabulated once per process, and the
/// real-world names (Windows ids, display names, vendor paths) that stand for its zones.
final class TimeZoneDatabase: Sendable {
    static let shared = TimeZoneDatabase()

    /// A TZID resolved to IANA rules; `alias` is the IANA identifier when the TZID is another name for it.
    struct Resolution: Sendable {
        var rules: TimeZoneRules
        var alias: String?
    }

    // NSLock rather than Synchronization.Mutex: ThreadSanitizer on Linux reports false races when
    // two threads contend for a Mutex.
    private let lock = NSLock()
    nonisolated(unsafe) private var zones: [String: TimeZoneRules?] = [:]
    nonisolated(unsafe) private var names: [String: Resolution?] = [:]

    /// The rules for an IANA zone name, or `nil` if the database does not know it.
    func rules(for identifier: String) -> TimeZoneRules? {
        if let cached = lock.withLock({ zones[identifier] }) { return cached }
        let rules = TimeZoneRules(identifier: identifier)
        lock.withLock {
            if zones.count < Self.maximumNamesKept { zones[identifier] = rules }
        }
        return rules
    }

    /// Names whose answers are kept: every IANA zone and its usual other names fit many times over;
    /// a process that reads thousands of calendars full of made-up TZIDs does not grow without end.
    static let maximumNamesKept = 10_000

    /// The rules a TZID stands for: an IANA name, or a name `TimeZoneNames` maps to one.
    func resolve(_ tzid: String) -> Resolution? {
        if let cached = lock.withLock({ names[tzid] }) { return cached }
        var resolution = rules(for: tzid).map { Resolution(rules: $0, alias: nil) }
        if resolution == nil,
           let identifier = TimeZoneNames.ianaIdentifier(for: tzid, isKnown: { TimeZone(identifier: $0) != nil }),
           let rules = rules(for: identifier) {
            resolution = Resolution(rules: rules, alias: identifier)
        }
        lock.withLock {
            if names.count < Self.maximumNamesKept { names[tzid] = resolution }
        }
        return resolution
    }
}
