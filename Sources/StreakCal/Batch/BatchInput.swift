import Foundation
public import ICalendar

/// One calendar of a batch: where it comes from and the name its report gets.
///
/// ```swift
/// let inputs = BatchInput.discover(["exports", "extra/work.ics"])
/// print(inputs.map(\.outputName))
/// // Prints "["2023__home", "2023__work", "home", "work"]"
/// ```
public struct BatchInput: Sendable {
    /// Where the calendar's bytes are.
    public enum Content: Sendable {
        /// A file, read when its turn comes.
        case file(path: String)
        /// Sources read as one calendar: bytes already in memory, or a calendar fetched from an
        /// address (a CalDAV collection's resources, each an input of its own).
        case sources([CalendarSource])
        /// An input that is known to fail, such as a folder that cannot be listed.
        case unreadable(CalendarReadError)
    }

    /// The input as the user knows it: the path as found (a folder argument joined with the path
    /// inside it), or the source's name.
    public var name: String
    /// The name its report gets, without extension: one file name, never `.`, `..`, hidden, or
    /// with a path separator, and unique in the batch (ignoring case).
    public var outputName: String
    /// Where the bytes are.
    public var content: Content
    /// Its path relative to the folder it was found in (a file named on its own: its file name),
    /// as its report is named and a settings file names it; `nil` for an address or bytes.
    public var relativePath: String?
    /// Its own settings over the batch's (a settings file's row), if any.
    public var overrides: CalendarOverrides?

    /// The calendar's id in the summary and in its CSV report: its path relative to the folder
    /// given (`team/alice.ics`, the same whichever other inputs there are, and what the Spark
    /// job's ids are relative to its input root), else its name (an address, bytes' name).
    public var id: String { relativePath ?? name }

    public init(name: String, outputName: String, content: Content, relativePath: String? = nil, overrides: CalendarOverrides? = nil) {
        self.name = name
        self.outputName = outputName
        self.content = content
        self.relativePath = relativePath
        self.overrides = overrides
    }
}

/// A file a folder walk passed over, and why: a `*.ics` entry that is not a regular file.
///
/// ```swift
/// print(BatchInput.walk(["exports"]).skipped)
/// // Prints "[SkippedInput(input: "exports/live.ics", reason: "a named pipe (FIFO), not a regular file")]"
/// ```
public struct SkippedInput: Hashable, Sendable, Codable {
    /// The path as found (the folder argument joined with the path inside it).
    public var input: String
    /// Why it was not read, such as `a named pipe (FIFO), not a regular file`.
    public var reason: String

    public init(input: String, reason: String) {
        self.input = input
        self.reason = reason
    }
}

/// What a walk over files and folders found: the calendars, and the files it passed over.
public struct BatchDiscovery: Sendable {
    /// The calendars, in order, with their output names.
    public var inputs: [BatchInput]
    /// The `*.ics` entries of folders that are not regular files (named pipes, sockets, devices),
    /// and files found again through a link, in walk order.
    public var skipped: [SkippedInput]

    public init(inputs: [BatchInput], skipped: [SkippedInput]) {
        self.inputs = inputs
        self.skipped = skipped
    }
}

extension BatchInput {
    /// The calendars named by `paths`, in order, each named once: a file as it is (whatever its
    /// extension), a folder as its `*.ics` files (any case) at any depth, sorted by path, hidden
    /// folders (a name starting with `.`, such as `.git` or a server's `.Radicale.cache`) passed over.
    ///
    /// Symbolic links are followed, except a link to a folder that contains it; a folder already
    /// visited is not entered again, so links never make the walk loop. A path that does not exist, and a folder that cannot be listed, become
    /// inputs that fail with the reason. Output names come from ``outputNames(for:reserving:fileExtension:)``.
    ///
    /// Inside folders only regular files are taken: a named pipe, socket or device called `*.ics`
    /// (or a link to one) is passed over, as ``BatchDiscovery/skipped`` in ``walk(_:reserving:fileExtension:)``
    /// lists — reading it could wait forever or never end. A path named on its own is read whatever
    /// it is, so a named pipe given by name is read as a stream.
    ///
    /// - Parameters:
    ///   - paths: Files and folders.
    ///   - reserving: Output file names (with extension) the reports must not take, compared
    ///     ignoring case, such as `summary.json`.
    ///   - fileExtension: The extension the reports will have, for the comparison with `reserving`.
    public static func discover(_ paths: [String], reserving: Set<String> = [], fileExtension: String = "") -> [BatchInput] {
        walk(paths, reserving: reserving, fileExtension: fileExtension).inputs
    }

