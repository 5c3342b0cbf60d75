import Foundation

/// Values appended by concurrent callers (a batch's workers, its progress calls, placed threads),
/// read once they are done.
final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []  // Guarded by `lock`.

    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
    var count: Int { lock.withLock { storage.count } }
}
