import StreakCal
import Foundation

/// The login and password `~/.netrc` gives a host, as curl and git read the file: `machine HOST`
/// entries with `login` and `password`, a `default` entry for any other host, `macdef` bodies
/// passed over; tokens separated by white space, `"quoted"` where they hold any.
struct Netrc: Sendable {
    struct Login: Equatable, Sendable {
        var user: String
        var password: String
    }

    /// The entries in the order written; `nil` machine for `default`.
    private var entries: [(machine: String?, login: Login)] = []

    /// The file at `path`; none when `path` is `nil` (the library reads no `~/.netrc` of its own:
    /// `streakcal` names it) or the file does not exist or cannot be read.
    init(path: String?) {
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            self.init(text: "")
            return
        }
        self.init(text: text)
    }

    init(text: String) {
        var tokens = Self.tokens(text).makeIterator()
        var machine: String?? = .none
        var user: String?, password: String?
        func finish() {
            if case .some(let name) = machine, let user {
                entries.append((name, Login(user: user, password: password ?? "")))
            }
            machine = .none
            user = nil
            password = nil
        }
        while let token = tokens.next() {
            switch token {
            case "machine": finish(); machine = .some(tokens.next()?.lowercased() ?? "")
            case "default": finish(); machine = .some(nil)
            case "login": user = tokens.next()
            case "password": password = tokens.next()
            case "macdef": finish(); Self.skipMacro(&tokens)
            default: break
            }
        }
        finish()
    }

    /// The login for `host`: its `machine` entry, else the `default` one.
    func login(for host: String) -> Login? {
        let host = host.lowercased()
        return entries.first(where: { $0.machine == host })?.login ?? entries.first(where: { $0.machine == nil })?.login
    }

    /// The file's tokens; a `macdef`'s body ends at an empty line, which is kept as an empty token.
    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                tokens.append("")
                continue
            }
            var current = "", quoted = false, escaped = false, hasToken = false
            for character in line {
                if escaped { current.append(character); escaped = false; continue }
                switch character {
                case "\\" where quoted: escaped = true
                case "\"": quoted.toggle(); hasToken = true
                case " ", "\t", "\r":
                    if quoted { current.append(character); continue }
                    if hasToken || !current.isEmpty { tokens.append(current) }
                    current = ""
                    hasToken = false
                default: current.append(character)
                }
            }
            if hasToken || !current.isEmpty { tokens.append(current) }
        }
        return tokens
    }

    /// Passes over a macro definition: its name, then every token up to the empty line that ends it.
    private static func skipMacro(_ tokens: inout IndexingIterator<[String]>) {
        _ = tokens.next()
        while let token = tokens.next(), !token.isEmpty {}
    }
}
