import CalendarDiagnostics
import Streaks

/// At most `perKind` diagnostics of each kind for one input: a damaged file can have hundreds of
/// thousands. The rest are counted, and `notes` says how many of each kind were left out.
struct DiagnosticLimit: Sendable {
    var perKind = 100
    private var counts: [Diagnostic.Code: Int] = [:]
    /// The last line a diagnostic was about: where the notes point.
    private(set) var lastLine = 1

    init() {}

    /// The diagnostics still within their kind's limit; the others are only counted.
    mutating func admit(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.filter { diagnostic in
            lastLine = max(lastLine, diagnostic.location.line)
            counts[diagnostic.code, default: 0] += 1
            return counts[diagnostic.code, default: 0] <= perKind
        }
    }

    /// One note per kind that went over its limit, with how many were left out.
    var notes: [Diagnostic] {
        counts.sorted { $0.key.rawValue < $1.key.rawValue }.filter { $0.value > perKind }.map { code, count in
            Diagnostic(
                .note, code, at: SourceLocation(file: InputMap.name, line: lastLine),
                "\(count - perKind) more \(code) diagnostics in this file are not shown (\(count) in all)")
        }
    }
}
