@testable import ICalendar
import Testing

/// What `LineCheck.forWriting` must give, scalar by scalar: control characters (other than tab)
/// replaced by U+FFFD, lowercase ASCII letters in the name in capitals, the rest as it is.
private func expectedForWriting(_ text: String, nameLength: Int) -> (String, Bool) {
    var scalars = String.UnicodeScalarView()
    var replaced = false
    for (index, scalar) in text.unicodeScalars.enumerated() {
        if scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F {
            scalars.append("\u{FFFD}")
            replaced = true
        } else if index < nameLength, ("a"..."z").contains(scalar) {
            scalars.append(Unicode.Scalar(scalar.value - 0x20)!)
        } else {
            scalars.append(scalar)
        }
    }
    return (String(scalars), replaced)
}

@Suite("Lines as the annotated copy writes them")
struct LineCheckWritingTests {
    @Test("A line that needs nothing changed (the byte check) and one that does give what the scalar walk gives",
          arguments: [
              ("SUMMARY:Run", 7), ("summary:Run", 7), ("X-Points:5", 8), ("SUMMARY:a\u{1}b", 7), ("SUMMARY:tab\there", 7),
              ("SUMMARY:del\u{7F}", 7), ("SUMMÄRY:x", 7), ("DTSTART:20240101T090000Z", 7), ("UID:ü-ß-日本", 3), ("", 0),
              ("X-É\u{301}:e\u{301}", 4), ("DESCRIPTION:a\r", 11),
          ])
    func knownLines(text: String, nameLength: Int) {
        let (written, replaced) = LineCheck.forWriting(Substring(text), nameLength: nameLength)
        let expected = expectedForWriting(text, nameLength: nameLength)
        #expect(written == expected.0)
        #expect(replaced == expected.1)
    }

    @Test("Random lines of ASCII, controls, accents and CJK give what the scalar walk gives", arguments: 0..<20)
    func randomLines(seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        let pieces: [String] = ["A", "z", "-", "1", ":", ";", "=", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "e\u{301}", "日", "😀", " ", "\\"]
        for _ in 0..<200 {
            let text = (0..<next(24)).map { _ in pieces[next(pieces.count)] }.joined()
            let nameLength = next(text.unicodeScalars.count + 1)
            let (written, replaced) = LineCheck.forWriting(Substring(text), nameLength: nameLength)
            let expected = expectedForWriting(text, nameLength: nameLength)
            #expect(written == expected.0, "\(text.debugDescription) name length \(nameLength)")
            #expect(replaced == expected.1)
        }
    }
}
