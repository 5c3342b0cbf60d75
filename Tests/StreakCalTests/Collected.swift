@testable import StreakCal

/// Values appended by concurrent callers (a batch's workers, its progress calls), read once they
/// are done.
final class Collected<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])

    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }
}
