@testable import ICalendar
import Streaks
import Testing

/// `SessionResolver.standingEventsWithoutCopies(_:)`: the cheap check that lets the resolver skip
/// merging copies when there are none, against the definition (no two events with a UID share it
/// and their RECURRENCE-ID).
@Suite("Copies of an event, found without hashing every UID")
struct CopyMergingTests {
    private static let recurrenceIDs: [ICalTime?] = [
        nil,
        ICalTime(local: LocalDateTime(year: 2024, month: 3, day: 1, hour: 9)!, isDate: false, isUTC: false, timeZoneID: nil),
        ICalTime(local: LocalDateTime(year: 2024, month: 3, day: 1, hour: 9)!, isDate: false, isUTC: true, timeZoneID: nil),
        ICalTime(local: LocalDateTime(year: 2024, month: 3, day: 1, hour: 9)!, isDate: false, isUTC: false, timeZoneID: "Europe/Berlin"),
        ICalTime(local: LocalDateTime(year: 2024, month: 3, day: 1, hour: 0)!, isDate: true, isUTC: false, timeZoneID: nil),
        ICalTime(local: LocalDateTime(year: 2024, month: 3, day: 1, hour: 10)!, isDate: false, isUTC: false, timeZoneID: nil),
    ]

    private static func event(line: Int, uid: String?, recurrenceID: ICalTime?, annotation: Bool = false) -> (record: EventRecord, calendar: Int) {
        var record = EventRecord(begin: ContentLine(text: "BEGIN:VEVENT", line: line, name: "BEGIN", valueColumn: 7))
        record.uid = uid
        record.recurrenceID = recurrenceID
        record.isAnnotation = annotation
        return (record, 0)
    }

    @Test("Random sets of events: the standing ones in order when no two are copies, nil when some are", arguments: [1, 2, 3] as [UInt64])
    func againstDefinition(seed: UInt64) {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let uids: [String?] = [nil, "", "a", "b", "series-0000001@example.com", "series-0000002@example.com"]
        var withCopies = 0
        for _ in 0..<2_000 {
            let events = (0..<(1 + next(12))).map { line in
                Self.event(line: line + 1, uid: uids[next(uids.count)], recurrenceID: Self.recurrenceIDs[next(Self.recurrenceIDs.count)],
                           annotation: next(10) == 0)
            }
            let standing = events.indices.filter { !events[$0].record.isAnnotation }
            var hasCopies = false
            for a in standing {
                for b in standing where b > a {
                    guard let uid = events[a].record.uid, !uid.isEmpty, uid == events[b].record.uid else { continue }
                    if events[a].record.recurrenceID == events[b].record.recurrenceID { hasCopies = true }
                }
            }
            let found = SessionResolver.standingEventsWithoutCopies(events)
            #expect(found == (hasCopies ? nil : standing))
            if hasCopies { withCopies += 1 }
        }
        #expect(withCopies > 200 && withCopies < 1_800)
    }

    @Test("Many events of one UID at one time are left to the full merge")
    func manyOfOneTime() {
        let time = Self.recurrenceIDs[1]
        let distinct = (0..<17).map { Self.event(line: $0 + 1, uid: "u\($0)", recurrenceID: time) }
        #expect(SessionResolver.standingEventsWithoutCopies(distinct) == Array(0..<17))
        let zones = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q"]
        let sameUID = zones.enumerated().map { index, zone in
            Self.event(line: index + 1, uid: "u", recurrenceID: ICalTime(local: time!.local, isDate: false, isUTC: false, timeZoneID: zone))
        }
        #expect(SessionResolver.standingEventsWithoutCopies(sameUID) == nil)
        #expect(SessionResolver.standingEventsWithoutCopies(Array(sameUID.prefix(16))) == Array(0..<16))
    }
}
