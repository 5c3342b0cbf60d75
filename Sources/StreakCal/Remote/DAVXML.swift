/// The XML of WebDAV and CalDAV responses (RFC 4918 §14, RFC 4791 §9), read into a small tree
/// with namespaces resolved: enough for a `multistatus`, nothing more.
///
/// Elements, attributes, text, character and the five predefined entity references, CDATA,
/// comments and processing instructions are read. A document type declaration is refused, so no
/// entity is ever expanded (the "billion laughs"), and nesting deeper than ``maximumDepth`` is an
/// error: a server's answer never runs unbounded. The document's size is bounded by the download's.
struct DAVElement: Equatable {
    /// The namespace URI (`DAV:`, `urn:ietf:params:xml:ns:caldav`) and the local name.
    var namespace: String
    var name: String
    var attributes: [String: String] = [:]
    var children: [DAVElement] = []
    /// The text directly inside the element, its pieces joined.
    var text = ""

    static let dav = "DAV:"
    static let calDAV = "urn:ietf:params:xml:ns:caldav"
    static let maximumDepth = 64

    /// The first child named `name` in `namespace`.
    func child(_ name: String, in namespace: String = dav) -> DAVElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// Every child named `name` in `namespace`.
    func children(_ name: String, in namespace: String = dav) -> [DAVElement] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    /// Whether the element is `name` in `namespace`.
    func isNamed(_ name: String, in namespace: String = dav) -> Bool {
        self.name == name && self.namespace == namespace
    }

    struct SyntaxError: Error {
        var reason: String
    }

    /// Reads a document's root element.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> DAVElement {
        var reader = DAVXMLReader(bytes: bytes)
        return try reader.document()
    }
}

/// A recursive-descent reader over the bytes of one document.
private struct DAVXMLReader {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func document() throws(DAVElement.SyntaxError) -> DAVElement {
        try skipMisc()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else { throw fail("no root element") }
        let root = try element(scopes: [["xml": "http://www.w3.org/XML/1998/namespace"]], depth: 1)
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

    /// One element from its `<` to the end of its end tag.
    private mutating func element(scopes: [[String: String]], depth: Int) throws(DAVElement.SyntaxError) -> DAVElement {
        guard depth <= DAVElement.maximumDepth else { throw fail("elements nested deeper than \(DAVElement.maximumDepth)") }
        position += 1
        let qualifiedName = try name()
        var rawAttributes: [(String, String)] = []
        var isEmpty = false
        while true {
            skipSpace()
            guard position < bytes.count else { throw fail("the document ends inside <\(qualifiedName)>") }
            if starts(with: "/>") { position += 2; isEmpty = true; break }
            if bytes[position] == UInt8(ascii: ">") { position += 1; break }
            let attribute = try name()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { throw fail("no value for the attribute \(attribute)") }
            position += 1
            skipSpace()
            rawAttributes.append((attribute, try quoted()))
        }
        var scope = scopes.last ?? [:]
        for (attribute, value) in rawAttributes {
            if attribute == "xmlns" { scope[""] = value } else if attribute.hasPrefix("xmlns:") { scope[String(attribute.dropFirst(6))] = value }
        }
        var result = try resolved(qualifiedName, in: scope)
        for (attribute, value) in rawAttributes where attribute != "xmlns" && !attribute.hasPrefix("xmlns:") {
            result.attributes[attribute.split(separator: ":").last.map(String.init) ?? attribute] = value
        }
        if isEmpty { return result }
        let inner = scopes + [scope]
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
                return result
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                position += 9
                let start = position
                try skip(past: "]]>")
                result.text += String(decoding: bytes[start..<(position - 3)], as: UTF8.self)
            } else if starts(with: "<?") {
                try skip(past: "?>")
            } else if bytes[position] == UInt8(ascii: "<") {
                result.children.append(try element(scopes: inner, depth: depth + 1))
            } else {
                result.text += try characters()
            }
        }
    }

    /// A name's namespace from the scope of prefixes; an unprefixed attribute has none.
    private func resolved(_ qualifiedName: String, in scope: [String: String]) throws(DAVElement.SyntaxError) -> DAVElement {
        let parts = qualifiedName.split(separator: ":", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            guard let namespace = scope[parts[0]] else { throw fail("the prefix \(parts[0]) is not declared") }
            return DAVElement(namespace: namespace, name: parts[1])
        }
        return DAVElement(namespace: scope[""] ?? "", name: qualifiedName)
    }

    /// Text up to the next `<`, references replaced.
    private mutating func characters() throws(DAVElement.SyntaxError) -> String {
        var text: [UInt8] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            if bytes[position] == UInt8(ascii: "&") {
                text += try reference()
            } else {
                text.append(bytes[position])
                position += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` or `&#xN;` as UTF-8.
    private mutating func reference() throws(DAVElement.SyntaxError) -> [UInt8] {
        guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { throw fail("an unfinished reference") }
        let body = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        let named = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
        if let text = named[body] { return Array(text.utf8) }
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