    /// ``discover(_:reserving:fileExtension:)``, also returning the entries of folders it passed over.
    public static func walk(_ paths: [String], reserving: Set<String> = [], fileExtension: String = "") -> BatchDiscovery {
        var walk = CalendarWalk()
        for path in paths { walk.add(path) }
        // A clash is told apart by the relative path, the same in every run; only the same
        // relative path in two folders given needs the path as found.
        var counts: [String: Int] = [:]
        for found in walk.found { counts[found.relative, default: 0] += 1 }
        let keys = walk.found.map { counts[$0.relative, default: 0] > 1 ? $0.name : $0.relative }
        let names = outputNames(for: walk.found.map(\.relative), keys: keys, reserving: reserving, fileExtension: fileExtension)
        let inputs = zip(walk.found, names).map { BatchInput(name: $0.name, outputName: $1, content: $0.content, relativePath: $0.relative) }
        return BatchDiscovery(inputs: inputs, skipped: walk.skipped)
    }

    /// Calendars already in memory, in order, named after their sources.
    public static func sources(_ sources: [CalendarSource], reserving: Set<String> = [], fileExtension: String = "") -> [BatchInput] {
        // Each named as a file named on its own is: by its last component.
        let names = outputNames(
            for: sources.map { CalendarWalk.lastComponent(of: $0.name) }, keys: sources.map(\.name),
            reserving: reserving, fileExtension: fileExtension)
        return zip(sources, names).map { BatchInput(name: $0.name, outputName: $1, content: .sources([$0])) }
    }

    /// Readable, safe and distinct report names for inputs, each given by its path relative to
    /// the folder it was found in (a file named on its own: its file name).
    ///
    /// A name is that relative path without a `.ics` extension, its folders joined with `__`;
    /// characters other than letters, digits and `-_.+@,` become `_`, as does a leading dot, so a
    /// name is one plain file name inside the output folder. It depends on that path alone, never
    /// on which other inputs were given (issue 49.4: `x/a.ics` was `x__a-2` only because `x/A.ICS`
    /// was there too). When names clash (ignoring case, or with a reserved name such as
    /// `summary.json`), the one whose name spells its path exactly (lower case, nothing replaced)
    /// keeps it, and each other gets eight hexadecimal digits of its own path's hash
    /// (`x__A-77662b39`): the same whatever the order or the company.
    ///
    /// ```swift
    /// print(BatchInput.outputNames(for: ["a/x.ics", "b/x.ics", "b/X.ICS", "../..ics"]))
    /// // Prints "["a__x", "b__x", "b__X-f08f38db", "_"]"
    /// ```
    public static func outputNames(for relativePaths: [String], reserving: Set<String> = [], fileExtension: String = "") -> [String] {
        outputNames(for: relativePaths, keys: relativePaths, reserving: reserving, fileExtension: fileExtension)
    }

    /// ``outputNames(for:reserving:fileExtension:)``, clashes told apart by `keys` (the inputs as
    /// given): two folders given may hold the same relative path.
    static func outputNames(for relativePaths: [String], keys: [String], reserving: Set<String>, fileExtension: String) -> [String] {
        let stems = relativePaths.map(stem(ofRelativePath:))
        let exact = zip(relativePaths, stems).map { isExact(stem: $1, of: $0) }
        return resolvingClashes(stems, exact: exact, keys: keys, reserving: reserving, suffix: fileExtension.isEmpty ? "" : "." + fileExtension)
    }

