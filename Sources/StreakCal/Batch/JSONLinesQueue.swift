import Dispatch

/// The requests read and not yet written. The reader puts a request in while fewer than `window`
/// are in flight and their lines' bytes leave room for its own (one request is always let in, so
/// that a line longer than the budget still goes, alone); workers take them in order; each record
/// written frees its request's place and bytes.
final class RequestQueue: Sendable {
    private struct State {
        var waiting: [(position: Int, request: JSONLinesBatch.Request)] = []
        var next = 0
        /// The bytes of each request in flight, by position.
        var inFlight: [Int: Int] = [:]
        var bytesInFlight = 0
        var isClosed = false
    }

    private let state = Locked(State())
    private let window: Int
    private let byteBudget: Int
    private let workers: Int
    /// Signalled once per request put and once per worker at the close: a worker waits here for work.
    private let work = DispatchSemaphore(value: 0)
    /// Signalled once per release: the reader waits here while there is no room.
    private let freed = DispatchSemaphore(value: 0)

    init(window: Int, byteBudget: Int, workers: Int) {
        self.window = window
        self.byteBudget = byteBudget
        self.workers = workers
    }

    /// Adds a request once there is room for it (waiting until then).
    func put(_ request: JSONLinesBatch.Request) {
        let bytes = request.line.byteCount
        while !state.withLock({ state in
            let hasRoom = state.inFlight.isEmpty || (state.inFlight.count < window && state.bytesInFlight + bytes <= byteBudget)
            guard hasRoom else { return false }
            state.inFlight[state.next] = bytes
            state.bytesInFlight += bytes
            state.waiting.append((state.next, request))
            state.next += 1
            return true
        }) {
            freed.wait()
        }
        work.signal()
    }

    /// The oldest request not taken, with its position in the stream; `nil` once the queue is closed
    /// and empty (waiting until one of them).
    func take() -> (position: Int, request: JSONLinesBatch.Request)? {
        while true {
            work.wait()
            let taken = state.withLock { state -> (position: Int, request: JSONLinesBatch.Request)?? in
                if !state.waiting.isEmpty { return state.waiting.removeFirst() }
                return state.isClosed ? .some(nil) : nil
            }
            if let taken { return taken }
        }
    }

    /// Frees the places and bytes of the requests at `positions`, whose records were written (or dropped).
    func release(_ positions: [Int]) {
        guard !positions.isEmpty else { return }
        state.withLock { state in
            for position in positions {
                state.bytesInFlight -= state.inFlight.removeValue(forKey: position) ?? 0
            }
        }
        freed.signal()
    }

    /// No more requests come: each worker gets `nil` once the rest are taken.
    func close() {
        state.withLock { $0.isClosed = true }
        for _ in 0..<workers { work.signal() }
    }
}

/// Writes records in the batch's order, one at a time.
final class RecordEmitter<Failure: Error>: Sendable {
    private struct State {
        var waiting: [Int: JSONLinesBatch.Record] = [:]
        var nextToWrite = 0
        var stopped = false
        var failure: Failure?
        var tally = JSONLinesBatch.Tally()
    }

    private let state = Locked(State())
    /// `state.stopped`, under a lock of its own: the reader asks it before each line, and must not
    /// wait while a record is being written (`emit` runs under `state`'s lock and may block, on a
    /// full pipe or, in a test, until the reader has gone on).
    private let hasStopped = Locked(false)
    private let order: JSONLinesBatch.Order
    private let emit: @Sendable (String) throws(Failure) -> Void

    init(order: JSONLinesBatch.Order, emit: @escaping @Sendable (String) throws(Failure) -> Void) {
        self.order = order
        self.emit = emit
    }

    /// Whether a write failed: no more input is read.
    var stopped: Bool { hasStopped.withLock { $0 } }

    /// What a write threw, if one failed.
    var failure: Failure? { state.withLock { $0.failure } }

    var tally: JSONLinesBatch.Tally { state.withLock { $0.tally } }

    /// Takes the record of input `position`; writes it, and any waiting for it, when their turn
    /// comes. Returns the positions of the records written (or dropped after a failed write).
    func finish(_ position: Int, record: JSONLinesBatch.Record) -> [Int] {
        state.withLock { state in
            switch order {
            case .completion:
                write(record, in: &state)
                return [position]
            case .input:
                state.waiting[position] = record
                var written: [Int] = []
                while let next = state.waiting.removeValue(forKey: state.nextToWrite) {
                    write(next, in: &state)
                    written.append(state.nextToWrite)
                    state.nextToWrite += 1
                }
                return written
            }
        }
    }

    /// Writes one record (under the lock); after a failure, records are dropped.
    private func write(_ record: JSONLinesBatch.Record, in state: inout State) {
        guard !state.stopped else { return }
        do throws(Failure) {
            try emit(record.json)
            state.tally.records += 1
            if record.error != nil { state.tally.failed += 1 }
        } catch {
            state.failure = error
            state.stopped = true
            hasStopped.withLock { $0 = true }
        }
    }
}
