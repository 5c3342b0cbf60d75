import Foundation
import StreakCal
import StreakCalRemote
import Synchronization

/// A download's progress on standard error, when it is a terminal and the download takes more than
/// a second: `downloading example.com: 12.5 MiB of 40.0 MiB`, redrawn at most five times a second
/// and cleared when the request ends. The library only reports progress
/// (``/StreakCal/DownloadOptions/progress``); drawing is the command's.
final class ProgressLine: Sendable {
    /// The one line of the process (downloads of a command run one after another).
    static let shared = ProgressLine()

    private struct State {
        /// When the current request's first report came.
        var start: ContinuousClock.Instant?
        var lastDrawn: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let isTerminal = isatty(2) == 1

    func show(_ progress: DownloadProgress) {
        guard isTerminal else { return }
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            if progress.isFinished {
                let drawn = state.lastDrawn != nil
                state = State()
                return drawn ? "\r\u{1B}[K" : nil
            }
            let start = state.start ?? now
            state.start = start
            guard now - start > .seconds(1), state.lastDrawn.map({ now - $0 > .milliseconds(200) }) ?? true else { return nil }
            state.lastDrawn = now
            let total = progress.expected > 0 ? " of \(ByteCount(progress.expected))" : ""
            return "\r\u{1B}[Kdownloading \(progress.host): \(ByteCount(progress.received))\(total)"
        }
        if let line { try? StandardStream.error.write(line) }
    }
}
