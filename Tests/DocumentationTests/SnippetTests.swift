import Foundation
import Testing

/// The package's snippets (`Snippets/*.swift`), which the DocC articles and the README show: each
/// is built by `swift build`, runs without error and prints exactly what its `// Prints` comments say.
@Suite("Documentation snippets")
struct SnippetTests {
    @Test func thereAreSnippets() {
        #expect(Snippet.all.count >= 10)
    }

    @Test(arguments: Snippet.all)
    func printsWhatItSays(_ snippet: Snippet) throws {
        let expected = snippet.expectedOutput
        #expect(!expected.isEmpty, "\(snippet.name) says nothing of what it prints")
        let run = try SnippetRun(snippet)
        #expect(!run.timedOut, "\(snippet.name) did not finish")
        #expect(run.status == 0, "\(snippet.name) exited with \(run.status): \(run.standardError)")
        #expect(run.standardError.isEmpty, "\(snippet.name) wrote to standard error: \(run.standardError)")
        var printed = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if printed.last == "" { printed.removeLast() }
        #expect(printed == expected)
    }

    /// The comments name things as the tests read them: a `// Prints` line the parser would skip
    /// (a typo such as `// Prints 5` or `// prints "5"`) would leave output unchecked.
    @Test(arguments: Snippet.all)
    func everyPrintsCommentIsRead(_ snippet: Snippet) {
        for line in snippet.source.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.lowercased().hasPrefix("// prints") else { continue }
            #expect(trimmed == "// Prints:" || trimmed.hasPrefix("// Prints \""), "\(snippet.name): \(trimmed)")
        }
    }

    /// Examples need no `import Foundation` unless they show it: a snippet that does not import
    /// Foundation compiles without it, so the import-free examples are held to that by the build.
    /// This checks the other half: the examples that import Foundation say why.
    @Test(arguments: Snippet.all.filter { $0.source.contains("import Foundation") })
    func foundationImportIsExplained(_ snippet: Snippet) {
        let header = snippet.source.split(separator: "\n").prefix { $0.hasPrefix("//") }.joined(separator: " ")
        #expect(header.contains("Foundation"), "\(snippet.name) imports Foundation without saying why")
    }
}