    /// A relative path's name before clashes: `.` and `..` resolved by text (never above the
    /// start), `.ics` dropped, components sanitized and joined with `__`, made a safe file name.
    static func stem(ofRelativePath path: String) -> String {
        var components = lexicalComponents(of: path, relativeTo: "/")
        if let last = components.last, last.utf8.count > 4, hasCalendarExtension(last) {
            components[components.count - 1] = String(decoding: last.utf8.dropLast(4), as: UTF8.self)
        }
        return safeFileName(components.map(sanitized).joined(separator: "__"))
    }

    /// Whether `stem` spells `path` exactly: lower case, nothing replaced, `.ics` (in lower case)
    /// the only thing dropped, no `__` of its own. Two different paths never both do, so in a
    /// clash this one keeps its name.
    static func isExact(stem: String, of path: String) -> Bool {
        guard stem == stem.lowercased() else { return false }
        let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("__") }) else { return false }
        var spelled = components.joined(separator: "__")
        if spelled.hasSuffix(".ics") { spelled.removeLast(4) }
        return spelled == stem
    }

    /// `stems`, each that clashes with another (ignoring case, compared with `suffix`) or with a
    /// reserved name given `-` and its key's hash, but for the one exact stem of a clash; then
    /// ``distinct(_:reserving:suffix:)`` for what still clashes (a file named like a hash, or
    /// two inputs with one key).
    static func resolvingClashes(_ stems: [String], exact: [Bool], keys: [String], reserving: Set<String>, suffix: String) -> [String] {
        var counts: [String: Int] = [:]
        counts.reserveCapacity(stems.count)
        for stem in stems { counts[caseFolded(stem + suffix), default: 0] += 1 }
        let reserved = Set(reserving.map(caseFolded))
        var exactTaken: Set<String> = []
        let names = stems.indices.map { index -> String in
            let stem = stems[index]
            let key = caseFolded(stem + suffix)
            let isReserved = reserved.contains(key)
            guard isReserved || counts[key, default: 0] > 1 else { return stem }
            if !isReserved, exact[index], exactTaken.insert(key).inserted { return stem }
            return stem + "-" + StableHash.hexadecimal(keys[index])
        }
        return distinct(names, reserving: reserving, suffix: suffix)
    }

    /// `stems` with `-2`, `-3`, ... added to each that an earlier one (or `reserving`) already
    /// takes, comparing `stem + suffix` ignoring case.
    ///
    /// Each stem's search goes on from the counter it last reached (every name before it is
    /// taken, and names are never given back), so that 16,000 inputs sharing a stem cost linear
    /// time rather than trying `-2`, `-3`, … from the start for each (109 s before).
    static func distinct(_ stems: [String], reserving: Set<String>, suffix: String) -> [String] {
        var taken = Set<String>(minimumCapacity: stems.count + reserving.count)
        for name in reserving { taken.insert(caseFolded(name)) }
        var reached: [String: Int] = [:]
        return stems.map { stem in
            let key = caseFolded(stem)
            var counter = reached[key] ?? 1
            var name = counter == 1 ? stem : "\(stem)-\(counter)"
            while !taken.insert(caseFolded(name + suffix)).inserted {
                counter += 1
                name = "\(stem)-\(counter)"
            }
            reached[key] = counter
            return name
        }
    }

    /// A name as `distinct` compares it.
    static func caseFolded(_ name: String) -> String { name.lowercased() }

    /// Whether a file name ends in `.ics`, in any case of its ASCII letters.
    package static func hasCalendarExtension(_ name: String) -> Bool {
        name.utf8.count >= 4 && String(decoding: name.utf8.suffix(4), as: UTF8.self).lowercased() == ".ics"
    }

    /// The path's components after making it absolute and resolving `.` and `..` by text, split
    /// at each `/` byte, as the kernel splits paths.
    static func lexicalComponents(of path: String, relativeTo base: String) -> [String] {
        let resolved = LexicalPath(path, relativeTo: base)
        return resolved.components.map { String(decoding: resolved.bytes[$0], as: UTF8.self) }
    }

    /// A path component with every character outside letters, digits and `-_.+@,` replaced by `_`.
    static func sanitized(_ component: String) -> String {
        String(component.map { character -> Character in
            let allowed = character.isLetter || character.isNumber || "-_.+@,".contains(character)
            return allowed && character.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace }) ? character : "_"
        })
    }

    /// Longest name kept, in UTF-8 bytes: room for a collision counter, the extension and
    /// `AtomicFile`'s temporary name (a dot, a UUID and `.tmp`) within 255 bytes.
    static let maximumNameBytes = 150

    /// `name` as one file name that is neither empty, hidden, `.` nor `..`, and not too long:
    /// leading dots become `_`, then the name is cut to `maximumNameBytes`.
    static func safeFileName(_ name: String) -> String {
        var result = Substring(name)
        var prefix = ""
        while result.first == "." {
            result = result.dropFirst()
            prefix += "_"
        }
        var safe = prefix + result
        if safe.isEmpty { safe = "calendar" }
        while safe.utf8.count > maximumNameBytes { safe.removeLast() }
        return safe
    }
}

