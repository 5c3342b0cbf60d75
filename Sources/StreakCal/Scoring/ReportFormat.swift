public import StreakExport

/// The formats a report can be rendered in, as `streakcal report --format` and `batch --format` name them.
///
/// ```swift
/// print(ReportFormat.md.fileExtension)
/// // Prints "md"
/// ```
public enum ReportFormat: String, Hashable, Sendable, Codable, CaseIterable {
    case text, json, csv, md, svg, html

    /// The format a file's extension names (`.txt`, `.json`, `.csv`, `.md` or `.markdown`, `.svg`,
    /// `.html` or `.htm`, any case); `nil` for another or none.
    public init?(fileExtensionOf path: String) {
        guard let fileExtension = Self.fileExtension(of: path) else { return nil }
        self.init(fileExtension: fileExtension)
    }

    /// The format an extension (without the dot, any case) names; `nil` for another.
    public init?(fileExtension: String) {
        let lowercased = fileExtension.lowercased()
        guard let format = Self.allCases.first(where: { $0.fileExtensions.contains(lowercased) }) else { return nil }
        self = format
    }

    /// The extension of the last component of `path`, lowercased and without the dot; `nil` for a
    /// name without one (`report`, `-`, `/dev/stdout`) or with only a hidden file's leading dot.
    ///
    /// ```swift
    /// print(ReportFormat.fileExtension(of: "out/Report.PDF") ?? "none")
    /// // Prints "pdf"
    /// ```
    public static func fileExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }

    /// Every extension naming the format, the usual one first (`md`, then `markdown`).
    public var fileExtensions: [String] {
        switch self {
        case .text: ["txt", "text"]
        case .md: ["md", "markdown"]
        case .html: ["html", "htm"]
        default: [fileExtension]
        }
    }

    /// The extension of a file in this format, without the dot (`txt` for text).
    public var fileExtension: String {
        switch self {
        case .text: "txt"
        case .json: "json"
        case .csv: "csv"
        case .md: "md"
        case .svg: "svg"
        case .html: "html"
        }
    }

    /// The renderer of the format (``/StreakExport/ReportRenderer``).
    public var rendererType: any ReportRenderer.Type {
        switch self {
        case .text: TextReportRenderer.self
        case .json: JSONReportRenderer.self
        case .csv: CSVReportRenderer.self
        case .md: MarkdownReportRenderer.self
        case .svg: SVGReportRenderer.self
        case .html: HTMLReportRenderer.self
        }
    }

    /// Whether the format lists sessions one by one, so that scoring keeps them (HTML's session
    /// cards); the others need only the days' totals.
    ///
    /// ```swift
    /// print(ReportFormat.allCases.filter(\.needsSessions))
    /// // Prints "[StreakCal.ReportFormat.html]"
    /// ```
    public var needsSessions: Bool { rendererType.needsSessions }

    /// Whether the format draws every day (SVG, HTML): at most ``/StreakExport/ReportView/maximumDrawnYears`` years of them.
    public var drawsDays: Bool { rendererType.drawsDays }

    /// The format's renderer with `presentation`.
    public func renderer(_ presentation: ReportPresentation) -> any ReportRenderer {
        rendererType.init(presentation: presentation)
    }

    /// A scored calendar in this format, drawn as the settings it was scored with say
    /// (`ScoredCalendar.presentation`: rules, palette, first weekday, view); `terminalColors`
    /// colours a text report for a terminal (its marks stay).
    ///
    /// ```swift
    /// let scored = try settings.scored([.file("work.ics")], now: now)
    /// print(ReportFormat.csv.render(scored))
    /// ```
    public func render(_ scored: ScoredCalendar, terminalColors: Bool = false) -> String {
        var presentation = scored.presentation
        presentation.terminalColors = terminalColors
        return renderer(presentation).render(scored.content)
    }

    /// A scored calendar in this format, drawn as `settings` say (rules, palette, first weekday,
    /// view) rather than as those it was scored with; `terminalColors` colours a text report for a
    /// terminal.
    public func render(_ scored: ScoredCalendar, with settings: ReportSettings, terminalColors: Bool = false) -> String {
        renderer(settings.presentation(terminalColors: terminalColors)).render(scored.content)
    }
}
