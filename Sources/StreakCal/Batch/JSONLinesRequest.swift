import Foundation
import ICalendar

extension JSONLinesBatch {
    /// An input line, parsed when a worker takes it.
    struct Request: Sendable {
        var line: InputLine
        var number: Int

        /// What a line can be wrong with, and the `id` it gave, if any.
        struct Problem: Error {
            var id: RecordID?
            var reason: String
        }

        /// Where a line's calendar is.
        enum Calendar {
            /// A file, by `path`.
            case path(String)
            /// Its text, `ics`: a string of the line, decoded when the calendar is read.
            case text(JSONString)
            /// Its bytes, `icsBase64`: a string of the line, decoded when the calendar is read.
            case base64(JSONString)
        }

        /// The line's `id` and calendar (last-wins for a key given twice), or what is wrong with it.
        func parsed() -> Result<(id: RecordID, calendar: Calendar), Problem> {
            let bytes: [UInt8]
            switch line {
            case .text(let text): bytes = Array(text.utf8)
            case .tooLong(let length):
                return .failure(Problem(reason: "\(length) bytes, longer than a line may be (\(JSONLinesBatch.longestLine >> 20) MiB): give such a calendar by \"path\""))
            }
            var reader = JSONReader(bytes, maximumBytes: Self.valueBytes(forLine: bytes.count))
            let root: JSONReader.Value
            do {
                root = try reader.document()
            } catch {
                return .failure(Problem(reason: error.isLimit ? error.message : "not JSON"))
            }
            guard case .object = root.kind else { return .failure(Problem(reason: "not a JSON object")) }
            let id: RecordID
            switch root.member("id")?.kind {
            case nil, .null?: return .failure(Problem(reason: "no \"id\": each line needs one, a string or a number"))
            case .string(let text)?: id = .string(text.text(in: bytes))
            case .number(let text)?: id = .number(text)
            default: return .failure(Problem(reason: "\"id\" must be a string or a number"))
            }
            let given = [("path", root.member("path")), ("ics", root.member("ics")), ("icsBase64", root.member("icsBase64"))]
                .filter { $0.1 != nil }
            guard given.count == 1, let (key, value) = given.first, let value else {
                return .failure(Problem(id: id, reason: given.isEmpty
                    ? "none of \"path\", \"ics\" and \"icsBase64\": give one" : "more than one of \"path\", \"ics\" and \"icsBase64\": give one"))
            }
            guard case .string(let string) = value.kind else { return .failure(Problem(id: id, reason: "\"\(key)\" must be a string")) }
            switch key {
            case "path":
                let path = string.text(in: bytes)
                guard !path.isEmpty else { return .failure(Problem(id: id, reason: "\"path\" is empty")) }
                return .success((id, .path(path)))
            case "ics": return .success((id, .text(string)))
            default: return .success((id, .base64(string)))
            }
        }

        /// What the values of a line may take (`JSONReader`'s `maximumBytes`): as much as the line
        /// itself, and at least 64 KiB. Strings cost nothing until decoded, so only a line of very
        /// many small values comes near it.
        static func valueBytes(forLine length: Int) -> Int {
            max(64 << 10, length)
        }

        /// The calendar a parsed line names, as the import reads it.
        func source(_ calendar: Calendar, id: RecordID) -> Result<CalendarSource, Problem> {
            guard case .text(let text) = line else { return .failure(Problem(id: id, reason: "no text")) }
            let bytes = Array(text.utf8)
            switch calendar {
            case .path(let path): return .success(.file(path))
            case .text(let string): return .success(.bytes(string.decoded(in: bytes), name: id.fileName))
            case .base64(let string):
                guard let decoded = Data(base64Encoded: Data(string.decoded(in: bytes)), options: [.ignoreUnknownCharacters]) else {
                    return .failure(Problem(id: id, reason: "\"icsBase64\" is not base64"))
                }
                return .success(.bytes(Array(decoded), name: id.fileName))
            }
        }
    }

    /// An input's `id`: a string, or a number as it was written (`12345678901234567890123` stays
    /// that), given back as it came.
    enum RecordID: Sendable, Hashable {
        case string(String)
        /// A JSON number's text.
        case number(String)

        /// The name a calendar given as text goes by in diagnostics: its id.
        var fileName: String {
            switch self {
            case .string(let text): text.isEmpty ? "<empty id>" : text
            case .number(let text): text
            }
        }
    }
}
