import Foundation
import Streaks
import Testing

/// Zones with DST in both hemispheres, half- and quarter-hour offsets, a skipped day (Pacific/Apia,
/// 2011-12-30), a midnight gap (America/Sao_Paulo) and a half-hour DST shift (Australia/Lord_Howe).
private let zoneIdentifiers = [
    "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Pacific/Apia", "America/Sao_Paulo",
    "Australia/Lord_Howe", "America/St_Johns", "Asia/Kathmandu", "Europe/London", "America/Los_Angeles",
]

/// The instants (first second of the new offset) at which Foundation's offset for `zone` changes
/// in `range`, found by sampling every 12 hours and bisecting: independent of `TimeZoneRules`.
private func foundationTransitions(_ zone: TimeZone, in range: Range<Int64>) -> [Int64] {
    var result: [Int64] = []
    var previous = range.lowerBound
    var previousOffset = foundationOffset(zone, previous)
    for sample in stride(from: range.lowerBound + 43_200, to: range.upperBound, by: 43_200) {
        let offset = foundationOffset(zone, sample)
        if offset != previousOffset {
            var low = previous  // old offset
            var high = sample  // new offset
            while high - low > 1 {
                let middle = low + (high - low) / 2
                if foundationOffset(zone, middle) == previousOffset { low = middle } else { high = middle }
            }
            result.append(high)
        }
        previous = sample
        previousOffset = offset
    }
    return result
}

/// What RFC 5545 section 3.3.5 says a wall-clock time in `zone` denotes, worked out from Foundation alone:
/// the earliest instant whose local time it is, or, in a gap, the time read with the offset before the gap.
private func rfc5545Instant(_ zone: TimeZone, _ local: LocalDateTime) -> (instant: Int64, inGap: Bool) {
    let wallClock = local.secondsSince1970
    let offsetBefore = foundationOffset(zone, wallClock - 2 * 86_400)
    let offsetAfter = foundationOffset(zone, wallClock + 2 * 86_400)
    let candidates = Set([offsetBefore, offsetAfter, foundationOffset(zone, wallClock - Int64(offsetBefore)),
                          foundationOffset(zone, wallClock - Int64(offsetAfter))])
    let valid = candidates.map { wallClock - Int64($0) }.filter { wallClock - $0 == Int64(foundationOffset(zone, $0)) }
    if let earliest = valid.min() { return (earliest, false) }
    return (wallClock - Int64(offsetBefore), true)
}

@Suite("TimeZoneRules")
struct TimeZoneRulesTests {
    // MARK: - Offsets against Foundation

