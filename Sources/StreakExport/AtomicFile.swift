public import Foundation

/// Writes files so that a reader sees the old content or the new, never a half-written file.
public enum AtomicFile {
    /// Why a write failed.
    public struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `data` to a temporary file beside `path`, then renames it over `path`.
    public static func write(_ data: Data, to path: String) throws(WriteError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary, options: [.withoutOverwriting])
        } catch {
            throw WriteError(path: path, reason: Self.reason(error))
        }
        if rename(temporary.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(path: path, reason: reason)
        }
    }

    /// Writes UTF-8 text atomically.
    public static func write(_ text: String, to path: String) throws(WriteError) {
        try write(Data(text.utf8), to: path)
    }

    private static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        return (error as NSError).localizedDescription
    }
}