/// A walk over files and folders that finds each calendar once and never loops.
struct CalendarWalk {
    /// Each calendar: the path as found, its path relative to the folder named (a file named on
    /// its own: its file name), and where its bytes are.
    var found: [(name: String, relative: String, content: BatchInput.Content)] = []
    /// `*.ics` entries of folders that are not regular files, and files found again (a hard
    /// link, a link to a file already found), in walk order.
    var skipped: [SkippedInput] = []
    /// Files seen, by device and inode, with the name each was first found by.
    private var seenFiles: [FileIdentity: String] = [:]
    /// Folders seen, by device and inode.
    private var seenFolders: Set<FileIdentity> = []
    private var seenSkipped: Set<FileIdentity> = []
    /// Paths seen that could not be identified (they do not exist), as written.
    private var seenMissing: Set<String> = []

    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Adds a path the user named: a file whatever its extension, a folder walked for `*.ics`.
    mutating func add(_ path: String) {
        guard let (identity, kind) = Self.identify(path) else {
            if seenMissing.insert(path).inserted {
                let error = FileManager.default.fileExists(atPath: path)
                    ? CalendarReadError(path: path, code: .systemFailure, reason: "cannot be read")
                    : CalendarReadError(path: path, code: .notFound, reason: FileName.missingReason(path), systemError: ENOENT)
                found.append((FileName.displayed(path), Self.lastComponent(of: path), .unreadable(error)))
            }
            return
        }
        if kind == S_IFDIR {
            enter(path, identity: identity, relative: "")
        } else {
            // Named on its own: read whatever it is (a named pipe as a stream).
            take(path, relative: Self.lastComponent(of: path), identity: identity)
        }
    }

    /// A calendar file found, or, if the same file (by device and inode) was found before under
    /// another name, a skipped entry saying which: a hard link or a second link is not a second
    /// calendar, and is not dropped without a word either.
    private mutating func take(_ path: String, relative: String, identity: FileIdentity) {
        let name = FileName.displayed(path)
        if let first = seenFiles[identity] {
            if first != name { skipped.append(SkippedInput(input: name, reason: "the same file as \(first) (a link), read once")) }
            return
        }
        seenFiles[identity] = name
        found.append((name, relative, .file(path: path)))
    }

    /// The last component of a path, as its report is named when it is named on its own.
    static func lastComponent(of path: String) -> String {
        BatchInput.lexicalComponents(of: FileName.displayed(path), relativeTo: "/").last ?? ""
    }