    @Test(arguments: zoneIdentifiers)
    func offsetsEverySixHours2015To2017(identifier: String) throws {
        let rules = try #require(TimeZoneRules(identifier: identifier))
        let zone = try #require(TimeZone(identifier: identifier))
        var mismatches: [String] = []
        var samples = 0
        for instant in stride(from: utcInstant(2015, 1, 1), to: utcInstant(2018, 1, 1), by: 6 * 3600) {
            samples += 1
            let expected = foundationOffset(zone, instant)
            if rules.utcOffset(at: instant) != expected {
                mismatches.append("\(instant): expected \(expected), got \(rules.utcOffset(at: instant))")
            }
            let local = rules.localDateTime(at: instant)
            if local.secondsSince1970 != instant + Int64(expected) {
                mismatches.append("\(instant): local \(local)")
            }
        }
        #expect(samples == 1096 * 4)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// One second either side of every transition from 1990 to 2030, and at the transition itself.
    @Test(arguments: zoneIdentifiers)
    func offsetsAroundEveryTransition1990To2030(identifier: String) throws {
        let rules = try #require(TimeZoneRules(identifier: identifier))
        let zone = try #require(TimeZone(identifier: identifier))
        let transitions = foundationTransitions(zone, in: utcInstant(1990, 1, 1)..<utcInstant(2030, 1, 1))
        var mismatches: [String] = []
        for transition in transitions {
            for instant in [transition - 1, transition, transition + 1] {
                let expected = foundationOffset(zone, instant)
                if rules.utcOffset(at: instant) != expected {
                    mismatches.append("\(instant): expected \(expected), got \(rules.utcOffset(at: instant))")
                }
            }
            #expect(rules.utcOffset(at: transition - 1) != rules.utcOffset(at: transition))
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// The scan above finds the transitions it should (so that it does not pass vacuously).
    @Test(arguments: [
        ("Europe/Berlin", 80), ("America/New_York", 80), ("Australia/Sydney", 80), ("Asia/Kolkata", 0),
        ("Asia/Kathmandu", 0), ("Europe/London", 80),
    ])
    func transitionCounts1990To2030(identifier: String, count: Int) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        #expect(foundationTransitions(zone, in: utcInstant(1990, 1, 1)..<utcInstant(2030, 1, 1)).count == count)
    }

    @Test func knownTransitionInstants() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        #expect(foundationTransitions(berlin, in: utcInstant(2016, 1, 1)..<utcInstant(2017, 1, 1))
            == [utcInstant(2016, 3, 27, 1), utcInstant(2016, 10, 30, 1)])
        let apia = try #require(TimeZone(identifier: "Pacific/Apia"))
        #expect(foundationTransitions(apia, in: utcInstant(2011, 12, 1)..<utcInstant(2012, 1, 1)) == [1_325_239_200])
        let rules = try #require(TimeZoneRules(identifier: "Pacific/Apia"))
        #expect(rules.utcOffset(at: 1_325_239_199) == -10 * 3600)
        #expect(rules.utcOffset(at: 1_325_239_200) == 14 * 3600)
        #expect(rules.localDateTime(at: 1_325_239_199).description == "2011-12-29T23:59:59")
        #expect(rules.localDateTime(at: 1_325_239_200).description == "2011-12-31T00:00:00")
    }

