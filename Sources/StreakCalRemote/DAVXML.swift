/// The XML of WebDAV and CalDAV responses (RFC 4918 §14, RFC 4791 §9), read into a small tree
/// with namespaces resolved: enough for a `multistatus`, nothing more.
///
/// Elements, attributes, text, character and the five predefined entity references, CDATA,
/// comments and processing instructions are read. A document type declaration is refused, so no
/// entity is ever expanded (the "billion laughs"), and nesting deeper than ``maximumDepth`` is an
/// error. What a server's answer costs is bounded by its size:
/// - time: linear in the answer (each namespace declaration is pushed and popped once, never the
///   whole table copied per element);
/// - memory: only the elements StreakCal reads (``readNames``, and the root) are kept in the
///   tree; any other element, with all it holds, is checked and passed over. The elements kept
///   are at most one per 32 bytes of the answer (``maximumKeptElements(forAnswerOf:)``), so that
///   a flood of them is an error rather than twenty times the answer in memory.
package struct DAVElement: Equatable, Sendable {
    /// The namespace URI (`DAV:`, `urn:ietf:params:xml:ns:caldav`) and the local name.
    package var namespace: String
    package var name: String
    package var attributes: [String: String] = [:]
    package var children: [DAVElement] = []
    /// The text directly inside the element, its pieces joined.
    package var text = ""

    package static let dav = "DAV:"
    package static let calDAV = "urn:ietf:params:xml:ns:caldav"
    package static let maximumDepth = 64

    /// The local names of the elements the CalDAV client reads (in `DAV:` and CalDAV's namespace);
    /// others are passed over unkept.
    package static let readNames: Set<String> = [
        "multistatus", "response", "href", "propstat", "prop", "status", "resourcetype", "collection", "calendar", "displayname",
        "current-user-principal", "calendar-home-set", "supported-calendar-component-set", "comp", "getetag", "calendar-data",
        "sync-token", "error", "valid-sync-token",
    ]

    /// The most elements kept of an answer of `count` bytes: one per 32 bytes, and a thousand.
    package static func maximumKeptElements(forAnswerOf count: Int) -> Int {
        count / 32 + 1_000
    }

    /// The first child named `name` in `namespace`.
    package func child(_ name: String, in namespace: String = dav) -> DAVElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// Every child named `name` in `namespace`.
    package func children(_ name: String, in namespace: String = dav) -> [DAVElement] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    /// Whether the element is `name` in `namespace`.
    package func isNamed(_ name: String, in namespace: String = dav) -> Bool {
        self.name == name && self.namespace == namespace
    }

    package struct SyntaxError: Error {
        package var reason: String
    }

    /// Reads a document's root element; `isPastDeadline` is asked now and then, and ends the
    /// reading with an error when it says so (a download's time limit holds while its answer is read).
    package static func parse(_ bytes: [UInt8], isPastDeadline: () -> Bool = { false }) throws(SyntaxError) -> DAVElement {
        try withoutActuallyEscaping(isPastDeadline) { (isPastDeadline) throws(SyntaxError) in
            var reader = DAVXMLReader(bytes: bytes, isPastDeadline: isPastDeadline)
            return try reader.document()
        }
    }
}

/// A recursive-descent reader over the bytes of one document.
private struct DAVXMLReader {
    let bytes: [UInt8]
    let isPastDeadline: () -> Bool
    var position = 0
    /// Each prefix's namespaces, innermost last: a declaration is pushed where its element starts
    /// and popped where it ends.
    var namespaces: [String: [String]] = ["xml": ["http://www.w3.org/XML/1998/namespace"]]
    /// Elements kept so far, and how many may be.
    var kept = 0
    let maximumKept: Int
    /// Elements read so far (kept or not), for looking at the deadline now and then.
    var read = 0

    init(bytes: [UInt8], isPastDeadline: @escaping () -> Bool) {
        self.bytes = bytes
        self.isPastDeadline = isPastDeadline
        maximumKept = DAVElement.maximumKeptElements(forAnswerOf: bytes.count)
    }