    /// Walks a folder: its `*.ics` files and its folders, in sorted order, depth first; hidden
    /// folders (a name starting with `.`) are passed over.
    private mutating func enter(_ folder: String, identity: FileIdentity, relative: String) {
        guard seenFolders.insert(identity).inserted else { return }
        let entries: [(name: String, found: (FileIdentity, kind: mode_t)?)]
        switch Self.list(folder) {
        case .success(let listed): entries = listed
        case .failure(let code):
            found.append((FileName.displayed(folder), relative.isEmpty ? Self.lastComponent(of: folder) : relative, .unreadable(CalendarReadError(path: folder, systemError: code.code.rawValue, context: "the folder cannot be listed"))))
            return
        }
        seenFiles.reserveCapacity(seenFiles.count + entries.count)
        for (entry, identified) in entries {
            let path = folder.hasSuffix("/") ? folder + entry : folder + "/" + entry
            // As shown: a name that is not UTF-8 has its bytes escaped (`\xDCbung.ics`), as in messages.
            let entryRelative = relative.isEmpty ? FileName.displayed(entry) : relative + "/" + FileName.displayed(entry)
            let isCalendar = BatchInput.hasCalendarExtension(entry)
            guard let (identity, kind) = identified else {
                // A dangling link or a file that vanished: worth reporting only if it looks like a calendar.
                if isCalendar, seenMissing.insert(path).inserted {
                    found.append((FileName.displayed(path), entryRelative, .unreadable(CalendarReadError(path: path, code: .notFound, reason: "a broken link or a vanished file", systemError: ENOENT))))
                }
                continue
            }
            if kind == S_IFDIR {
                // A hidden folder is a server's or a sync tool's own (Radicale's .Radicale.cache
                // holds every event again, pickled; .git, .vdirsyncer): not the user's calendars.
                if entry.hasPrefix(".") { continue }
                if Self.isLink(path), Self.leadsUp(from: folder, to: path) { continue }
                enter(path, identity: identity, relative: entryRelative)
            } else if isCalendar, kind == S_IFREG {
                take(path, relative: entryRelative, identity: identity)
            } else if isCalendar, seenSkipped.insert(identity).inserted {
                // Opening a named pipe waits for a writer; a device may never end. Named on its
                // own (`add`), the same file is still read.
                skipped.append(SkippedInput(input: FileName.displayed(path), reason: "\(describeFileType(kind)), not a regular file"))
            }
        }
    }

