import Foundation
@testable import ICalendar
import Streaks
import Testing

/// Several inputs read as one (`InputMap`): every line of the stream maps back to its input, found
/// by binary search (vdir-many-files-quadratic.sh: a linear search per session and per name made
/// a folder of 100,000 files take 36 s, against 0.3 s for one file of the same events).
@Suite("Inputs read as one")
struct InputMapTests {
    /// Inputs of 1 to 4 lines, some blank, some with an X-WR-CALNAME.
    private static func inputs(count: Int) -> [CalendarSource] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { index in
            let lines = Int.random(in: 1...4, using: &generator)
            let text = (0..<lines).map { $0 == 0 && index % 7 == 0 ? "X-WR-CALNAME:N\(index)" : "L\(index).\($0)" }.joined(separator: "\r\n")
            return .bytes(Array((index % 11 == 0 ? "" : text).utf8), name: "f\(index).ics")
        }
    }

    @Test("Each line of the stream maps to the input and line a linear search finds", arguments: [1, 2, 3, 500])
    func locations(count: Int) throws {
        let map = InputMap(sources: Self.inputs(count: count))
        let total = map.parts.reduce(0) { $0 + $1.lineCount }
        for line in 1...total + 2 {
            let expected = map.parts.last { $0.firstLine <= line } ?? map.parts[0]
            let mapped = map.location(of: SourceLocation(file: InputMap.name, line: line, column: 3))
            #expect(mapped.file == expected.name)
            #expect(mapped.line == max(1, line - expected.firstLine + 1))
            #expect(mapped.column == 3)
        }
        // A location outside the stream is left as it is.
        #expect(map.location(of: SourceLocation(file: "x.ics", line: 2)).file == "x.ics")
    }

    @Test("Inputs are named by their first X-WR-CALNAME, else their file, as a search per input names them; asked again, the answer is the same")
    func names() throws {
        let map = InputMap(sources: Self.inputs(count: 300))
        var names: [(line: Int, name: String)] = []
        for part in map.parts where part.name.dropFirst().prefix(while: { $0.isNumber }).count > 0 {
            let index = Int(part.name.dropFirst().prefix { $0.isNumber })!
            if index % 7 == 0, index % 11 != 0 { names.append((part.firstLine, "N\(index)")) }
        }
        let expected = map.parts.map { part in
            ReportSource(file: part.name, declaredName: names.first { $0.line >= part.firstLine && $0.line - part.firstLine < part.lineCount }?.name)
        }
        #expect(map.sources(named: []) == map.parts.map { ReportSource(file: $0.name) })
        #expect(map.sources(named: names) == expected)
        #expect(map.sources(named: names) == expected)
        #expect(map.sources(named: Array(names.prefix(3))) == map.parts.map { part in
            ReportSource(file: part.name, declaredName: names.prefix(3).first { $0.line >= part.firstLine && $0.line - part.firstLine < part.lineCount }?.name)
        })
    }
}
