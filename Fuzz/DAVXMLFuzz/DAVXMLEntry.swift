#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StreakCalRemote

/// libFuzzer's entry point for WebDAV answers (`DAVElement`, the reader of every multistatus a
/// CalDAV server sends): any bytes either read or fail with a syntax error, and what is read keeps
/// the reader's promises:
/// - no more elements kept than one per 32 bytes (and a thousand), none nested deeper than 64;
/// - the tree written out again as XML reads back as the same tree (namespaces, names,
///   attributes, text), so that prefixes, entity references and CDATA were understood.
///
/// A broken promise prints what broke and aborts, so that libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let root = try? DAVElement.parse(bytes) else { return 0 }
    let (count, depth) = measure(root)
    if count > DAVElement.maximumKeptElements(forAnswerOf: size) { fail("\(count) elements kept of \(size) bytes") }
    if depth > DAVElement.maximumDepth { fail("elements kept \(depth) deep") }
    let written = Array(xml(root).utf8)
    do {
        let again = try DAVElement.parse(written)
        if again != root { fail("the tree written out reads back otherwise:\n\(String(decoding: written, as: UTF8.self))") }
    } catch {
        fail("the tree written out does not read back (\(error.reason)):\n\(String(decoding: written, as: UTF8.self))")
    }
    return 0
}

/// Elements in the tree, and how deep it goes.
private func measure(_ element: DAVElement) -> (count: Int, depth: Int) {
    var count = 1, depth = 0
    for child in element.children {
        let inner = measure(child)
        count += inner.count
        depth = max(depth, inner.depth)
    }
    return (count, depth + 1)
}

/// The element as XML: each with its namespace declared on itself (prefix `n`), its attributes
/// prefixed (`a:`, so that one named `xmlns` stays an attribute; the reader keeps an attribute by
/// its local name), its text escaped first, then its children.
private func xml(_ element: DAVElement) -> String {
    var text = "<n:\(element.name) xmlns:n=\"\(escaped(element.namespace))\" xmlns:a=\"urn:attributes\""
    for (name, value) in element.attributes.sorted(by: { $0.key < $1.key }) {
        text += " a:\(name)=\"\(escaped(value))\""
    }
    text += ">" + escaped(element.text)
    for child in element.children { text += xml(child) }
    return text + "</n:\(element.name)>"
}

/// Text with `&`, `<`, `>`, quotes and CR as references (a CR would otherwise stay as it is, but
/// spelled out it shows in a failure's print).
private func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "\r": result += "&#13;"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result
}

private func fail(_ message: String) -> Never {
    let line = Array("streakcal-fuzz-dav-xml: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    abort()
}