    mutating func document() throws(DAVElement.SyntaxError) -> DAVElement {
        try skipMisc()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else { throw fail("no root element") }
        guard let root = try element(depth: 1, isRoot: true) else { throw fail("no root element") }
        try skipMisc()
        guard position == bytes.count else { throw fail("text after the root element") }
        return root
    }

    /// Skips white space, comments and processing instructions (the XML declaration among them).
    private mutating func skipMisc() throws(DAVElement.SyntaxError) {
        while true {
            skipSpace()
            if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<!DOCTYPE") || starts(with: "<!doctype") {
                throw fail("a document type declaration is not accepted")
            } else {
                return
            }
        }
    }

    /// One element from its `<` to the end of its end tag; `nil` for one that is not kept (its
    /// whole content read and checked, nothing of it stored).
    private mutating func element(depth: Int, isRoot: Bool = false) throws(DAVElement.SyntaxError) -> DAVElement? {
        guard depth <= DAVElement.maximumDepth else { throw fail("elements nested deeper than \(DAVElement.maximumDepth)") }
        read += 1
        if read % 4096 == 0, isPastDeadline() { throw DAVElement.SyntaxError(reason: "reading the answer took longer than the time allowed") }
        position += 1
        let qualifiedName = try name()
        let (rawAttributes, isEmpty) = try attributes(of: qualifiedName)
        let declared = declare(rawAttributes)
        defer { undeclare(declared) }
        let localName = Self.split(qualifiedName).local
        let keeps = isRoot || DAVElement.readNames.contains(localName)
        var result: DAVElement?
        if keeps {
            kept += 1
            guard kept <= maximumKept else { throw fail("the answer holds more elements than \(maximumKept), more than a WebDAV answer of its size needs") }
            var element = try resolved(qualifiedName)
            for (attribute, value) in rawAttributes where attribute != "xmlns" && !attribute.hasPrefix("xmlns:") {
                element.attributes[Self.split(attribute).local] = value
            }
            result = element
        }
        if isEmpty { return result }
        try content(of: qualifiedName, into: &result, depth: depth)
        return result
    }

    /// An element's content up to and including its end tag: children (kept ones added to
    /// `element`), text (added when it is kept), comments, CDATA and instructions.
    private mutating func content(of qualifiedName: String, into element: inout DAVElement?, depth: Int) throws(DAVElement.SyntaxError) {
        while true {
            guard position < bytes.count else { throw fail("the document ends inside <\(qualifiedName)>") }
            if starts(with: "</") {
                position += 2
                let closing = try name()
                skipSpace()
                guard closing == qualifiedName, position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                    throw fail("</\(closing)> closes <\(qualifiedName)>")
                }
                position += 1
                return
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                position += 9
                let start = position
                try skip(past: "]]>")
                element?.text += String(decoding: bytes[start..<(position - 3)], as: UTF8.self)
            } else if starts(with: "<?") {
                try skip(past: "?>")
            } else if bytes[position] == UInt8(ascii: "<") {
                if let child = try self.element(depth: depth + 1) { element?.children.append(child) }
            } else {
                let text = try characters(keeping: element != nil)
                element?.text += text
            }
        }
    }

    /// A start tag's attributes (after its name) and whether it is empty (`/>`).
    private mutating func attributes(of qualifiedName: String) throws(DAVElement.SyntaxError) -> ([(String, String)], Bool) {
        var attributes: [(String, String)] = []
        while true {
            skipSpace()
            guard position < bytes.count else { throw fail("the document ends inside <\(qualifiedName)>") }
            if starts(with: "/>") { position += 2; return (attributes, true) }
            if bytes[position] == UInt8(ascii: ">") { position += 1; return (attributes, false) }
            let attribute = try name()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { throw fail("no value for the attribute \(attribute)") }
            position += 1
            skipSpace()
            attributes.append((attribute, try quoted()))
        }
    }

    /// Pushes the namespace declarations among `attributes`; the prefixes declared (`""` for the default).
    private mutating func declare(_ attributes: [(String, String)]) -> [String] {
        var declared: [String] = []
        for (attribute, value) in attributes {
            let prefix: String
            if attribute == "xmlns" { prefix = "" } else if attribute.hasPrefix("xmlns:") { prefix = String(attribute.dropFirst(6)) } else { continue }
            namespaces[prefix, default: []].append(value)
            declared.append(prefix)
        }
        return declared
    }

    private mutating func undeclare(_ prefixes: [String]) {
        for prefix in prefixes { namespaces[prefix]?.removeLast() }
    }

    /// A name's namespace from the prefixes in scope.
    private func resolved(_ qualifiedName: String) throws(DAVElement.SyntaxError) -> DAVElement {
        let (prefix, local) = Self.split(qualifiedName)
        if let prefix {
            guard let namespace = namespaces[prefix]?.last else { throw fail("the prefix \(prefix) is not declared") }
            return DAVElement(namespace: namespace, name: local)
        }
        return DAVElement(namespace: namespaces[""]?.last ?? "", name: qualifiedName)
    }

    /// A qualified name's prefix (before its first `:` byte) and local name: split by bytes, as
    /// XML names are (a `:` followed by a combining mark is one `Character` in Swift).
    private static func split(_ qualifiedName: String) -> (prefix: String?, local: String) {
        let utf8 = qualifiedName.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return (nil, qualifiedName) }
        return (String(decoding: utf8[..<colon], as: UTF8.self), String(decoding: utf8[utf8.index(after: colon)...], as: UTF8.self))
    }

    /// Text up to the next `<`, references replaced; checked but not made when not `keeping`.
    private mutating func characters(keeping: Bool) throws(DAVElement.SyntaxError) -> String {
        var text: [UInt8] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            if bytes[position] == UInt8(ascii: "&") {
                let decoded = try reference()
                if keeping { text += decoded }
            } else {
                if keeping { text.append(bytes[position]) }
                position += 1
            }
        }
        return keeping ? String(decoding: text, as: UTF8.self) : ""
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` or `&#xN;` as UTF-8.
    private mutating func reference() throws(DAVElement.SyntaxError) -> [UInt8] {
        guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { throw fail("an unfinished reference") }
        let body = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        switch body {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        let number: UInt32?
        if body.hasPrefix("#x") { number = UInt32(body.dropFirst(2), radix: 16) } else if body.hasPrefix("#") { number = UInt32(body.dropFirst()) } else { number = nil }
        guard let number, let scalar = Unicode.Scalar(number) else { throw fail("the reference &\(body); is not one XML defines") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func quoted() throws(DAVElement.SyntaxError) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw fail("an attribute value without quotes")
        }
        let quote = bytes[position]
        position += 1
        var value: [UInt8] = []
        while position < bytes.count, bytes[position] != quote {
            if bytes[position] == UInt8(ascii: "&") { value += try reference() } else { value.append(bytes[position]); position += 1 }
        }
        guard position < bytes.count else { throw fail("an attribute value without its closing quote") }
        position += 1
        return String(decoding: value, as: UTF8.self)
    }

    private mutating func name() throws(DAVElement.SyntaxError) -> String {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: " ")
                || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "<") {
                break
            }
            position += 1
        }
        guard position > start else { throw fail("a name is missing") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { bytes[position..<(position + count)].elementsEqual($0) }
    }

    private mutating func skip(past terminator: StaticString) throws(DAVElement.SyntaxError) {
        while position < bytes.count {
            if starts(with: terminator) {
                position += terminator.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw fail("the document ends inside a comment, CDATA section or instruction")
    }

    private func fail(_ reason: String) -> DAVElement.SyntaxError {
        DAVElement.SyntaxError(reason: "\(reason) (at byte \(position))")
    }
}
