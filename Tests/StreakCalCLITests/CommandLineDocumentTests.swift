import Foundation
import Testing

/// The examples of docs/command-line.md are run (issue 33: one showed 25 marks where the binary
/// prints 26): every `$ streakcal ...` line of a plain code block, with the lines after it (up to
/// the next `$ ` or the block's end) as what it prints: standard error then standard output, as a
/// terminal shows them, or standard output only after `2>/dev/null`. Each example gives its days
/// (`--to`, `--on`), so that its output does not depend on today's date.
@Suite("docs/command-line.md examples")
struct CommandLineDocumentTests {
    struct Example: CustomTestStringConvertible {
        var command: String
        var output: String
        var testDescription: String { command }
    }

    static let examples: [Example] = {
        guard let text = try? String(contentsOf: repositoryRoot.appendingPathComponent("docs/command-line.md"), encoding: .utf8) else { return [] }
        var examples: [Example] = []
        var inBlock = false
        var current: Example?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let example = current { examples.append(example) }
                current = nil
                inBlock = line == "```" ? !inBlock : false
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ streakcal ") {
                if let example = current { examples.append(example) }
                current = Example(command: String(line.dropFirst(2)), output: "")
            } else if line.hasPrefix("$ ") {
                if let example = current { examples.append(example) }
                current = nil
            } else if current != nil {
                current!.output += line + "\n"
            }
        }
        return examples.map { example in
            var trimmed = example
            while trimmed.output.hasSuffix("\n\n") { trimmed.output.removeLast() }
            return trimmed
        }
    }()

    /// A command's words as a shell splits them: at spaces, except inside single quotes
    /// (`--period-goal '7 days:3 days'`), which are taken off.
    static func words(of command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false
        var started = false
        for character in command {
            if character == "'" {
                quoted.toggle()
                started = true
            } else if character == " ", !quoted {
                if started { words.append(word) }
                (word, started) = ("", false)
            } else {
                word.append(character)
                started = true
            }
        }
        if started { words.append(word) }
        return words
    }

    @Test func thereAreExamples() {
        #expect(Self.examples.count >= 3)
    }

    @Test(arguments: examples)
    func printsWhatTheDocumentSays(_ example: Example) throws {
        var words = Self.words(of: example.command)
        let quiet = words.last == "2>/dev/null"
        if quiet { words.removeLast() }
        #expect(words.first == "streakcal")
        #expect(words.contains("--to") || words.contains("--on"), "an example must give its days: \(example.command)")
        let result = try run(try streakcalPath(), Array(words.dropFirst()), currentDirectory: repositoryRoot.path)
        let shown = (quiet ? "" : result.standardError) + result.standardOutput
        #expect(shown == example.output, "\(example.command)")
    }
}
