import Foundation
import Streaks

/// The part of an annotation's UID that names its calendar or habit: ASCII lower-case letters,
/// digits and hyphens, never empty, at most ``maximumLength`` characters.
///
/// Letters lose their accents (`Übung` is `ubung`), other characters become hyphens, and runs of
/// hyphens become one. A name with letters that have no ASCII form (`日本語`), or one too long to
/// keep whole, ends in a hash of the whole name, so that such names stay apart; a name with no
/// letter or digit at all is `calendar`. Several calendars read as one are named by all of theirs,
/// sorted and without repeats, joined by `--` (which one name never gives), whatever their order
/// on the command line.
///
/// ```swift
/// print(CalendarSlug(name: "Piano Practice!"))
/// print(CalendarSlug(names: ["Running", "Piano"]))
/// print(CalendarSlug(name: "日本語"))
/// // Prints "piano-practice", "piano--running" and "calendar-" followed by 8 hexadecimal digits
/// ```
public struct CalendarSlug: Hashable, Sendable {
    /// The slug.
    public let text: String

    /// The most characters of a slug.
    public static let maximumLength = 40
    /// The slug of a name with no letter or digit.
    public static let fallback = "calendar"

    /// The slug of one calendar's (or habit's) name.
    ///
    /// ```swift
    /// print(CalendarSlug(name: "  Übung & Straße  ").text)
    /// // Prints "ubung-strasse"
    /// ```
    public init(name: String) {
        self.init(names: [name])
    }

    /// The slug of calendars read as one: every distinct name's, sorted, joined by `--`; `calendar`
    /// for none.
    ///
    /// ```swift
    /// print(CalendarSlug(names: ["Swim", "Run", "Swim"]).text, CalendarSlug(names: []).text)
    /// // Prints "run--swim calendar"
    /// ```
    public init(names: [String]) {
        let distinct = Array(Set(names)).sorted()
        var parts: [String] = []
        var lossy = false
        for name in distinct {
            let (part, lost) = Self.asciiSlug(name)
            lossy = lossy || lost
            if !part.isEmpty, !parts.contains(part) { parts.append(part) }
        }
        var text = parts.sorted().joined(separator: "--")
        if text.isEmpty { text = Self.fallback }
        if lossy || text.count > Self.maximumLength {
            let hash = Self.hash(distinct.joined(separator: "\n"))
            var kept = String(text.prefix(Self.maximumLength - hash.count - 1))
            while kept.hasSuffix("-") { kept.removeLast() }
            text = (kept.isEmpty ? Self.fallback : kept) + "-" + hash
        }
        self.text = text
    }

    /// A slug as it is, such as one read back from an earlier annotation's UID; `nil` unless it is
    /// one (ASCII lower-case letters, digits and hyphens, not empty, at most ``maximumLength``).
    ///
    /// ```swift
    /// print(CalendarSlug(verbatim: "piano--running") as Any, CalendarSlug(verbatim: "Piano") as Any)
    /// // Prints "Optional(piano--running) nil"
    /// ```
    public init?(verbatim text: String) {
        guard !text.isEmpty, text.count <= Self.maximumLength,
              text.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
        else { return nil }
        self.text = text
    }

    /// Letters without accents that decomposition leaves as they are.
    private static let letters: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i", "ħ": "h", "ŋ": "n",
    ]

    /// The name in ASCII letters, digits and single hyphens, and whether a letter or digit was lost.
    private static func asciiSlug(_ name: String) -> (slug: String, lossy: Bool) {
        var slug = ""
        var lossy = false
        var pendingHyphen = false
        // Compatibility decomposition: accents become combining marks (dropped), fullwidth and
        // ligature forms become plain letters.
        for scalar in name.lowercased().decomposedStringWithCompatibilityMapping.unicodeScalars {
            let ascii: String
            if let mapped = letters[scalar] {
                ascii = mapped
            } else if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                ascii = String(scalar)
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue  // an accent taken off its letter
            } else {
                if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { lossy = true }
                pendingHyphen = !slug.isEmpty
                continue
            }
            if pendingHyphen { slug += "-" }
            pendingHyphen = false
            slug += ascii
        }
        return (slug, lossy)
    }

    /// Eight hexadecimal digits of the name's 64-bit FNV-1a hash (its halves XORed): the same on
    /// every platform and in every run.
    static func hash(_ text: String) -> String { StableHash.hexadecimal(text) }
}

extension CalendarSlug: CustomStringConvertible {
    public var description: String { text }
}

/// The domain on the right of an annotation's UID (`2024-02-20.piano@streakcal.local`): a DNS name,
/// lower-cased.
///
/// ```swift
/// print(try UIDDomain("Example.COM"), UIDDomain.standard)
/// // Prints "example.com streakcal.local"
/// ```
public struct UIDDomain: Hashable, Sendable {
    /// The domain, lower-cased.
    public let text: String

    /// `streakcal.local`: a name no one else issues UIDs under.
    public static let standard = UIDDomain(checked: "streakcal.local")

    /// A domain as a DNS name: labels of ASCII letters, digits and hyphens (not at either end of
    /// a label), 1 to 63 characters each, joined by dots, at most 253 characters in all.
    ///
    /// ```swift
    /// do {
    ///     _ = try UIDDomain("my_host.example")
    /// } catch {
    ///     print(error)
    /// }
    /// // Prints "'my_host.example' is not a domain name: the label 'my_host' has a character other than an ASCII letter, digit or hyphen"
    /// ```
    ///
    /// - Throws: ``InvalidUIDDomain`` saying what is wrong.
    public init(_ text: String) throws(InvalidUIDDomain) {
        func invalid(_ reason: String) -> InvalidUIDDomain { InvalidUIDDomain(domain: text, reason: reason) }
        guard !text.isEmpty else { throw invalid("the domain is empty") }
        guard text.utf8.count <= 253 else { throw invalid("a domain has at most 253 characters, this one \(text.utf8.count)") }
        for label in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { throw invalid("a dot must stand between two labels (no empty label, no dot at either end)") }
            guard label.utf8.count <= 63 else { throw invalid("the label '\(label)' is longer than 63 characters") }
            guard label.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") })
            else { throw invalid("the label '\(label)' has a character other than an ASCII letter, digit or hyphen") }
            guard !label.hasPrefix("-"), !label.hasSuffix("-") else { throw invalid("the label '\(label)' starts or ends with a hyphen") }
        }
        self.text = text.lowercased()
    }

    private init(checked text: String) {
        self.text = text
    }
}

extension UIDDomain: CustomStringConvertible {
    public var description: String { text }
}

/// A domain that ``UIDDomain`` refuses, and why.
///
/// ```swift
/// let error = InvalidUIDDomain(domain: "a..b", reason: "a dot must stand between two labels")
/// print(error)
/// // Prints "'a..b' is not a domain name: a dot must stand between two labels"
/// ```
public struct InvalidUIDDomain: Error, Hashable, Sendable, CustomStringConvertible {
    /// The domain as given.
    public var domain: String
    /// What is wrong with it.
    public var reason: String

    public init(domain: String, reason: String) {
        self.domain = domain
        self.reason = reason
    }

    public var description: String { "'\(domain)' is not a domain name: \(reason)" }
}
