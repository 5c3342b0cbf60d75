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

/// Values collected from several threads.
private final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []  // Guarded by `lock`.

    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
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
    @Test("Jobs run in the order given, on one thread, and a thread starts again for jobs given after the last ran")
    func order() {
        let thread = StartUpThread()
        for round in 0..<3 {
            let done = DispatchSemaphore(value: 0)
            let ran = Collected<Int>()
            let threads = Collected<pthread_t>()
            for job in 0..<50 {
                thread.enqueue {
                    ran.append(job)
                    threads.append(pthread_self())
                    if job == 49 { done.signal() }
                }
            }
            #expect(done.wait(timeout: .now() + 30) == .success, "round \(round)")
            #expect(ran.values == Array(0..<50), "round \(round)")
            #expect(Set(threads.values.map(UInt.init)).count == 1, "round \(round)")
            usleep(10_000)  // let the thread run out of jobs and end before the next round
        }
    }
}