    /// A folder's entries but `.` and `..`, sorted by their bytes, each with its identity and
    /// type as `identify` gives them (`nil` for one that cannot be reached), or why the folder
    /// cannot be listed. Entries are looked up by name in the open folder (`fstatat`), not by
    /// their whole path, and the folder is closed before any of its folders is entered.
    static func list(_ folder: String) -> Result<[(name: String, found: (FileIdentity, kind: mode_t)?)], POSIXError> {
        guard let directory = FileName.withSystemRepresentation(folder, { opendir($0) }) else { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
                break
            }
            // Its bytes as they are: a name that is not UTF-8 keeps them (``FileName``).
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: field.pointee)) {
                    FileName.string(fromSystem: UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)))
                }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        names.sort(by: precedesByBytes)
        let descriptor = dirfd(directory)
        return .success(names.map { name in
            var information = stat()
            guard FileName.withSystemRepresentation(name, { fstatat(descriptor, $0, &information, 0) }) == 0 else { return (name, nil) }
            return (name, identity(of: information))
        })
    }

    /// Whether `path` is a symbolic link.
    static func isLink(_ path: String) -> Bool {
        var information = stat()
        return FileName.withSystemRepresentation(path, { lstat($0, &information) }) == 0 && (information.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether the folder `link` leads to contains `folder` (or is it): a link that makes a loop.
    static func leadsUp(from folder: String, to link: String) -> Bool {
        guard let here = realPath(folder), let target = realPath(link) else { return true }
        return here == target || here.hasPrefix(target.hasSuffix("/") ? target : target + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = FileName.withSystemRepresentation(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FileName.string(fromSystem: UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
    }

    /// The file's identity and type (`S_IFDIR`, `S_IFREG`, ...), following links; `nil` if it cannot be reached.
    static func identify(_ path: String) -> (FileIdentity, kind: mode_t)? {
        var information = stat()
        guard FileName.withSystemRepresentation(path, { stat($0, &information) }) == 0 else { return nil }
        return identity(of: information)
    }

    /// A file's identity and type, from its status.
    private static func identity(of information: stat) -> (FileIdentity, kind: mode_t) {
        (FileIdentity(device: UInt64(information.st_dev), inode: UInt64(information.st_ino)), information.st_mode & S_IFMT)
    }
}

/// A path made absolute (after `base` when relative) and resolved by text: split at each `/`
/// byte, as the kernel splits paths, empty and `.` components dropped, `..` taking the one before
/// away. Components are ranges of the absolute path's bytes: a batch names thousands of paths
/// before its first worker starts, without a String for each folder of each.
struct LexicalPath {
    let bytes: [UInt8]
    let components: [Range<Int>]

    init(_ path: String, relativeTo base: String) {
        var bytes: [UInt8] = []
        let isRelative = path.utf8.first != UInt8(ascii: "/")
        bytes.reserveCapacity((isRelative ? base.utf8.count + 1 : 0) + path.utf8.count)
        // Appended from the strings' storage when contiguous, rather than byte by byte.
        func append(_ text: String) {
            if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes += text.utf8 }
        }
        if isRelative {
            append(base)
            bytes.append(UInt8(ascii: "/"))
        }
        append(path)
        var components: [Range<Int>] = []
        components.reserveCapacity(bytes.reduce(1) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 })
        var start = 0
        for end in bytes.indices where bytes[end] == UInt8(ascii: "/") {
            Self.add(start..<end, of: bytes, to: &components)
            start = end + 1
        }
        Self.add(start..<bytes.count, of: bytes, to: &components)
        self.bytes = bytes
        self.components = components
    }

    private static func add(_ part: Range<Int>, of bytes: [UInt8], to components: inout [Range<Int>]) {
        let dot = UInt8(ascii: ".")
        if part.isEmpty || (part.count == 1 && bytes[part.lowerBound] == dot) { return }
        if part.count == 2, bytes[part.lowerBound] == dot, bytes[part.lowerBound + 1] == dot {
            if !components.isEmpty { components.removeLast() }
            return
        }
        components.append(part)
    }
}

/// Whether `lhs` sorts before `rhs` by their UTF-8 bytes, as `lhs.utf8.lexicographicallyPrecedes(rhs.utf8)`
/// decides, compared in place with `memcmp` (a folder's names mostly share a long prefix, such as
/// `calendar-02`, which a byte-by-byte walk of the UTF-8 views would go through again for each pair).
func precedesByBytes(_ lhs: String, _ rhs: String) -> Bool {
    let order = lhs.utf8.withContiguousStorageIfAvailable { left in
        rhs.utf8.withContiguousStorageIfAvailable { right -> Bool in
            let common = min(left.count, right.count)
            let sign = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
            return sign != 0 ? sign < 0 : left.count < right.count
        }
    }
    if let order = order ?? nil { return order }
    return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
}

extension BatchInput {
    /// Why a calendar that a batch reads on its own (a file of a folder, a JSON Lines record by
    /// path or by bytes, a Spark row) is no calendar: its one input, not part of a collection, is
    /// empty or its text does not start as iCalendar's (``CalendarSniff``). `nil` when it is one,
    /// or when it cannot be looked at before the import (standard input, a file that cannot be
    /// opened: the import says why). One rule for every way in (issue 49.1: junk, an empty file, a
    /// vCard and a link to /etc/passwd were people with no activity, the link's lines in the report).
    static func refusal(of sources: [CalendarSource]) -> String? {
        guard sources.count == 1, let source = sources.first, source.collection == nil else { return nil }
        let verdict: CalendarSniff.Verdict?
        switch source.content {
        case .file(let path): verdict = CalendarSniff.regularFileVerdict(atPath: path)
        case .bytes(let bytes): verdict = CalendarSniff.verdict(Array(bytes.prefix(4_096)))
        case .standardInput, .unreadable: verdict = nil
        }
        let reason: String
        switch verdict {
        case .notACalendar(let why)?: reason = why
        case .empty?: reason = emptyFile
        case .calendar?, nil: return nil
        }
        // Said of a file as every file that cannot be read is.
        guard case .file = source.content else { return reason }
        return String(describing: CalendarReadError(path: source.name, code: .notACalendar, reason: reason))
    }

    /// Why an empty (or blank) calendar read on its own is refused.
    static let emptyFile = "not an iCalendar file (it is empty)"
}
