import Dispatch
import Foundation
import CalendarDays
@testable import ICalendar
import Testing

/// The import's bound on threads (issue 50.7): `Workers` runs every block given, never more than
/// its width at once, in the order given, without a thread waiting for a place.
@Suite("Workers: at most N blocks at once")
struct WorkersTests {
    @Test("Every block runs once; never more than the width at once; one at a time in the order given", arguments: [1, 2, 3, 7])
    func bounded(width: Int) {
        let workers = Workers(width: width)
        let group = DispatchGroup()
        let state = Locked((running: 0, most: 0, started: [Int]()))
        for index in 0..<200 {
            workers.run(in: group) {
                state.withLock { $0.running += 1; $0.most = max($0.most, $0.running); $0.started.append(index) }
                // Long enough that the blocks given meanwhile must wait for a place.
                usleep(index % 5 == 0 ? 2_000 : 200)
                state.withLock { $0.running -= 1 }
            }
        }
        group.wait()
        let (running, most, started) = state.withLock { $0 }
        #expect(running == 0)
        #expect(most <= width, "\(most) blocks ran at once, width \(width)")
        #expect(started.count == 200 && Set(started).count == 200)
        // One at a time, in the order given. (Wider, blocks are taken in that order too, but
        // which of two threads notes its block first depends on the scheduler.)
        if width == 1 { #expect(started == Array(0..<200)) }
    }

    @Test("A width below 1 stops the program (a programmer's error), for the importer too")
    func widthBelowOne() async {
        await #expect(processExitsWith: .failure) { _ = Workers(width: 0) }
        await #expect(processExitsWith: .failure) {
            var importer = SessionImporter(expansion: RecurrenceExpansion(through: try! Day(year: 2024, month: 1, day: 1)))
            importer.parallelism = 0
        }
    }
}
