import Foundation

extension BatchInput {
    /// Begins ``walk(_:reserving:fileExtension:)`` on another thread, so that listing the folders
    /// overlaps what the caller does next; the next `walk` takes its result, waiting for it if
    /// need be, when it has the same arguments and the current folder is the same.
    ///
    /// `streakcal batch` begins the walk of the paths its command line names while ArgumentParser
    /// parses that command line (2–3 ms of a batch's start, when the other processor is idle). It
    /// runs on the start-up thread, after the jobs given to it before (`StartUpThread`).
    ///
    /// A walk begun ahead is given at most once: the next `walk` takes it or, with other
    /// arguments, drops it and walks by itself, as does any walk after it. Beginning another
    /// drops the one before. A `walk` that comes before the start-up thread has begun the walk
    /// (it runs the jobs given to it before) walks by itself. What a walk taken this way finds
    /// is what the folders held when it ran, a moment before.
    ///
    /// ```swift
    /// BatchInput.beginWalking(["exports"])
    /// let settings = expensiveSetUp()               // meanwhile, "exports" is listed
    /// let found = BatchInput.walk(["exports"])      // the listing begun above
    /// ```
    public static func beginWalking(_ paths: [String], reserving: Set<String> = [], fileExtension: String = "") {
        let ahead = WalkAhead(paths: paths, reserving: reserving, fileExtension: fileExtension)
        WalkAhead.pending.put(ahead)
        StartUpThread.shared.enqueue { ahead.run() }
    }
}

/// A walk begun by ``BatchInput/beginWalking(_:reserving:fileExtension:)``, and the slot that
/// holds the one the next walk may take.
///
/// Whoever comes first walks: the thread it was begun on, or the walk that takes it, if that
/// comes before the thread has started (a new thread can start milliseconds late). The other
/// waits for the result or, on the thread, leaves.
final class WalkAhead: @unchecked Sendable {
    /// The walk begun last and not yet taken or dropped.
    static let pending = PendingWalk()

    let paths: [String]
    let reserving: Set<String>
    let fileExtension: String

    private let lock = NSLock()
    private var isClaimed = false  // Guarded by `lock`.
    /// Signalled once `discovery` is set by the thread the walk was begun on.
    private let done = DispatchSemaphore(value: 0)
    /// What the walk found from which current folder, or `nil` if that folder changed while it
    /// walked (or was never walked). Written once before `done` is signalled, read only after
    /// waiting for it (or, in tests, on the thread that called `run`).
    private(set) var discovery: (directory: String, found: BatchDiscovery)?

    init(paths: [String], reserving: Set<String>, fileExtension: String) {
        self.paths = paths
        self.reserving = reserving
        self.fileExtension = fileExtension
    }

    /// Whether the caller is the first to ask, and so walks.
    private func claim() -> Bool {
        lock.withLock {
            defer { isClaimed = true }
            return !isClaimed
        }
    }

    /// Walks on the thread it is called on, unless the walk was taken before.
    func run() {
        guard claim() else { return }
        let directory = FileManager.default.currentDirectoryPath
        let found = BatchInput.walkNow(paths, reserving: reserving, fileExtension: fileExtension)
        // Relative paths were resolved against the current folder: a walk across a change of
        // it is given to no one.
        if FileManager.default.currentDirectoryPath == directory { discovery = (directory, found) }
        done.signal()
    }

    /// The result of the walk begun ahead with these arguments, from this current folder, if
    /// there is one and its thread has started it; any walk begun ahead is dropped either way
    /// (and, if its thread has not started it, never walked).
    static func take(_ paths: [String], reserving: Set<String>, fileExtension: String, from slot: PendingWalk = pending) -> BatchDiscovery? {
        guard let ahead = slot.take() else { return nil }
        let isBegun = !ahead.claim()
        guard isBegun, ahead.paths == paths, ahead.reserving == reserving, ahead.fileExtension == fileExtension else { return nil }
        ahead.done.wait()
        guard let (directory, found) = ahead.discovery, directory == FileManager.default.currentDirectoryPath else { return nil }
        return found
    }
}

/// The slot for the walk begun ahead.
///
/// An `NSLock` guards it (and `WalkAhead`'s claim) rather than `Synchronization.Mutex`, as
/// `BatchLedger` explains.
final class PendingWalk: @unchecked Sendable {
    private let lock = NSLock()
    private var walk: WalkAhead?  // Guarded by `lock`.

    /// Puts `walk` in the slot, dropping the one there.
    func put(_ walk: WalkAhead) {
        lock.withLock { self.walk = walk }
    }

    /// The walk in the slot, leaving it empty.
    func take() -> WalkAhead? {
        lock.withLock {
            defer { walk = nil }
            return walk
        }
    }
}
