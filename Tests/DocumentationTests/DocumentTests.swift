import Foundation
import Testing

/// The README's and the articles' examples are snippets, so they compile and are run (`SnippetTests`);
/// these tests hold the documents to that, and their links to files that exist.
@Suite("Documentation documents")
struct DocumentTests {
    /// Every ```swift block of the README, verbatim in some snippet: an example cannot rot while
    /// the snippets build and print what they say.
    @Test func readmeExamplesAreSnippets() throws {
        let blocks = swiftBlocks(in: try text(of: "README.md"))
        #expect(!blocks.isEmpty)
        for block in blocks {
            #expect(Snippet.all.contains { $0.source.contains(block) }, "README example is in no snippet:\n\(block)")
        }
    }

    /// Every ```swift block of the DocC articles, verbatim in some snippet, as for the README (the
    /// articles show most snippets whole, after a `<!-- Snippets/NAME.swift, whole ... -->` line).
    @Test func articleExamplesAreSnippets() throws {
        for article in try catalogArticles() {
            for block in swiftBlocks(in: try String(contentsOf: article, encoding: .utf8)) {
                #expect(Snippet.all.contains { $0.source.contains(block) }, "\(article.lastPathComponent) example is in no snippet:\n\(block)")
            }
        }
    }

    /// Every snippet an article shows whole is in this package, and the block after its marker is
    /// the snippet's file exactly: the articles carry their code as code blocks, which a code host
    /// shows (an `@Snippet` directive shows nothing there), and cannot drift from what is run.
    @Test func articleSnippetsExist() throws {
        let sources = Dictionary(uniqueKeysWithValues: Snippet.all.map { ($0.name, $0.source) })
        let shown = try catalogSnippetBlocks()
        #expect(shown.count >= 15)
        for (article, name, block) in shown {
            let source = try #require(sources[name], "\(article) shows Snippets/\(name).swift, which does not exist")
            #expect(block + "\n" == source, "\(article): the block after Snippets/\(name).swift's marker differs from the file")
        }
    }

    /// No article shows code through `@Snippet`, which code hosts show as nothing.
    @Test func articlesUseNoSnippetDirectives() throws {
        for article in try catalogArticles() {
            #expect(!(try String(contentsOf: article, encoding: .utf8)).contains("@Snippet("), "\(article.lastPathComponent)")
        }
    }

    /// Every snippet is shown somewhere: in an article, or as a README example.
    @Test func everySnippetIsShown() throws {
        let referenced = Set(try catalogSnippetReferences())
        let readmeBlocks = swiftBlocks(in: try text(of: "README.md"))
        for snippet in Snippet.all {
            let shown = referenced.contains(snippet.name) || readmeBlocks.contains { snippet.source.contains($0) }
            #expect(shown, "Snippets/\(snippet.name).swift is in no article and not in the README")
        }
    }

    /// Relative links of the README, the CHANGELOG and `docs/` lead to files or folders that exist.
    @Test(arguments: ["README.md", "CHANGELOG.md", "docs/design.md", "docs/performance.md", "docs/robustness.md", "docs/command-line.md"])
    func relativeLinksResolve(_ document: String) throws {
        let base = repositoryRoot.appendingPathComponent(document).deletingLastPathComponent()
        let links = markdownLinks(in: try text(of: document)).filter { !$0.contains("://") && !$0.hasPrefix("#") && !$0.hasPrefix("mailto:") }
        for link in links {
            let path = String(link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
            guard !path.isEmpty else { continue }
            #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path), "\(document) links to \(link), which does not exist")
        }
    }

    /// The README stays a front page: under 200 lines, the details in `docs/` and the articles.
    @Test func readmeIsShort() throws {
        let lines = try text(of: "README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 200, "README.md has \(lines) lines")
    }
}

/// A file of the repository as text.
func text(of path: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
}

/// The contents of the fenced ```swift blocks of a Markdown text, without the fences.
func swiftBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
            current = []
        } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
            blocks.append(current!.joined(separator: "\n"))
            current = nil
        } else if current != nil {
            current!.append(line)
        }
    }
    return blocks
}

/// The targets of the inline links of a Markdown text (`[text](target)`), outside code blocks.
func markdownLinks(in markdown: String) -> [String] {
    var links: [String] = []
    var inCode = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
            inCode.toggle()
            continue
        }
        guard !inCode else { continue }
        var rest = line[...]
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            links.append(String(after[..<close]))
            rest = after[close...]
        }
    }
    return links
}

/// The Markdown files of the package's DocC catalogs (`Sources/*/*.docc`).
func catalogArticles() throws -> [URL] {
    let sources = repositoryRoot.appendingPathComponent("Sources")
    guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
    return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "md" && $0.path.contains(".docc/") }
        .sorted { $0.path < $1.path }
}

/// The snippet names the package's DocC articles show whole.
func catalogSnippetReferences() throws -> [String] {
    try catalogSnippetBlocks().map(\.name)
}

/// The snippets the DocC articles show whole: each a `<!-- Snippets/NAME.swift, whole ... -->`
/// line followed by a ```swift block; the article's file name, the snippet's name and the block.
func catalogSnippetBlocks() throws -> [(article: String, name: String, block: String)] {
    var found: [(article: String, name: String, block: String)] = []
    let prefix = "<!-- Snippets/"
    for url in try catalogArticles() {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.hasPrefix(prefix) {
            guard let end = line.range(of: ".swift, whole") else { continue }
            let name = String(line[line.index(line.startIndex, offsetBy: prefix.count)..<end.lowerBound])
            guard index + 1 < lines.count, lines[index + 1] == "```swift",
                  let close = lines[(index + 2)...].firstIndex(of: "```") else {
                found.append((url.lastPathComponent, name, "(no ```swift block after the marker)"))
                continue
            }
            found.append((url.lastPathComponent, name, lines[(index + 2)..<close].joined(separator: "\n")))
        }
    }
    return found
}
