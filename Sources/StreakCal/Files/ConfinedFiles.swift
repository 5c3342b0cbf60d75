import Foundation
import ICalendar

/// Files read only under given folders, and only when they are regular files that look like
/// calendars: how `batch --jsonl` reads the `path` of a record that came from elsewhere.
///
/// A path is resolved (symbolic links and `..` followed, relative to the current folder) and must
/// end inside one of the roots, resolved the same way, once. The file is opened without following
/// a last link and without waiting (`O_NOFOLLOW`, `O_NONBLOCK`), and what is open is looked at
/// through its descriptor: a regular file (never a device, a named pipe, a socket or a folder,
/// which could block or never end), still inside a root (so that a folder swapped for a link on
/// the way does not lead out), whose first text, after a byte order mark and blank lines, is
/// `BEGIN:` in any case. Whatever fails is refused before a byte of the file reaches the import,
/// so that nothing of a file that is not a calendar is ever shown.
///
/// ```swift
/// let files = ConfinedFiles(roots: ["/data/calendars"])
/// print(files.open("/etc/passwd"))
/// // Prints "failure(ConfinedFiles.Refusal(code: refused, reason: "outside the folders given with --root"))"
/// ```
struct ConfinedFiles: Sendable {
    /// Why a path is not read: a read error's code (what a batch's record says it is) and the text.
    struct Refusal: Error, Equatable {
        var code: CalendarReadError.Code
        var reason: String

        /// A system call's failure, by its error number.
        init(systemError: Int32) {
            self.init(code: CalendarReadError.Code(systemError: systemError), reason: String(cString: strerror(systemError)))
        }

        init(code: CalendarReadError.Code, reason: String) {
            self.code = code
            self.reason = reason
        }

        /// A path that ends outside the roots (or could not be told to be inside them).
        static let outside = Refusal(code: .refused, reason: ConfinedFiles.outside)
    }

    /// The roots' real paths (those that could be resolved), each ending without `/` but `/` itself.
    let roots: [String]

    init(roots: [String]) {
        self.roots = roots.compactMap(Self.realPath)
    }

    /// Whether there is any root to read under.
    var isEmpty: Bool { roots.isEmpty }

    /// The file at `path`, open for reading, if it may be read.
    func open(_ path: String) -> Result<OpenFile, Refusal> {
        guard let resolved = Self.realPath(path) else { return .failure(missing(path)) }
        guard contains(resolved) else { return .failure(.outside) }
        var status = stat()
        guard stat(resolved, &status) == 0 else { return .failure(Refusal(systemError: errno)) }
        // Looked at before it is opened: opening a device can act on it.
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(Self.notRegular(status.st_mode)) }
        let descriptor = Foundation.open(resolved, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            return .failure(code == ELOOP ? Refusal(code: .refused, reason: "a symbolic link that changed") : Refusal(systemError: code))
        }
        let file = OpenFile(descriptor: descriptor)
        // Looked at again as it is open: the path may have been changed since.
        guard fstat(descriptor, &status) == 0 else { return .failure(Refusal(systemError: errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(Self.notRegular(status.st_mode)) }
        if let opened = Self.linkTarget(file.path), !contains(opened) { return .failure(.outside) }
        switch CalendarSniff.verdict(file.descriptor) {
        case .success(.calendar), .success(.empty): return .success(file)
        case .success(.notACalendar(let reason)): return .failure(Refusal(code: .notACalendar, reason: reason))
        case .failure(let error): return .failure(Refusal(systemError: error.code.rawValue))
        }
    }

    static let outside = "outside the folders given with --root"

    private static func notRegular(_ mode: mode_t) -> Refusal {
        Refusal(code: mode & S_IFMT == S_IFDIR ? .isDirectory : .notACalendar, reason: "\(describeFileType(mode & S_IFMT)), not a regular file")
    }

    /// Why a path that cannot be resolved is not read: that it does not exist only when the folder
    /// it would be in is inside a root (so that no one learns what exists outside them).
    private func missing(_ path: String) -> Refusal {
        let code = errno
        let folder = AtomicFile.folder(of: path)
        guard let resolved = Self.realPath(folder), contains(resolved) else { return .outside }
        return code == ENOENT ? Refusal(code: .notFound, reason: "no such file") : Refusal(systemError: code)
    }

    /// Whether a real path is a root or inside one.
    func contains(_ resolved: String) -> Bool {
        roots.contains { root in
            root == "/" || resolved == root || (resolved.hasPrefix(root) && resolved.utf8.dropFirst(root.utf8.count).first == UInt8(ascii: "/"))
        }
    }

    /// What a link holds: for a descriptor's link (`/proc/self/fd/N`), the real path of the file
    /// open there, in one call; `nil` where there is no such link.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = buffer.withUnsafeMutableBufferPointer { readlink(path, UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count - 1) }
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length], as: UTF8.self)
    }

    /// The path with every link, `.` and `..` resolved, from the current folder if relative.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Whether a file starts as iCalendar text does (RFC 5545 section 3.4: a stream is components,
