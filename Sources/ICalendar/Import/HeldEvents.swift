/// The events an import holds until the end, in input order, and where the events resolved early
/// stood among them.
///
/// Held events go out 64 units at a time (`SessionResolver.units(of:)`), each batch's diagnostics
/// in line order. An event resolved before the end (a zone read ahead, a group of one UID read to
/// its last event) still counts as the unit it was where it stood, so that every batch holds the
/// units, and says what, it did when the event was held. Each event is known by the number it got
/// when held; events taken out or resolved leave places that are compacted away in time, so memory
/// holds the events still waiting, not all that ever waited.
struct HeldEvents {
    /// An entry's record is boxed: most entries are places of events already resolved.
    private enum Entry {
        case held(Slot, calendar: Int)
        /// Taken out to be resolved early; put back if that has something to say.
        case out
        /// Events resolved early that still count as units here.
        case resolvedEarly(Int)
        /// Events resolved early that were no unit (an override, a copy left out, an annotation).
        case gone
    }

    /// A held record's box, from which it is moved out whole (no field retained and released).
    private final class Slot {
        var record: EventRecord?

        init(_ record: consuming EventRecord) {
            self.record = record
        }

        /// The record, moved out (taken once).
        func takeRecord() -> EventRecord {
            var record: EventRecord?
            swap(&record, &self.record)
            guard let record else { preconditionFailure("HeldEvents: a record taken twice") }
            return record
        }
    }

    private var entries: [Entry] = []
    /// The number of each entry (ascending): `append` hands them out.
    private var numbers: [Int] = []
    private var nextNumber = 0
    /// Entries that hold no event: compacted away once they are most of them.
    private var spent = 0

    /// A held unit, or a run of events resolved early.
    enum Step: Equatable {
        case unit(SessionResolver.Unit)
        case resolvedEarly(Int)
    }

    /// Holds an event; returns its number.
    mutating func append(_ record: consuming EventRecord, calendar: Int) -> Int {
        entries.append(.held(Slot(record), calendar: calendar))
        numbers.append(nextNumber)
        nextNumber += 1
        return nextNumber - 1
    }

    /// Counts an event that waited, here, until it was resolved early.
    mutating func appendResolvedEarly() {
        if case .resolvedEarly(let count)? = entries.last {
            entries[entries.count - 1] = .resolvedEarly(count + 1)
            return
        }
        entries.append(.resolvedEarly(1))
        numbers.append(nextNumber)
        nextNumber += 1
        spent += 1
    }

    /// Takes out the held events of `numbers` (in order), to be resolved early.
    mutating func take(_ numbers: [Int]) -> [(record: EventRecord, calendar: Int)] {
        numbers.map { number in
            let index = self.index(of: number)
            guard case .held(let slot, let calendar) = entries[index] else {
                preconditionFailure("HeldEvents: event \(number) is not held")
            }
            entries[index] = .out
            return (slot.takeRecord(), calendar)
        }
    }

    /// Puts back events taken out: they wait for the end after all.
    mutating func putBack(_ events: [(record: EventRecord, calendar: Int)], numbers: [Int]) {
        for (event, number) in zip(events, numbers) {
            entries[index(of: number)] = .held(Slot(event.record), calendar: event.calendar)
        }
    }

    /// Marks events taken out as resolved: those of `units` still count as one unit each.
    mutating func resolved(_ numbers: [Int], units: Set<Int>) {
        for number in numbers {
            entries[index(of: number)] = units.contains(number) ? .resolvedEarly(1) : .gone
            spent += 1
        }
        if spent > 4_096, spent * 2 > entries.count { compact() }
    }

    /// Takes out the records of the events still held, in order (to group into units at the end);
    /// their entries stay, for `steps(_:)`.
    func takeEvents() -> [(record: EventRecord, calendar: Int)] {
        var events: [(record: EventRecord, calendar: Int)] = []
        for entry in entries {
            guard case .held(let slot, let calendar) = entry else { continue }
            events.append((slot.takeRecord(), calendar))
        }
        return events
    }

    /// `units` (`SessionResolver.units(of: &events)`, in input order, positions in `events`) with the
    /// runs of events resolved early where they stood.
    func steps(_ units: [SessionResolver.Unit]) -> [Step] {
        // For each held event, the units resolved early just before it; then those after the last.
        var before: [Int] = []
        var early = 0
        for entry in entries {
            switch entry {
            case .held:
                before.append(early)
                early = 0
            case .resolvedEarly(let count):
                early += count
            case .out, .gone:
                break
            }
        }
        var steps: [Step] = []
        steps.reserveCapacity(units.count + 1)
        var next = 0  // the first held event whose early units are not yet placed
        func placeEarly(through position: Int) {
            var count = 0
            while next <= position, next < before.count {
                count += before[next]
                next += 1
            }
            if count > 0 { steps.append(.resolvedEarly(count)) }
        }
        for unit in units {
            placeEarly(through: unit.position)
            steps.append(.unit(unit))
        }
        placeEarly(through: before.count - 1)
        if early > 0 { steps.append(.resolvedEarly(early)) }
        return steps
    }

    private func index(of number: Int) -> Int {
        var low = 0
        var high = numbers.count
        while low < high {
            let middle = (low + high) / 2
            if numbers[middle] < number { low = middle + 1 } else { high = middle }
        }
        precondition(low < numbers.count && numbers[low] == number, "HeldEvents: no event \(number)")
        return low
    }

    /// Drops the places of events that were no unit and joins runs of units resolved early.
    private mutating func compact() {
        var kept: [Entry] = []
        var keptNumbers: [Int] = []
        kept.reserveCapacity(entries.count - spent)
        for (entry, number) in zip(entries, numbers) {
            switch entry {
            case .gone:
                continue
            case .resolvedEarly(let count):
                if case .resolvedEarly(let previous)? = kept.last {
                    kept[kept.count - 1] = .resolvedEarly(previous + count)
                    continue
                }
            case .held, .out:
                break
            }
            kept.append(entry)
            keptNumbers.append(number)
        }
        entries = kept
        numbers = keptNumbers
        spent = entries.reduce(0) { count, entry in
            if case .resolvedEarly = entry { return count + 1 }
            return count
        }
    }
}
