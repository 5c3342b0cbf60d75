/// A place in a source file: the file's name, a 1-based line and a 1-based column.
public struct SourceLocation: Hashable, Sendable, Codable {
    /// The file's name as the user gave it (`-` for standard input).
    public var file: String
    /// The 1-based physical line.
    public var line: Int
    /// The 1-based column (in characters), or 1 for a whole line.
    public var column: Int

    public init(file: String, line: Int, column: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
    }
}

extension SourceLocation: CustomStringConvertible {
    /// `file:line:column`, the form compilers print.
    public var description: String { "\(file):\(line):\(column)" }
}
