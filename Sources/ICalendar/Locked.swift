import Foundation

/// State shared between threads, reached only through ``withLock(_:)``.
///
/// ```swift
/// let total = Locked(0)
/// DispatchQueue.concurrentPerform(iterations: 3) { worker in total.withLock { $0 += worker + 1 } }
/// print(total.withLock { $0 })
/// // Prints "6"
/// ```
///
/// An `NSLock` (a pthread mutex) guards the state rather than `Synchronization.Mutex`: on Linux the
/// latter waits in the kernel (a priority-inheritance futex) where ThreadSanitizer cannot see the
/// hand-over, and `scripts/test`'s ThreadSanitizer step reports false races on every state it guards.
package final class Locked<State> {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state, no other thread reaching it meanwhile.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

// Guarded by `lock`: `state` is read and written only inside `withLock`.
extension Locked: @unchecked Sendable where State: Sendable {}
