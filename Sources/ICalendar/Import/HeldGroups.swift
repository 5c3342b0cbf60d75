import CalendarDiagnostics
import Streaks

/// The events an import holds (`EventReadiness.withItsGroup` and `.atTheEnd`), grouped by UID.
///
/// A group whose UID's last VEVENT the first pass knows (`InputOutline.lastEventLine(of:)`) is
/// taken out whole as soon as the import has read that line, so memory holds the groups still
/// open, not every recurring event of the input; the others wait for the end, when they are taken
/// out together, in input order. Held records are moved in and out, never copied.
struct HeldGroups {
    typealias Event = (record: EventRecord, calendar: Int)

    /// One UID's held events, each with the number it was held by (the order of the input).
    private struct Group {
        var events: [Event] = []
        /// The number each event was held by.
        var numbers: [Int] = []
        /// Whether it is resolved when its UID's last VEVENT is read (else at the end).
        var completesEarly = false
    }

    /// The groups by UID (an event without UID is a group of its own, by a key no UID has).
    private var groups: [String: Group] = [:]
    private var nextNumber = 0
    /// The groups that complete before the end, by the line of their UID's last VEVENT.
    private var completions = MinHeap<(line: Int, uid: String)> { Int64($0.line) }
    /// The UIDs said to have too many events.
    private var overfull: Set<String> = []
    /// The group the last event joined, while no group has been added or removed (its index stands
    /// until then): a series' overrides come one after another, and their UID is then compared,
    /// not hashed.
    private var last: (uid: String, index: Dictionary<String, Group>.Index)?

    /// Events one UID may hold at once: a series with this many overrides is beyond any real
    /// calendar, and each held event takes memory until its group is resolved.
    static let maximumEventsPerUID = 20_000

    var isEmpty: Bool { groups.isEmpty }

    /// Holds an event until the line `lastLine` (its UID's last VEVENT) is read, or until the end
    /// when `lastLine` is `nil`. Returns a warning, once per UID, when the UID holds too many.
    mutating func hold(_ record: consuming EventRecord, calendar: Int, completesAt lastLine: Int?) -> Diagnostic? {
        let number = nextNumber
        nextNumber += 1
        let uid = record.uid ?? ""
        let key = uid.isEmpty ? "\u{0}\(number)" : uid
        let index: Dictionary<String, Group>.Index
        if let last, last.uid == key {
            index = last.index
        } else if let found = groups.index(forKey: key) {
            index = found
        } else {
            groups[key] = Group(completesEarly: lastLine != nil && !uid.isEmpty)
            if let lastLine, !uid.isEmpty { completions.insert((lastLine, key)) }
            index = groups.index(forKey: key)!
        }
        last = (key, index)
        guard groups.values[index].events.count < Self.maximumEventsPerUID else { return tooMany(uid, at: record.begin) }
        groups.values[index].events.append((record, calendar))
        groups.values[index].numbers.append(number)
        return nil
    }

    private mutating func tooMany(_ uid: String, at begin: ContentLine) -> Diagnostic? {
        guard overfull.insert(uid).inserted else { return nil }
        return Diagnostic(
            .warning, .limit, at: begin.location(),
            "more than \(Self.maximumEventsPerUID) VEVENTs share the UID \(uid); this one and the later ones are left out",
            sourceLine: begin.text)
    }

    /// Takes out the groups whose UID's last VEVENT stands on or before `line`, each in input order.
    mutating func takeComplete(through line: Int) -> [[Event]] {
        var complete: [[Event]] = []
        while let (lastLine, uid) = completions.first, lastLine <= line {
            completions.removeFirst()
            last = nil
            if let group = groups.removeValue(forKey: uid) { complete.append(group.events) }
        }
        return complete
    }

    /// Takes out every event still held, in input order.
    mutating func takeAll() -> [Event] {
        var numbered: [(number: Int, event: Event)] = []
        for (_, group) in groups { numbered += zip(group.numbers, group.events).map { ($0, $1) } }
        groups = [:]
        completions = MinHeap { Int64($0.line) }
        last = nil
        numbered.sort { $0.number < $1.number }
        return numbered.map(\.event)
    }
}
