import Foundation
@testable import StreakCal
import Testing

/// A fresh folder under the temporary directory holding `files` (relative paths, empty calendars),
/// removed after `body`.
private func withCalendars<T>(_ files: [String], _ body: (String) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("start-up-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for file in files {
        let url = folder.appendingPathComponent(file)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8).write(to: url)
    }
    return try body(folder.path)
}

@Suite("Threads placed on other processors")
struct PlacedThreadsTests {
    @Test("Every worker is called once, the caller's thread as worker 0, and run returns after all", arguments: [0, 1, 2, 5])
    func everyWorker(count: Int) {
        let caller = pthread_self()
        let workers = Collected<Int>()
        let finished = Collected<Int>()
        let onCaller = Collected<Bool>()
        PlacedThreads.run(count: count) { worker in
            workers.append(worker)
            onCaller.append(pthread_equal(pthread_self(), caller) != 0)
            usleep(5_000)  // returning late: run must still wait for it
            finished.append(worker)
        }
        #expect(workers.values.sorted() == Array(0..<count))
        #expect(finished.values.sorted() == Array(0..<count))
        // Worker 0 on the caller's thread; every other on a thread of its own.
        let byWorker = Dictionary(uniqueKeysWithValues: zip(workers.values, onCaller.values))
        #expect(byWorker == Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, $0 == 0) }))
    }

    @Test("A detached thread runs its call")
    func detached() {
        let done = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        let elsewhere = Collected<Bool>()
        #expect(PlacedThreads.detach {
            elsewhere.append(pthread_equal(pthread_self(), caller) == 0)
            done.signal()
        })
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(elsewhere.values == [true])
    }
}

@Suite("The start-up thread")
struct StartUpThreadTests {
    @Test("Jobs run one at a time, in the order given, off the caller's thread; a thread starts again for jobs given after the last ran")
    func order() {
        let thread = StartUpThread()
        let caller = pthread_self()
        for round in 0..<3 {
            let done = DispatchSemaphore(value: 0)
            let ran = Collected<Int>()
            let elsewhere = Collected<Bool>()
            let running = Collected<Int>()  // +1 on entry, -1 on exit: never two at once
            for job in 0..<50 {
                thread.enqueue {
                    running.append(1)
                    ran.append(job)
                    elsewhere.append(pthread_equal(pthread_self(), caller) == 0)
                    running.append(-1)
                    if job == 49 { done.signal() }
                }
            }
            #expect(done.wait(timeout: .now() + 30) == .success, "round \(round)")
            #expect(ran.values == Array(0..<50), "round \(round)")
            #expect(elsewhere.values == Array(repeating: true, count: 50), "round \(round)")
            #expect(running.values.reduce(into: [0]) { $0.append($0.last! + $1) }.max() == 1, "round \(round)")
            usleep(10_000)  // let the thread run out of jobs and end before the next round
        }
    }
}

@Suite("A walk begun ahead")
struct WalkAheadTests {
    private let files = ["cals/b.ics", "cals/a.ics", "cals/deep/c.ICS", "cals/notes.txt"]

    @Test("Taken by a walk with the same arguments: what a walk of its own finds")
    func taken() throws {
        try withCalendars(files) { folder in
            let slot = PendingWalk()
            let ahead = WalkAhead(paths: [folder + "/cals"], reserving: ["summary.json"], fileExtension: "json")
            slot.put(ahead)
            ahead.run()
            let found = try #require(WalkAhead.take([folder + "/cals"], reserving: ["summary.json"], fileExtension: "json", from: slot))
            let own = BatchInput.walkNow([folder + "/cals"], reserving: ["summary.json"], fileExtension: "json")
            #expect(found.inputs.map(\.name) == own.inputs.map(\.name))
            #expect(found.inputs.map(\.outputName) == own.inputs.map(\.outputName))
            #expect(found.inputs.map(\.outputName) == ["a", "b", "deep__c"])
            // Given once: the slot is empty now.
            #expect(WalkAhead.take([folder + "/cals"], reserving: ["summary.json"], fileExtension: "json", from: slot) == nil)
        }
    }

    @Test("Other paths, names reserved or extension: dropped, and not given to a later walk either", arguments: [
        (["other"], Set(["summary.json"]), "json"), (["cals"], Set<String>(), "json"), (["cals"], Set(["summary.json"]), "csv"),
    ])
    func dropped(paths: [String], reserving: Set<String>, fileExtension: String) {
        let slot = PendingWalk()
        let ahead = WalkAhead(paths: ["cals"], reserving: ["summary.json"], fileExtension: "json")
        slot.put(ahead)
        ahead.run()
        #expect(WalkAhead.take(paths, reserving: reserving, fileExtension: fileExtension, from: slot) == nil)
        #expect(WalkAhead.take(["cals"], reserving: ["summary.json"], fileExtension: "json", from: slot) == nil)
    }

    @Test("Taken before its thread starts it: the walk that takes it walks by itself, and the thread leaves it")
    func claimedFirst() throws {
        try withCalendars(files) { folder in
            let slot = PendingWalk()
            let ahead = WalkAhead(paths: [folder + "/cals"], reserving: [], fileExtension: "")
            slot.put(ahead)
            // Not run: the taker claims it and gets nothing to wait for (it would wait forever).
            #expect(WalkAhead.take([folder + "/cals"], reserving: [], fileExtension: "", from: slot) == nil)
            ahead.run()  // returns at once: the walk is claimed
        }
    }

    @Test("Dropped before its thread starts it: never walked")
    func droppedUnbegun() throws {
        try withCalendars(files) { folder in
            let slot = PendingWalk()
            let ahead = WalkAhead(paths: [folder + "/cals"], reserving: [], fileExtension: "")
            slot.put(ahead)
            #expect(WalkAhead.take([folder + "/other"], reserving: [], fileExtension: "", from: slot) == nil)
            ahead.run()  // its thread, late: it leaves without walking
            #expect(ahead.discovery == nil)
            // Begun in time, the same walk walks.
            let begun = WalkAhead(paths: [folder + "/cals"], reserving: [], fileExtension: "")
            begun.run()
            #expect(begun.discovery?.found.inputs.count == 3)
        }
    }

    @Test("Beginning another drops the one before")
    func replaced() {
        let slot = PendingWalk()
        let first = WalkAhead(paths: ["a"], reserving: [], fileExtension: "")
        let second = WalkAhead(paths: ["b"], reserving: [], fileExtension: "")
        slot.put(first)
        slot.put(second)
        #expect(slot.take() === second)
        #expect(slot.take() == nil)
    }

    @Test("Through the public API: the walk finds what is there, and a later walk lists the folder again")
    func publicAPI() throws {
        try withCalendars(files) { folder in
            let cals = folder + "/cals"
            BatchInput.beginWalking([cals], reserving: ["summary.json"], fileExtension: "json")
            #expect(BatchInput.walk([cals], reserving: ["summary.json"], fileExtension: "json").inputs.map(\.outputName)
                == ["a", "b", "deep__c"])
            try Data().write(to: URL(fileURLWithPath: cals + "/d.ics"))
            #expect(BatchInput.walk([cals], reserving: ["summary.json"], fileExtension: "json").inputs.map(\.outputName)
                == ["a", "b", "d", "deep__c"])
        }
    }
}