/// each `BEGIN:`): after a byte order mark (UTF-8, or UTF-16 either way) and white space, the
/// letters `BEGIN:` in any case, and not a vCard's `BEGIN:VCARD` (RFC 6350 shares the syntax, but
/// a contact is not a calendar). Any other component passes, as RFC 5545 section 3.6 lets a
/// calendar hold components it does not define (`VAVAILABILITY`, an `X-` component) and a damaged
/// export may start with one. An empty or blank file passes: it has no line to show
/// (``Verdict/empty`` tells it apart).
package enum CalendarSniff {
    /// What a file's first text says it is.
    package enum Verdict: Equatable {
        case calendar
        /// Empty, or white space only.
        case empty
        /// Not iCalendar text, and why.
        case notACalendar(String)
    }

    /// The components whose text is not a calendar, though it starts as one: a vCard (RFC 6350).
    static let foreignComponents: Set<String> = ["vcard"]

    /// Reads `descriptor` from its start (with `pread`, leaving its offset) as far as its first
    /// text that is not white space.
    static func startsLikeACalendar(_ descriptor: Int32) -> Result<Bool, POSIXError> {
        verdict(descriptor).map { if case .notACalendar = $0 { false } else { true } }
    }

    /// ``verdict(_:)-(()->UInt8?)`` for the file open as `descriptor`, read from its start (with `pread`,
    /// leaving its offset) as far as its first line.
    static func verdict(_ descriptor: Int32) -> Result<Verdict, POSIXError> {
        var chunk = [UInt8](repeating: 0, count: 4096)
        var count = 0
        var next = 0
        var offset = 0
        var failure: POSIXError?
        let verdict = verdict {
            if next == count {
                guard failure == nil else { return nil }
                repeat {
                    count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
                } while count < 0 && errno == EINTR
                guard count > 0 else {
                    if count < 0 { failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                    return nil
                }
                offset += count
                next = 0
            }
            defer { next += 1 }
            return chunk[next]
        }
        if let failure { return .failure(failure) }
        return .success(verdict)
    }

    /// Why a file whose text does not start as a calendar's is not read.
    static let notACalendar = "not an iCalendar file (its text does not start with BEGIN:)"

    /// Why a file whose text starts with another component than a calendar's is not read.
    static func notACalendar(component: String) -> String {
        "not an iCalendar file (it starts with BEGIN:\(component.prefix(20).uppercased())\(component.count > 20 ? "…" : ""), not BEGIN:VCALENDAR)"
    }

    /// Whether the file at `path` starts as a calendar does (an empty one does); `nil` when it is
    /// not a regular file or cannot be read, which the import then reports. Looked at before it is
    /// opened, as a device can act on being opened.
    static func regularFileStartsLikeACalendar(atPath path: String) -> Bool? {
        regularFileVerdict(atPath: path).map { if case .notACalendar = $0 { false } else { true } }
    }

    /// What the regular file at `path` starts as; `nil` when it is not a regular file or cannot be
    /// read, which the import then reports.
    package static func regularFileVerdict(atPath path: String) -> Verdict? {
        var status = stat()
        guard FileName.withSystemRepresentation(path, { stat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let descriptor = FileName.withSystemRepresentation(path) { Foundation.open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return try? verdict(descriptor).get()
    }

    /// The verdict on a file's first bytes (the whole file, or as far as its first text).
    static func startsLikeACalendar(_ head: [UInt8]) -> Bool {
        var bytes = head.makeIterator()
        return startsLikeACalendar { bytes.next() }
    }

    /// The verdict on the bytes `nextByte` gives (`nil` at the end), reading no further than needed.
    static func startsLikeACalendar(_ nextByte: () -> UInt8?) -> Bool {
        if case .notACalendar = verdict(nextByte) { return false }
        return true
    }

    /// The verdict on a file's first bytes (the whole file, or as far as its first text).
    package static func verdict(_ head: [UInt8]) -> Verdict {
        var bytes = head.makeIterator()
        return verdict { bytes.next() }
    }

    /// What the bytes `nextByte` gives (`nil` at the end) are, reading no further than the first
    /// line's component name.
    static func verdict(_ nextByte: () -> UInt8?) -> Verdict {
        var head: [UInt8] = []
        while head.count < 3, let byte = nextByte() { head.append(byte) }
        // UTF-16 by its byte order mark (and in which order), else UTF-8 with or without one.
        let utf16Order: Bool? = head.starts(with: [0xFF, 0xFE]) ? true : head.starts(with: [0xFE, 0xFF]) ? false : nil
        var pending = utf16Order != nil ? head.dropFirst(2) : head == [0xEF, 0xBB, 0xBF] ? [] : head[...]
        func byte() -> UInt8? { pending.popFirst() ?? nextByte() }
        func nextUnit() -> UInt16? {
            guard let littleEndian = utf16Order else { return byte().map(UInt16.init) }
            guard let first = byte(), let second = byte() else { return nil }
            return littleEndian ? UInt16(first) | UInt16(second) << 8 : UInt16(first) << 8 | UInt16(second)
        }
        var unit = nextUnit()
        while let current = unit, [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(current) { unit = nextUnit() }
        guard unit != nil else { return .empty }
        let word = Array("BEGIN:".utf16)
        for (index, expected) in word.enumerated() {
            guard let current = unit, lowered(current) == lowered(expected) else { return .notACalendar(notACalendar) }
            if index < word.count - 1 { unit = nextUnit() }
        }
        // The component's name, up to the line's end (a name longer than any tells enough).
        var name: [UInt16] = []
        while let current = nextUnit(), current != 0x0D, current != 0x0A, name.count <= 40 { name.append(lowered(current)) }
        let component = String(decoding: name, as: UTF16.self).trimmingCharacters(in: .whitespaces)
        return foreignComponents.contains(component) ? .notACalendar(notACalendar(component: component)) : .calendar
    }

    private static func lowered(_ unit: UInt16) -> UInt16 {
        (0x41...0x5A).contains(unit) ? unit | 0x20 : unit
    }
}
