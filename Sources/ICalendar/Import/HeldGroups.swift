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

    /// Held events by the order they were held in.
    private var events: [Int: Event] = [:]
    private var nextNumber = 0
    /// The events of each group that completes before the end, by UID.
    private var members: [String: [Int]] = [:]
    /// The groups that complete before the end, by the line of their UID's last VEVENT.
    private var completions = LineHeap()
    /// How many events each UID has held, and the UIDs said to have too many.
    private var heldPerUID: [String: Int] = [:]
    private var overfull: Set<String> = []

    /// Events one UID may hold at once: a series with this many overrides is beyond any real
    /// calendar, and each held event takes memory until its group is resolved.
    static let maximumEventsPerUID = 20_000

    var isEmpty: Bool { events.isEmpty }

    /// Holds an event until the line `lastLine` (its UID's last VEVENT) is read, or until the end
    /// when `lastLine` is `nil`. Returns a warning, once per UID, when the UID holds too many.
    mutating func hold(_ record: consuming EventRecord, calendar: Int, completesAt lastLine: Int?) -> Diagnostic? {
        let uid = record.uid ?? ""
        if !uid.isEmpty {
            let count = heldPerUID[uid, default: 0] + 1
            guard count <= Self.maximumEventsPerUID else { return tooMany(uid, at: record.begin) }
            heldPerUID[uid] = count
        }
        let number = nextNumber
        nextNumber += 1
        events[number] = (record, calendar)
        guard let lastLine, !uid.isEmpty else { return nil }
        if members[uid] == nil { completions.insert(lastLine, uid) }
        members[uid, default: []].append(number)
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
            let numbers = members.removeValue(forKey: uid) ?? []
            heldPerUID[uid] = nil
            complete.append(numbers.compactMap { events.removeValue(forKey: $0) })
        }
        return complete
    }

    /// Takes out every event still held, in input order.
    mutating func takeAll() -> [Event] {
        let numbers = events.keys.sorted()
        var all: [Event] = []
        all.reserveCapacity(numbers.count)
        for number in numbers {
            if let event = events.removeValue(forKey: number) { all.append(event) }
        }
        members = [:]
        completions = LineHeap()
        heldPerUID = [:]
        return all
    }
}

/// Keys by line, the lowest first: a binary heap.
struct LineHeap {
    private var items: [(line: Int, key: String)] = []

    var first: (line: Int, key: String)? { items.first }

    mutating func insert(_ line: Int, _ key: String) {
        items.append((line, key))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].line < items[parent].line else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() {
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            var smallest = parent
            if left < items.count, items[left].line < items[smallest].line { smallest = left }
            if left + 1 < items.count, items[left + 1].line < items[smallest].line { smallest = left + 1 }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