    /// Monthly from 1800 to 2300: inside the precomputed table (1900–2200) and outside it.
    @Test(arguments: zoneIdentifiers)
    func offsetsMonthly1800To2300(identifier: String) throws {
        let rules = try #require(TimeZoneRules(identifier: identifier))
        let zone = try #require(TimeZone(identifier: identifier))
        var mismatches: [String] = []
        for instant in stride(from: utcInstant(1800, 1, 1), to: utcInstant(2300, 1, 1), by: 2_551_443) {
            let expected = foundationOffset(zone, instant)
            if rules.utcOffset(at: instant) != expected {
                mismatches.append("\(instant): expected \(expected), got \(rules.utcOffset(at: instant))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    // MARK: - RFC 5545 section 3.3.5: gaps and overlaps

    struct WallClockCase: Sendable, CustomTestStringConvertible {
        var zone: String
        var local: LocalDateTime
        /// The instant RFC 5545 assigns (worked out with Python's zoneinfo, fold=0).
        var instant: Int64
        /// The local time at that instant (differs from `local` in a gap).
        var resolved: String
        var testDescription: String { "\(zone) \(local)" }

        init(_ zone: String, _ local: LocalDateTime, _ instant: Int64, _ resolved: String? = nil) {
            self.zone = zone
            self.local = local
            self.instant = instant
            self.resolved = resolved ?? local.description
        }
    }

    @Test(arguments: [
        // Spring-forward gaps: the offset before the gap applies.
        WallClockCase("Europe/Berlin", wall(2016, 3, 27, 2, 28), 1_459_042_080, "2016-03-27T03:28:00"),  // 01:28Z
        WallClockCase("Europe/Berlin", wall(2016, 3, 27, 2, 0), 1_459_040_400, "2016-03-27T03:00:00"),  // 01:00Z
        WallClockCase("Europe/Berlin", wall(2016, 3, 27, 2, 59, 59), 1_459_043_999, "2016-03-27T03:59:59"),
        WallClockCase("Europe/Berlin", wall(2016, 3, 27, 1, 59, 59), 1_459_040_399),  // 00:59:59Z
        WallClockCase("Europe/Berlin", wall(2016, 3, 27, 3, 0), 1_459_040_400),  // 01:00Z
        WallClockCase("America/New_York", wall(2007, 3, 11, 2, 30), 1_173_598_200, "2007-03-11T03:30:00"),  // 07:30Z
        WallClockCase("America/New_York", wall(2007, 3, 11, 1, 59, 59), 1_173_596_399),
        WallClockCase("America/New_York", wall(2007, 3, 11, 3, 0), 1_173_596_400),  // 07:00Z
        WallClockCase("Australia/Sydney", wall(2016, 10, 2, 2, 30), 1_475_339_400, "2016-10-02T03:30:00"),  // 10-01 16:30Z, +10:00
        WallClockCase("Pacific/Apia", wall(2011, 12, 30, 12, 0), 1_325_282_400, "2011-12-31T12:00:00"),  // 22:00Z, -10:00
        WallClockCase("Pacific/Apia", wall(2011, 12, 30, 0, 0), 1_325_239_200, "2011-12-31T00:00:00"),  // 10:00Z
        WallClockCase("Pacific/Apia", wall(2011, 12, 29, 23, 59, 59), 1_325_239_199),
        WallClockCase("Pacific/Apia", wall(2011, 12, 31, 0, 0), 1_325_239_200),
        WallClockCase("America/Sao_Paulo", wall(2016, 10, 16, 0, 30), 1_476_588_600, "2016-10-16T01:30:00"),  // 03:30Z, -03:00
        WallClockCase("Australia/Lord_Howe", wall(2016, 10, 2, 2, 15), 1_475_336_700, "2016-10-02T02:45:00"),  // +10:30
        WallClockCase("America/St_Johns", wall(2016, 3, 13, 2, 30), 1_457_848_800, "2016-03-13T03:30:00"),  // -03:30
        // Autumn overlaps: the first occurrence.
        WallClockCase("America/New_York", wall(2007, 11, 4, 1, 30), 1_194_154_200),  // 05:30Z, EDT
        WallClockCase("America/New_York", wall(2007, 11, 4, 1, 0), 1_194_152_400),  // 05:00Z, EDT
        WallClockCase("America/New_York", wall(2007, 11, 4, 0, 59, 59), 1_194_152_399),
        WallClockCase("America/New_York", wall(2007, 11, 4, 2, 0), 1_194_159_600),  // 07:00Z, EST
        WallClockCase("Europe/Berlin", wall(2016, 10, 30, 2, 30), 1_477_787_400),  // 00:30Z, CEST
        WallClockCase("Europe/Berlin", wall(2016, 10, 30, 2, 0), 1_477_785_600),  // 00:00Z
        WallClockCase("Europe/Berlin", wall(2016, 10, 30, 1, 59, 59), 1_477_785_599),
        WallClockCase("Europe/Berlin", wall(2016, 10, 30, 3, 0), 1_477_792_800),  // 02:00Z, CET
        WallClockCase("Australia/Sydney", wall(2016, 4, 3, 2, 30), 1_459_611_000),  // 04-02 15:30Z, +11:00
        WallClockCase("Australia/Sydney", wall(2016, 4, 3, 1, 59, 59), 1_459_609_199),
        WallClockCase("Australia/Sydney", wall(2016, 4, 3, 3, 0), 1_459_616_400),  // 04-02 17:00Z, +10:00
        WallClockCase("America/Sao_Paulo", wall(2017, 2, 18, 23, 30), 1_487_467_800),  // 02-19 01:30Z, -02:00
        WallClockCase("America/Sao_Paulo", wall(2017, 2, 19, 0, 0), 1_487_473_200),  // 03:00Z, -03:00
        WallClockCase("Australia/Lord_Howe", wall(2016, 4, 3, 1, 45), 1_459_608_300),  // 04-02 14:45Z, +11:00
        WallClockCase("America/St_Johns", wall(2016, 11, 6, 1, 30), 1_478_404_800),  // 04:00Z, -02:30
        // No transition.
        WallClockCase("Asia/Kolkata", wall(2016, 3, 27, 2, 30), 1_459_026_000),  // 03-26 21:00Z
    ])
    func rfc5545GapsAndOverlaps(testCase: WallClockCase) throws {
        let rules = try #require(TimeZoneRules(identifier: testCase.zone))
        #expect(rules.instant(for: testCase.local) == testCase.instant)
        #expect(rules.localDateTime(at: testCase.instant).description == testCase.resolved)
    }

    @Test func gapOffsetsAreTheOnesBeforeTheGap() throws {
        let berlin = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
        #expect(berlin.instant(for: wall(2016, 3, 27, 2, 28)) == utcInstant(2016, 3, 27, 1, 28))
        let newYork = try #require(TimeZoneRules(identifier: "America/New_York"))
        let springForward = newYork.instant(for: wall(2007, 3, 11, 2, 30))
        #expect(springForward == utcInstant(2007, 3, 11, 7, 30))
        #expect(newYork.utcOffset(at: springForward) == -4 * 3600)
        #expect(newYork.localDateTime(at: springForward) == wall(2007, 3, 11, 3, 30))
        let sydney = try #require(TimeZoneRules(identifier: "Australia/Sydney"))
        #expect(wall(2016, 10, 2, 2, 30).secondsSince1970 - sydney.instant(for: wall(2016, 10, 2, 2, 30)) == 10 * 3600)
        #expect(wall(2016, 4, 3, 2, 30).secondsSince1970 - sydney.instant(for: wall(2016, 4, 3, 2, 30)) == 11 * 3600)
        #expect(sydney.instant(for: wall(2016, 4, 3, 2, 30)) == utcInstant(2016, 4, 2, 15, 30))
    }

    /// Every wall-clock time on a grid over 2011–2017, and every ten minutes within three hours of each
    /// transition, resolves as RFC 5545 says; outside gaps, `localDateTime(at: instant(for: x)) == x`.
    @Test(arguments: zoneIdentifiers)
    func instantForWallClockMatchesOracle(identifier: String) throws {
        let rules = try #require(TimeZoneRules(identifier: identifier))
        let zone = try #require(TimeZone(identifier: identifier))
        let range = utcInstant(2011, 1, 1)..<utcInstant(2018, 1, 1)
        var locals = Array(stride(from: range.lowerBound, to: range.upperBound, by: 6 * 3600 + 7 * 60))
        for transition in foundationTransitions(zone, in: range) {
            for offset in [foundationOffset(zone, transition - 1), foundationOffset(zone, transition)] {
                let localTransition = transition + Int64(offset)
                locals += Array(stride(from: localTransition - 3 * 3600, through: localTransition + 3 * 3600, by: 600))
                locals += [localTransition - 1, localTransition + 1]
            }
        }
        var mismatches: [String] = []
        var gaps = 0
        for seconds in locals {
            let local = LocalDateTime(secondsSince1970: seconds)
            let (expected, inGap) = rfc5545Instant(zone, local)
            let actual = rules.instant(for: local)
            if actual != expected {
                mismatches.append("\(local): expected \(expected), got \(actual)")
            }
            if inGap {
                gaps += 1
            } else if rules.localDateTime(at: actual) != local {
                mismatches.append("\(local): round trip gave \(rules.localDateTime(at: actual))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        let zonesWithGaps: Set = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Pacific/Apia", "America/Sao_Paulo",
                                  "Australia/Lord_Howe", "America/St_Johns", "Europe/London", "America/Los_Angeles"]
        #expect((gaps > 0) == zonesWithGaps.contains(identifier))
    }

    /// `instant(for:hint:)` answers as `instant(for:)` whatever the hint holds: times ascending (a
    /// series), hourly across every transition of 2011–2017, then jumping back, to the table's edges
    /// (1900, 2200: Foundation answers there) and beyond, and with hints out of range.
    @Test(arguments: zoneIdentifiers)
    func hintedInstantsMatch(identifier: String) throws {
        let rules = try #require(TimeZoneRules(identifier: identifier))
        let hourly = Array(stride(from: utcInstant(2011, 1, 1), to: utcInstant(2018, 1, 1), by: 3_600 + 60))
        let jumps: [Int64] = [
            utcInstant(2016, 3, 27, 2, 30), utcInstant(1990, 6, 1), utcInstant(2030, 10, 27, 2, 30), utcInstant(1900, 1, 1),
            utcInstant(1899, 12, 31, 23), utcInstant(2199, 12, 31, 23), utcInstant(2200, 1, 2), utcInstant(2011, 1, 1), -1, 0,
        ]
        var hint = 0
        var mismatches: [String] = []
        for seconds in hourly + jumps + hourly.reversed() {
            let local = LocalDateTime(secondsSince1970: seconds)
            let hinted = rules.instant(for: local, hint: &hint)
            if hinted != rules.instant(for: local) { mismatches.append("\(local)") }
        }
        for badHint in [-5, Int.max, 1 << 20] {
            var hint = badHint
            let local = LocalDateTime(secondsSince1970: utcInstant(2016, 10, 30, 2, 30))
            if rules.instant(for: local, hint: &hint) != rules.instant(for: local) { mismatches.append("hint \(badHint)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    // MARK: - Explicit transitions

    /// UTC+1 until 1000, then UTC, from 2000 UTC+2, from 3000 UTC+1 again; given out of order.
    @Test func explicitTransitionsInAnyOrder() {
        let rules = TimeZoneRules(identifier: "Test/Unsorted", initialOffset: 3600,
                                  transitions: [(instant: 2000, offset: 7200), (instant: 1000, offset: 0), (instant: 3000, offset: 3600)])
        let expectations: [(Int64, Int)] = [
            (.min, 3600), (-1_000_000, 3600), (999, 3600), (1000, 0), (1999, 0), (2000, 7200), (2999, 7200),
            (3000, 3600), (1_000_000_000, 3600), (.max, 3600),
        ]
        for (instant, offset) in expectations {
            #expect(rules.utcOffset(at: instant) == offset, "at \(instant)")
        }
        let sorted = TimeZoneRules(identifier: "Test/Unsorted", initialOffset: 3600,
                                   transitions: [(instant: 1000, offset: 0), (instant: 2000, offset: 7200), (instant: 3000, offset: 3600)])
        #expect(rules == sorted)
        #expect(rules.identifier == "Test/Unsorted")
        #expect(rules.description == "Test/Unsorted")
    }

    @Test func explicitTransitionsThatChangeNothing() {
        let rules = TimeZoneRules(identifier: "Test/Flat", initialOffset: -18_000,
                                  transitions: [(instant: 500, offset: -18_000), (instant: 100, offset: -18_000)])
        for instant: Int64 in [-1_000, 99, 100, 101, 500, 10_000] {
            #expect(rules.utcOffset(at: instant) == -18_000)
        }
        #expect(rules == TimeZoneRules.fixed(identifier: "Test/Flat", offset: -18_000))
        #expect(rules.instant(for: LocalDateTime(secondsSince1970: 0)) == 18_000)
    }

    /// A synthetic zone: UTC, then UTC+1 from 10 000 (a gap at local 10 000..<13 600), then UTC again
    /// from 100 000 (an overlap at local 100 000..<103 600).
    @Test(arguments: [
        (Int64(0), Int64(0)), (9_999, 9_999),
        (10_000, 10_000), (11_000, 11_000), (13_599, 13_599),  // gap: offset before (UTC)
        (13_600, 10_000), (50_000, 46_400),
        (99_999, 96_399), (100_000, 96_400), (101_000, 97_400), (103_599, 99_999),  // overlap: first (UTC+1)
        (103_600, 103_600), (200_000, 200_000),
    ])
    func explicitGapAndOverlap(localSeconds: Int64, instant: Int64) {
        let rules = TimeZoneRules(identifier: "Test/Synthetic", initialOffset: 0,
                                  transitions: [(instant: 100_000, offset: 0), (instant: 10_000, offset: 3600)])
        #expect(rules.instant(for: LocalDateTime(secondsSince1970: localSeconds)) == instant)
    }

    /// Transitions less than a day apart (UTC+1 from 10 000 to 20 000 only): local 21 000 happens twice,
    /// first at 17 400 (UTC+1), then at 21 000 (UTC); RFC 5545 wants the first.
    @Test func explicitTransitionsLessThanADayApart() {
        let rules = TimeZoneRules(identifier: "Test/Brief", initialOffset: 0,
                                  transitions: [(instant: 10_000, offset: 3600), (instant: 20_000, offset: 0)])
        #expect(rules.instant(for: LocalDateTime(secondsSince1970: 15_000)) == 11_400)
        #expect(rules.instant(for: LocalDateTime(secondsSince1970: 12_000)) == 12_000)  // gap
        #expect(rules.instant(for: LocalDateTime(secondsSince1970: 21_000)) == 17_400)
    }

    // MARK: - Fixed zones

    @Test(arguments: [Int64.min / 2, -86_400, 0, 1, 1_700_000_000, Int64.max / 2])
    func utc(instant: Int64) {
        #expect(TimeZoneRules.utc.utcOffset(at: instant) == 0)
        #expect(TimeZoneRules.utc.localDateTime(at: instant).secondsSince1970 == instant)
        #expect(TimeZoneRules.utc.instant(for: LocalDateTime(secondsSince1970: instant)) == instant)
    }

    @Test func utcBasics() {
        #expect(TimeZoneRules.utc.identifier == "UTC")
        #expect(TimeZoneRules.utc.description == "UTC")
        #expect(TimeZoneRules.utc.localDateTime(at: 0).description == "1970-01-01T00:00:00")
        #expect(TimeZoneRules.utc.localDateTime(at: 1_708_416_000).description == "2024-02-20T08:00:00")
    }

    @Test(arguments: [(19_800, "2024-02-20T13:30:00"), (-36_000, "2024-02-19T22:00:00"), (50_400, "2024-02-20T22:00:00"), (0, "2024-02-20T08:00:00")])
    func fixed(offset: Int, local: String) {
        let rules = TimeZoneRules.fixed(identifier: "Fixed", offset: offset)
        #expect(rules.identifier == "Fixed")
        #expect(rules.utcOffset(at: 1_708_416_000) == offset)
        #expect(rules.utcOffset(at: -1_000_000_000) == offset)
        #expect(rules.localDateTime(at: 1_708_416_000).description == local)
        #expect(rules.instant(for: rules.localDateTime(at: 1_708_416_000)) == 1_708_416_000)
    }

    // MARK: - Names

    @Test func identifiers() throws {
        #expect(TimeZoneRules(identifier: "Not/AZone") == nil)
        #expect(TimeZoneRules(identifier: "") == nil)
        let utc = try #require(TimeZoneRules(identifier: "UTC"))
        #expect(utc.identifier == "UTC")
        #expect(utc.utcOffset(at: 1_700_000_000) == 0)
        let berlin = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
        #expect(berlin.identifier == "Europe/Berlin")
        #expect(berlin.description == "Europe/Berlin")
        #expect(berlin == TimeZoneRules(identifier: "Europe/Berlin"))
        #expect(berlin != TimeZoneRules(identifier: "Europe/Paris"))
        let fromTimeZone = TimeZoneRules(timeZone: try #require(TimeZone(identifier: "Asia/Kolkata")))
        #expect(fromTimeZone.identifier == "Asia/Kolkata")
        #expect(fromTimeZone.utcOffset(at: 1_700_000_000) == 19_800)
    }
}

@Suite("Wall-clock times to instants, far from and near transitions")
struct WallClockInstantTests {
    /// The instant of a wall-clock time, from every offset in force within a day either side (the
    /// earliest valid one: the first occurrence; in a gap, the offset before it), as RFC 5545 3.3.5 reads it.
    private static func reference(_ rules: TimeZoneRules, _ local: LocalDateTime) -> Int64 {
        let wall = local.secondsSince1970
        let transitions = rules.transitions(in: (wall - 86_400)...(wall + 86_399))
        var candidates = [Int64(rules.utcOffset(at: wall - 86_400))] + transitions.map { Int64($0.offsetAfter) }
        candidates = candidates.filter { Int64(rules.utcOffset(at: wall - $0)) == $0 }
        if let first = candidates.map({ wall - $0 }).min() { return first }
        let gap = transitions.first { wall >= $0.instant + Int64($0.offsetBefore) && wall < $0.instant + Int64($0.offsetAfter) }
        return wall - Int64(gap?.offsetBefore ?? rules.utcOffset(at: wall - 86_400))
    }

    @Test("Every quarter hour of 2015 to 2025 converts as every candidate offset says", arguments: zoneIdentifiers)
    func everyQuarterHour(_ identifier: String) throws {
        let rules = try #require(TimeZoneRules(identifier: identifier))
        let start = try #require(LocalDateTime(year: 2015, month: 1, day: 1, hour: 0, minute: 0)).secondsSince1970
        let end = try #require(LocalDateTime(year: 2026, month: 1, day: 1, hour: 0, minute: 0)).secondsSince1970
        var checked = 0
        var mismatches: [String] = []
        for wall in stride(from: start, to: end, by: 900) {
            let local = LocalDateTime(secondsSince1970: wall)
            let instant = rules.instant(for: local)
            if instant != Self.reference(rules, local), mismatches.count < 5 { mismatches.append("\(local)") }
            checked += 1
        }
        #expect(mismatches.isEmpty, "\(identifier): \(mismatches)")
        #expect(checked == 385_728)
    }
}

@Suite("Zone names that are GMT or UTC offsets")
struct OffsetSpellingTests {
    @Test("GMT±N and UTC±N are read two ways: the problem names both readings and the IANA names", arguments: [
        ("GMT+5", "'GMT+5' is read two ways: as UTC+05:00 (ISO 8601) and as UTC-05:00 (POSIX TZ, and the IANA name Etc/GMT+5); name a zone such as Asia/Karachi, or write Etc/GMT-5 for UTC+05:00 (Etc/GMT+5 for UTC-05:00)"),
        ("UTC-3", "'UTC-3' is read two ways: as UTC-03:00 (ISO 8601) and as UTC+03:00 (POSIX TZ, and the IANA name Etc/GMT-3); name a zone such as America/Sao_Paulo, or write Etc/GMT+3 for UTC-03:00 (Etc/GMT-3 for UTC+03:00)"),
        ("GMT+05:30", "'GMT+05:30' is read two ways: as UTC+05:30 (ISO 8601) and as UTC-05:30 (POSIX TZ); name a zone such as Asia/Kolkata"),
        ("UTC+0530", "'UTC+0530' is read two ways: as UTC+05:30 (ISO 8601) and as UTC-05:30 (POSIX TZ); name a zone such as Asia/Kolkata"),
        ("GMT+14", "'GMT+14' is read two ways: as UTC+14:00 (ISO 8601) and as UTC-14:00 (POSIX TZ); name a zone such as Pacific/Kiritimati, or write Etc/GMT-14 for UTC+14:00"),
    ])
    func refused(name: String, problem: String) {
        #expect(TimeZoneRules.offsetSpellingProblem(name) == problem)
    }

    @Test("Names without an offset, zero offsets and IANA names are not offset spellings", arguments: [
        "GMT", "UTC", "GMT+0", "GMT-0", "UTC+00:00", "Etc/GMT+5", "Etc/GMT-14", "Europe/Berlin", "GMT+", "GMT+5h", "utc+5", "GMT+123",
    ])
    func notOffsets(name: String) {
        #expect(TimeZoneRules.offsetSpellingProblem(name) == nil)
    }

    @Test("Foundation reads the spellings refused as offsets east of UTC, the IANA Etc names as west")
    func foundationReading() throws {
        let instant = Int64(1_717_243_200)  // 2024-06-01T12:00:00Z
        #expect(try #require(TimeZoneRules(identifier: "GMT+5")).utcOffset(at: instant) == 18_000)
        #expect(try #require(TimeZoneRules(identifier: "Etc/GMT+5")).utcOffset(at: instant) == -18_000)
        #expect(try #require(TimeZoneRules(identifier: "Etc/GMT-5")).utcOffset(at: instant) == 18_000)
    }
}
