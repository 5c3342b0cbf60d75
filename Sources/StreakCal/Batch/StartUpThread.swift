import Dispatch
import Foundation

/// Work of a batch's first milliseconds that overlaps the caller's own (the walk begun ahead,
/// libical's set-up), done in order on one thread started on another processor than the caller's.
///
/// A thread started the usual way (`Thread`, Dispatch's pool) starts on its creator's processor,
/// and waits there while its creator is busy until Linux next balances its load: measured on 2
/// processors, 1.9 ms late (median of 40 starts), when `streakcal batch` parses its command line
/// in 2–3 ms. Started on the other processor (`PlacedThreads`), 0.07 ms late.
///
/// ```swift
/// StartUpThread.shared.enqueue { print("first") }
/// StartUpThread.shared.enqueue { print("second") }
/// // Prints "first", then "second", on a thread of their own
/// ```
final class StartUpThread: @unchecked Sendable {
    /// The process's start-up thread.
    static let shared = StartUpThread()

    private let lock = NSLock()
    // Guarded by `lock`.
    private var jobs: [@Sendable () -> Void] = []
    private var isRunning = false

    /// Runs `job` on the start-up thread after the jobs given before it, starting the thread when
    /// none is running (it ends when it runs out of jobs).
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        let starts = lock.withLock { () -> Bool in
            jobs.append(job)
            defer { isRunning = true }
            return !isRunning
        }
        guard starts else { return }
        if !PlacedThreads.detach({ self.runJobs() }) {
            // No thread of its own: Dispatch's pool runs the jobs (perhaps later, but they run).
            DispatchQueue.global().async { self.runJobs() }
        }
    }

    /// Runs the jobs in order until none is left.
    private func runJobs() {
        while let job = nextJob() { job() }
    }

    /// The next job, or `nil` once there is none (a later `enqueue` then starts a thread again).
    private func nextJob() -> (@Sendable () -> Void)? {
        lock.withLock {
            guard !jobs.isEmpty else {
                isRunning = false
                return nil
            }
            return jobs.removeFirst()
        }
    }
}
