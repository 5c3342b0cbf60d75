import Foundation
import ICalendar

/// Settings per calendar for a batch (`streakcal batch --settings FILE`): which calendar gets which
/// zone, goal, points, day start and habits (``CalendarOverrides``).
///
/// CSV (RFC 4180, a header first) with a `path` column and any of `tz`, `required`, `points`,
/// `dayStart` and `habits` (habits separated by `;`); or JSON, a list of objects with the same
/// keys (`habits` a list of strings). A `path` is relative to the folder given to the batch (as
/// the report's name is made from it), or the path of a file as given; an empty cell is not given.
///
/// ```csv
/// path,tz,required
/// alice.ics,Europe/Berlin,30
/// team/bob.ics,America/New_York,
/// ```
public struct BatchSettingsFile: Sendable {
    /// Each row's path and settings, in the file's order.
    public var rows: [(path: String, overrides: CalendarOverrides, line: Int)]
    /// The file, as given.
    public var file: String
    /// Rows by path (``normalized(_:)``).
    private var byPath: [String: CalendarOverrides] = [:]

    /// The largest settings file read (4 MiB: 200 calendars take a few kilobytes).
    public static let maximumBytes = 4 << 20

    /// A settings file's problem, at its line.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var reason: String
        public var description: String { "\(file):\(line): \(reason)" }
    }

    /// Reads and checks the file at `path`: JSON when its text starts with `[`, else CSV.
    public init(contentsOf path: String) throws(Problem) {
        let text = try Self.text(of: path)
        try self.init(parsing: text, file: path)
    }

    /// Reads and checks settings text; `file` names it in problems.
    public init(parsing text: String, file: String) throws(Problem) {
        self.file = file
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        rows = trimmed.first == "[" ? try Self.jsonRows(String(trimmed), file: file) : try Self.csvRows(text, file: file)
        var seen: [String: Int] = [:]
        for row in rows {
            if let first = seen.updateValue(row.line, forKey: Self.normalized(row.path)) {
                throw Problem(file: file, line: row.line, reason: "\(row.path.escapingControlCharacters()) is given twice (first on line \(first))")
            }
            byPath[Self.normalized(row.path)] = row.overrides
        }
    }

    /// The overrides for an input: the row whose path is its path relative to the folder given,
    /// or its path as given (`name`).
    public func overrides(relativePath: String?, name: String) -> CalendarOverrides? {
        relativePath.flatMap { byPath[$0] } ?? byPath[name]
    }

    /// A row's path as inputs are matched: without `./` in front.
    static func normalized(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        return String(path)
    }

    /// The rows whose path matched no input (by ``overrides(relativePath:name:)``'s rule).
    public func unmatched(relativePaths: [String?], names: [String]) -> [(path: String, line: Int)] {
        var used = Set(relativePaths.compactMap { $0 })
        used.formUnion(names)
        return rows.filter { !used.contains(Self.normalized($0.path)) }.map { ($0.path, $0.line) }
    }

    private static func text(of path: String) throws(Problem) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Problem(file: path, line: 1, reason: FileManager.default.fileExists(atPath: path) ? "cannot be opened" : "no such file")
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumBytes + 1) else { throw Problem(file: path, line: 1, reason: "cannot be read (a folder?)") }
        guard data.count <= maximumBytes else { throw Problem(file: path, line: 1, reason: "larger than \(maximumBytes >> 20) MiB") }
        guard let text = String(data: data, encoding: .utf8) else { throw Problem(file: path, line: 1, reason: "not UTF-8 text") }
        return text
    }

    /// CSV rows after the header, each with its first line's number.
    private static func csvRows(_ text: String, file: String) throws(Problem) -> [(path: String, overrides: CalendarOverrides, line: Int)] {
        let records = CSVRecords.parse(text)
        guard let header = records.first else { throw Problem(file: file, line: 1, reason: "empty: a header naming path and any of \(CalendarOverrides.keys.joined(separator: ", ")) comes first") }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let pathColumn = columns.firstIndex(of: "path") else { throw Problem(file: file, line: 1, reason: "the header names no path column") }
        for column in columns where column != "path" && !CalendarOverrides.keys.contains(column) {
            throw Problem(file: file, line: 1, reason: "'\(column.escapingControlCharacters())' is not a setting (the columns are path, \(CalendarOverrides.keys.joined(separator: ", ")))")
        }
        var rows: [(String, CalendarOverrides, Int)] = []
        for record in records.dropFirst() where !(record.fields.count == 1 && record.fields[0].isEmpty) {
            guard record.fields.count == columns.count else {
                throw Problem(file: file, line: record.line, reason: "\(record.fields.count) fields, the header has \(columns.count)")
            }
            let path = record.fields[pathColumn]
            guard !path.isEmpty else { throw Problem(file: file, line: record.line, reason: "no path") }
            var values: [String: String] = [:]
            for (column, value) in zip(columns, record.fields) where column != "path" { values[column] = value }
            do {
                rows.append((path, try CalendarOverrides(values: values), record.line))
            } catch {
                throw Problem(file: file, line: record.line, reason: error.description)
            }
        }
        return rows
    }

    /// JSON rows: a list of objects, each with a `path`.
    private static func jsonRows(_ text: String, file: String) throws(Problem) -> [(path: String, overrides: CalendarOverrides, line: Int)] {
        guard let list = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [Any] else {
            throw Problem(file: file, line: 1, reason: "not a JSON list of objects")
        }
        var rows: [(String, CalendarOverrides, Int)] = []
        for (index, element) in list.enumerated() {
            // JSON has no line per element: an element is named by its place, from 1.
            let place = index + 1
            guard let object = element as? [String: Any], let path = object["path"] as? String, !path.isEmpty else {
                throw Problem(file: file, line: 1, reason: "element \(place): an object with a \"path\" string")
            }
            do {
                rows.append((path, try overrides(from: object), place))
            } catch {
                throw Problem(file: file, line: 1, reason: "element \(place): \(error.description)")
            }
        }
        return rows
    }

    /// A JSON object's settings (numbers as numbers or strings; `habits` a list of strings).
    static func overrides(from object: [String: Any]) throws(CalendarOverrides.Problem) -> CalendarOverrides {
        var values: [String: String] = [:]
        var habits: [String]?
        for (key, value) in object where key != "path" && key != "id" {
            switch value {
            case let text as String where key != "habits": values[key] = text
            // JSON's true and false come as numbers too ("c", a char, to Objective-C): not points.
            case let number as NSNumber where key == "required" && String(cString: number.objCType) != "c": values[key] = number.stringValue
            case let list as [Any] where key == "habits":
                guard let texts = list as? [String] else { throw CalendarOverrides.Problem(key: key, reason: "a list of strings such as \"Piano=categories:piano\"") }
                habits = texts
            case is NSNull: continue
            default:
                guard CalendarOverrides.keys.contains(key) else { throw CalendarOverrides.Problem(key: key, reason: "not a setting (the keys are path, \(CalendarOverrides.keys.joined(separator: ", ")))") }
                throw CalendarOverrides.Problem(key: key, reason: key == "habits" ? "a list of strings" : "a string")
            }
        }
        return try CalendarOverrides(values: values, habitList: habits)
    }
}

/// RFC 4180 records: fields split at commas, double-quoted fields with `""` for a quote and line
/// breaks inside; records end at CRLF, LF or CR. Each record has the line it starts on.
enum CSVRecords {
    struct Record {
        var fields: [String]
        var line: Int
    }

    static func parse(_ text: String) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var recordLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        if pending == "\u{FEFF}" { pending = scalars.next() }
        func endRecord() {
            fields.append(field)
            records.append(Record(fields: fields, line: recordLine))
            fields = []
            field = ""
        }
        while let scalar = pending {
            pending = scalars.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = scalars.next()
                    } else {
                        quoted = false
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty: quoted = true
            case ",":
                fields.append(field)
                field = ""
            case "\r", "\n":
                if scalar == "\r", pending == "\n" { pending = scalars.next() }
                endRecord()
                line += 1
                recordLine = line
            default: field.unicodeScalars.append(scalar)
            }
        }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}
