import CThreads

/// Threads started on processors other than their creator's (`streakcal_thread_start_elsewhere`
/// says why): a batch's workers, and its start-up thread.
///
/// ```swift
/// let total = Mutex(0)
/// PlacedThreads.run(count: 2) { worker in total.withLock { $0 += worker + 1 } }
/// print(total.withLock { $0 })
/// // Prints "3"
/// ```
enum PlacedThreads {
    /// Calls `body` on `count` threads at once, each with its number: the caller's (0) and up to
    /// `count - 1` threads started on the other processors, one each (round the list when there
    /// are fewer); returns once every call has returned. A thread that cannot be started makes no
    /// call, so `body` should take its work from a source the others share.
    static func run(count: Int, _ body: @escaping @Sendable (_ worker: Int) -> Void) {
        var threads: [OpaquePointer] = []
        threads.reserveCapacity(max(0, count - 1))
        for worker in 1..<max(1, count) {
            if let thread = start(placement: worker - 1, { body(worker) }) { threads.append(thread) }
        }
        if count > 0 { body(0) }
        for thread in threads { streakcal_thread_join(thread) }
    }

    /// Calls `body` on a thread started on another processor, and lets that thread end by itself;
    /// returns false (and does not call `body`) if no thread could be started.
    static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = start(placement: 0, body) else { return false }
        streakcal_thread_detach(thread)
        return true
    }

    /// A thread calling `body`, started on the `placement`-th other processor, to join or detach.
    private static func start(placement: Int, _ body: @escaping @Sendable () -> Void) -> OpaquePointer? {
        let context = Unmanaged.passRetained(Call(body)).toOpaque()
        let thread = streakcal_thread_start_elsewhere(UInt32(truncatingIfNeeded: placement), { context in
            guard let context else { return }
            Unmanaged<Call>.fromOpaque(context).takeRetainedValue().body()
        }, context)
        if thread == nil { Unmanaged<Call>.fromOpaque(context).release() }
        return thread
    }

    /// A closure, for a C thread's context pointer.
    private final class Call {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
