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
            /// The file a `path` names, when it is the file that could not be read (the reason then
            /// names it, and the line is not blamed).
            var file: String?
            /// The read error's code, when the calendar a `path` or `url` names could not be read.
            var code: CalendarReadError.Code?
        }

        /// Where a line's calendar is.
        enum Calendar {
            /// A file, by `path`.
            case path(String)
            /// Its text, `ics`: a string of the line, decoded when the calendar is taken.
            case text(JSONString)
            /// Its bytes, `icsBase64`: a string of the line, decoded when the calendar is taken.
            case base64(JSONString)
            /// Its address, `url`: fetched when the calendar is taken, from an allowed host only.
            case url(String)
        }

        /// A calendar taken from its line: the source the import reads, and the file it is in
        /// when it was written out (kept open while the source is read).
        struct TakenCalendar {
            /// The inputs read as the calendar: one, or a CalDAV collection's resources.
            var calendars: [CalendarSource]
            var file: OpenFile?

            init(calendars: [CalendarSource], file: OpenFile? = nil) {
                self.calendars = calendars
                self.file = file
            }

            init(calendar: CalendarSource, file: OpenFile? = nil) {
                self.init(calendars: [calendar], file: file)
            }
        }

        /// The line's `id`, calendar and settings, taken out of the line so that the line can go.
        func calendar(
            files: ConfinedFiles, fetcher: CalendarFetcher?, textInMemoryLimit: Int
        ) -> Result<(id: RecordID, source: TakenCalendar, overrides: CalendarOverrides), Problem> {
            guard case .text(let bytes) = line else {
                guard case .tooLong(let length) = line else { return .failure(Problem(reason: "no line")) }
                return .failure(Problem(reason: "\(length) bytes, longer than a line may be (\(JSONLinesBatch.longestLine >> 20) MiB): give such a calendar by \"path\""))
            }
            return Self.parse(bytes).flatMap { id, calendar, overrides in
                Self.take(calendar, from: bytes, id: id, files: files, fetcher: fetcher, textInMemoryLimit: textInMemoryLimit).map { (id, $0, overrides) }
            }
        }

        /// The `id`, calendar and settings a line names (last-wins for a key given twice), or what
        /// is wrong with it.
        static func parse(_ bytes: [UInt8]) -> Result<(id: RecordID, calendar: Calendar, overrides: CalendarOverrides), Problem> {
            var reader = JSONReader(bytes, maximumBytes: valueBytes(forLine: bytes.count))
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
            let given = [("path", root.member("path")), ("ics", root.member("ics")), ("icsBase64", root.member("icsBase64")), ("url", root.member("url"))]
                .compactMap { key, value in value.map { (key, $0) } }
            guard given.count == 1, let (key, value) = given.first else {
                return .failure(Problem(id: id, reason: given.isEmpty
                    ? "none of \"path\", \"ics\", \"icsBase64\" and \"url\": give one" : "more than one of \"path\", \"ics\", \"icsBase64\" and \"url\": give one"))
            }
            guard case .string(let string) = value.kind else { return .failure(Problem(id: id, reason: "\"\(key)\" must be a string")) }
            let overrides: CalendarOverrides
            switch settings(of: root, in: bytes) {
            case .success(let given): overrides = given
            case .failure(let problem): return .failure(Problem(id: id, reason: problem.description))
            }
            switch key {
            case "path":
                let path = string.text(in: bytes)
                guard !path.isEmpty else { return .failure(Problem(id: id, reason: "\"path\" is empty")) }
                return .success((id, .path(path), overrides))
            case "ics": return .success((id, .text(string), overrides))
            case "url": return .success((id, .url(string.text(in: bytes)), overrides))
            default: return .success((id, .base64(string), overrides))
            }
        }

        /// A record's own settings: the keys a batch settings file's columns have (`tz`,
        /// `required`, `points`, `dayStart`, `habits`), as strings (`required` also a number,
        /// `habits` a list of strings); `null` is not given.
        static func settings(of root: JSONReader.Value, in bytes: [UInt8]) -> Result<CalendarOverrides, CalendarOverrides.Problem> {
            var values: [String: String] = [:]
            var habits: [String]?
            for key in CalendarOverrides.keys {
                guard let value = root.member(key) else { continue }
                switch value.kind {
                case .null: continue
                case .string(let text) where key != "habits": values[key] = text.text(in: bytes)
                case .number(let text) where key == "required": values[key] = text
                case .array(let elements) where key == "habits":
                    var texts: [String] = []
                    for element in elements {
                        guard case .string(let text) = element.kind else {
                            return .failure(CalendarOverrides.Problem(key: key, reason: "a list of strings such as \"Piano=categories:piano\""))
                        }
                        texts.append(text.text(in: bytes))
                    }
                    habits = texts
                default:
                    return .failure(CalendarOverrides.Problem(key: key, reason: key == "habits" ? "a list of strings" : "a string"))
                }
            }
            do {
                return .success(try CalendarOverrides(values: values, habitList: habits))
            } catch {
                return .failure(error)
            }
        }

        /// What the values of a line may take (`JSONReader`'s `maximumBytes`): as much as the line
        /// itself, and at least 64 KiB. Strings cost nothing until decoded, so only a line of very
        /// many small values comes near it.
        static func valueBytes(forLine length: Int) -> Int {
            max(64 << 10, length)
        }

        /// The calendar a parsed line names, as the import reads it: a file under one of the roots
        /// (`ConfinedFiles`), a text decoded into memory or (longer than `textInMemoryLimit`) into a
        /// temporary file, bytes decoded from base64.
        static func take(
            _ calendar: Calendar, from bytes: [UInt8], id: RecordID, files: ConfinedFiles, fetcher: CalendarFetcher?,
            textInMemoryLimit: Int
        ) -> Result<TakenCalendar, Problem> {
            switch calendar {
            case .url(let address):
                guard let fetcher, !fetcher.permittedHosts.isEmpty else { return .failure(Problem(id: id, reason: JSONLinesBatch.urlNeedsHost)) }
                do throws(CalendarReadError) {
                    return .success(TakenCalendar(calendars: try fetcher.calendars(at: address)))
                } catch {
                    return .failure(Problem(id: id, reason: error.description, code: error.code))
                }
            case .path(let path):
                guard !files.isEmpty else { return .failure(Problem(id: id, reason: JSONLinesBatch.pathNeedsRoot)) }
                switch files.open(path) {
                case .success(let file):
                    return .success(TakenCalendar(calendar: CalendarSource(name: path, content: .file(path: file.path)), file: file))
                case .failure(let refusal):
                    return .failure(Problem(id: id, reason: "cannot read \(path): \(refusal.reason)", file: path, code: refusal.code))
                }
            case .text(let string) where string.range.count > textInMemoryLimit:
                return spool(string, from: bytes, id: id)
            case .text(let string):
                return .success(TakenCalendar(calendar: .bytes(string.decoded(in: bytes), name: id.fileName)))
            case .base64(let string):
                guard let decoded = base64Decoded(string, in: bytes) else { return .failure(Problem(id: id, reason: "\"icsBase64\" is not base64")) }
                return .success(TakenCalendar(calendar: .bytes(decoded, name: id.fileName)))
            }
        }

        /// A long text decoded a piece at a time into a temporary file, read by the import as a file.
        private static func spool(_ string: JSONString, from bytes: [UInt8], id: RecordID) -> Result<TakenCalendar, Problem> {
            let reason = { (code: Int32) in "cannot keep the calendar in a temporary file: \(String(cString: strerror(code)))" }
            let file: OpenFile
            do {
                file = try OpenFile.temporary()
            } catch {
                return .failure(Problem(id: id, reason: reason(error.code.rawValue)))
            }
            struct WriteFailure: Error { var code: Int32 }
            do {
                try string.decode(in: bytes) { piece in
                    if let code = file.write(piece) { throw WriteFailure(code: code) }
                }
            } catch {
                return .failure(Problem(id: id, reason: reason((error as? WriteFailure)?.code ?? EIO)))
            }
            return .success(TakenCalendar(calendar: CalendarSource(name: id.fileName, content: .file(path: file.path)), file: file))
        }

        /// The bytes a base64 string stands for (characters outside base64 passed over), decoded
        /// from the line in place when the string has no escapes.
        private static func base64Decoded(_ string: JSONString, in bytes: [UInt8]) -> [UInt8]? {
            let decode = { (text: UnsafeRawBufferPointer) -> [UInt8]? in
                guard let base = text.baseAddress else { return [] }
                let view = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: text.count, deallocator: .none)
                return Data(base64Encoded: view, options: [.ignoreUnknownCharacters]).map { [UInt8]($0) }
            }
            guard !string.hasEscapes else { return string.decoded(in: bytes).withUnsafeBytes(decode) }
            return bytes.withUnsafeBytes { decode(UnsafeRawBufferPointer(rebasing: $0[string.range])) }
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
