import StreakCal

/// One input read twice: by the session path `report` takes (lines no session uses stepped over as
/// the input is cut, plain values read without libical, text read by `TextValue`) and by the
/// general path (every line kept, every property a session uses read by libical's parser,
/// `SessionImporter.readsThroughLibical`). They must give the same sessions and the same
/// diagnostics, but for the encoding of lines the session path never decodes.
///
/// ```swift
/// print(OneReading().check(Array("BEGIN:VEVENT\r\nUID:a\r\nRR\r\n ULE:FREQ=DAILY;COUNT=2\r\nDTSTART:20240226T090000Z\r\nEND:VEVENT\r\n".utf8)) == nil)
/// // Prints "true"
/// ```
struct OneReading {
    /// The fixed window: from 2023 through 2025, at most 64 instances per rule.
    static let expansion = RecurrenceExpansion(
        from: try! Day(year: 2023, month: 1, day: 1), through: try! Day(year: 2025, month: 12, day: 31), maximumInstancesPerRule: 64)

    let sessionPath: SessionImporter
    let generalPath: SessionImporter

    init() {
        var importer = SessionImporter(pointsRule: .xPoints, expansion: Self.expansion)
        importer.parallelism = 1
        // Properties kept for habit filters, read both ways too: one TEXT, one libical reads as
        // other than text (and may reject).
        importer.keptProperties = ["LOCATION", "GEO"]
        sessionPath = importer
        importer.readsThroughLibical = true
        generalPath = importer
    }

    /// What differs between the two readings of `bytes`; `nil` when nothing does.
    func check(_ bytes: [UInt8]) -> String? {
        guard let fast = try? sessionPath.importSessions(from: .bytes(bytes, name: "input.ics")),
              let general = try? generalPath.importSessions(from: .bytes(bytes, name: "input.ics")) else {
            return "bytes in memory could not be read"
        }
        if fast.sessions != general.sessions {
            return "sessions:\n  session path: \(Self.describe(fast.sessions))\n  general path: \(Self.describe(general.sessions))"
        }
        if fast.sessionsWithPointsProperty != general.sessionsWithPointsProperty {
            return "sessions with X-POINTS: \(fast.sessionsWithPointsProperty) against \(general.sessionsWithPointsProperty)"
        }
        let said = (Self.kinds(fast.diagnostics), Self.kinds(general.diagnostics))
        if said.0 != said.1 {
            return "diagnostics:\n  session path: \(said.0)\n  general path: \(said.1)\n"
                + Self.difference(fast.diagnostics, general.diagnostics)
        }
        return nil
    }

    /// The diagnostics only one reading gave, in full, each marked with the reading that gave it
    /// (`-` the session path, `+` the general path): the lines of a shortest edit between the two.
    private static func difference(_ fast: [Diagnostic], _ general: [Diagnostic]) -> String {
        let fast = fast.filter { $0.code != .encoding }
        let general = general.filter { $0.code != .encoding }
        let (a, b) = (kinds(fast), kinds(general))
        // Longest common subsequence of the kinds, then a walk that prints what is not in it.
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var lines: [String] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                i += 1
                j += 1
            } else if j == b.count || (i < a.count && lengths[i + 1][j] >= lengths[i][j + 1]) {
                lines.append("- " + fast[i].description)
                i += 1
            } else {
                lines.append("+ " + general[j].description)
                j += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The diagnostics' kinds and lines, in order; the encoding of lines is left out (the session
    /// path does not decode lines it steps over, so it cannot say they are not UTF-8).
    private static func kinds(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.filter { $0.code != .encoding }.map { "\($0.location.line):\($0.severity):\($0.code)" }
    }

    private static func describe(_ sessions: [Session]) -> String {
        sessions.prefix(5).map { "\($0.id) \($0.start)-\($0.end) \($0.points) \($0.summary) \($0.categories) \($0.properties)" }
            .joined(separator: "; ") + (sessions.count > 5 ? " and \(sessions.count - 5) more" : "")
    }
}
