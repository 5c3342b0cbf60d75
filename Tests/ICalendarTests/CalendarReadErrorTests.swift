import Foundation
import FixedClock
import ICalendar
import Testing

/// A calendar that cannot be read says why with a code a program switches on (issue 50.5), not
/// only with words: the command used to compare the text ("no such file").
@Suite("Read errors carry a code")
struct CalendarReadErrorTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-read-error-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("A missing file is not-found with ENOENT, a folder is-directory, with the path as given")
    func fileCodes() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.ics").path
        let notFound = try #require(throws: CalendarReadError.self) { try CalendarSource.file(missing).read() }
        #expect(notFound.code == .notFound && notFound.systemError == ENOENT && notFound.httpStatus == nil)
        #expect(notFound.path == missing && notFound.description == "cannot read \(missing): no such file")
        let directory = try #require(throws: CalendarReadError.self) {
            try SessionImporter(expansion: testExpansion).importSessions(from: .file(folder.path))
        }
        #expect(directory.code == .isDirectory && directory.systemError == EISDIR)
        #expect(directory.description == "cannot read \(folder.path): it is a directory")
    }

    @Test("An unreadable source alone throws its own error; among several it is a diagnostic and the others are read")
    func unreadableSource() throws {
        let error = CalendarReadError(path: "gone.ics", code: .notFound, reason: "a broken link or a vanished file")
        let importer = SessionImporter(expansion: testExpansion)
        let alone = try #require(throws: CalendarReadError.self) {
            try importer.importSessions(from: CalendarSource(name: "gone.ics", content: .unreadable(error)))
        }
        #expect(alone == error)
        var kept = CalendarSource.string("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20240105T090000Z\nDTEND:20240105T100000Z\nEND:VEVENT\nEND:VCALENDAR\n", name: "kept.ics")
        kept.collection = CalendarSource.Collection(location: "folder")
        let gone = CalendarSource(name: "gone.ics", content: .unreadable(error), collection: kept.collection)
        let both = try importer.importSessions(from: [gone, kept])
        #expect(both.sessions.map(\.id) == ["a"])
        let inputErrors = both.diagnostics.filter { $0.code == .input }
        #expect(inputErrors.map(\.location.file) == ["gone.ics"])
        #expect(inputErrors.first?.message == "the file cannot be read (a broken link or a vanished file); the other inputs are read without it")
    }

    @Test("System error numbers map to codes; any other is system-failure, its number kept")
    func systemErrors() {
        let cases: [(Int32, CalendarReadError.Code)] = [
            (ENOENT, .notFound), (EISDIR, .isDirectory), (EACCES, .permissionDenied), (EPERM, .permissionDenied),
            (EFBIG, .tooLarge), (EIO, .systemFailure), (ENOSPC, .systemFailure),
        ]
        for (number, code) in cases {
            let error = CalendarReadError(path: "x.ics", systemError: number)
            #expect(error.code == code && error.systemError == number, "\(number)")
            #expect(error.reason == String(cString: strerror(number)))
        }
        let spooled = CalendarReadError(path: "-", systemError: ENOSPC, context: "cannot keep the input in a temporary file")
        #expect(spooled.reason == "cannot keep the input in a temporary file: \(String(cString: strerror(ENOSPC)))")
    }

    @Test("Codes are stable names, in JSON as their names")
    func codeNames() throws {
        let codes: [CalendarReadError.Code] = [
            .notFound, .isDirectory, .permissionDenied, .tooLarge, .notACalendar, .systemFailure, .invalidAddress,
            .refused, .missingPassword, .network, .server, .notCached, .cache,
        ]
        #expect(codes.map(\.rawValue) == [
            "not-found", "is-directory", "permission-denied", "too-large", "not-a-calendar", "system-failure",
            "invalid-address", "refused", "missing-password", "network", "server", "not-cached", "cache",
        ])
        let encoded = try JSONEncoder().encode(codes)
        #expect(try JSONDecoder().decode([CalendarReadError.Code].self, from: encoded) == codes)
        #expect(String(decoding: encoded, as: UTF8.self).hasPrefix(#"["not-found","is-directory""#))
    }
}
