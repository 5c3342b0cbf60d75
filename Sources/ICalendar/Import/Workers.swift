import Dispatch
import Foundation

/// Work run on Dispatch's threads, at most `width` blocks at a time: what `SessionImporter.parallelism`
/// bounds (issue 50.7: one number a server sets, whatever the machine's cores).
///
/// Blocks start in the order they were given. None waits on a thread for a free place: a block
/// given when `width` are running is kept, and the thread that finishes a block takes the next one.
///
/// ```swift
/// let workers = Workers(width: 2)
/// let group = DispatchGroup()
/// for _ in 0..<10 { workers.run(in: group) { /* at most 2 of these at once */ } }
/// group.wait()
/// ```
final class Workers: Sendable {
    private struct State {
        var running = 0
        /// Blocks not yet started, oldest first (as many as the caller keeps in flight: a few).
        var waiting: [(group: DispatchGroup, work: @Sendable () -> Void)] = []
    }

    /// The most blocks running at once (at least 1).
    let width: Int
    private let state = Locked(State())

    init(width: Int) {
        precondition(width >= 1, "Workers: the width must be at least 1, got \(width)")
        self.width = width
    }

    /// Runs `work` on a Dispatch thread as soon as fewer than `width` blocks run; `group` is left
    /// when it is done.
    func run(in group: DispatchGroup, _ work: @escaping @Sendable () -> Void) {
        group.enter()
        let starts = state.withLock { state in
            guard state.running < width else {
                state.waiting.append((group, work))
                return false
            }
            state.running += 1
            return true
        }
        if starts { DispatchQueue.global().async { self.drain(first: (group, work)) } }
    }

    /// Runs `first`, then every block waiting, until none waits; then gives its place back.
    private func drain(first: (group: DispatchGroup, work: @Sendable () -> Void)) {
        var next: (group: DispatchGroup, work: @Sendable () -> Void)? = first
        while let (group, work) = next {
            work()
            group.leave()
            next = state.withLock { state in
                guard !state.waiting.isEmpty else {
                    state.running -= 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
        }
    }
}

/// Blocking work run from Swift concurrency: on a Dispatch thread, the calling task suspended
/// until it is done, so that no thread of the cooperative pool waits on the import's workers.
package enum BlockingWork {
    /// The result of `work`, run on a Dispatch thread.
    package static func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(Failure) -> Value in try work() })
            }
        }
        return try result.get()
    }
}
