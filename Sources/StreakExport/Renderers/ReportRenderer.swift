public import CalendarDiagnostics
public import Streaks

/// What a rendered report shows: the scored days, each habit's, the calendars, what the import
/// said and, for renderings that list them, the sessions.
///
/// ```swift
/// let content = ReportContent(report: report, sources: [ReportSource(file: "piano.ics")])
/// print(CSVReportRenderer().render(content), terminator: "")
/// // date,points,sessions,status
/// // ...
/// ```
public struct ReportContent: Sendable {
    /// The days, the streaks and the totals of every session, whichever habit took it.
    public var report: StreakReport
    /// Each named habit's report, over the same window.
    public var habits: [HabitReport]
    /// With named habits, the sessions none of them took.
    public var unmatchedSessions: Int
    /// With named habits, the most frequent summaries of the sessions none of them took.
    public var unmatchedSummaries: [SummaryCount]
    /// The sessions behind the report (floating times read in its zone), for renderers whose
    /// `needsSessions` is true; may be empty otherwise.
    public var sessions: [Session]
    /// The calendars the report is about.
    public var sources: [ReportSource]
    /// What the import said.
    public var diagnostics: [Diagnostic]
    /// Today in the report's zone, outlined where it is in the window.
    public var today: Day?

    public init(
        report: StreakReport, habits: [HabitReport] = [], unmatchedSessions: Int = 0, unmatchedSummaries: [SummaryCount] = [],
        sessions: [Session] = [], sources: [ReportSource] = [], diagnostics: [Diagnostic] = [], today: Day? = nil
    ) {
        self.report = report
        self.habits = habits
        self.unmatchedSessions = unmatchedSessions
        self.unmatchedSummaries = unmatchedSummaries
        self.sessions = sessions
        self.sources = sources
        self.diagnostics = diagnostics
        self.today = today
    }
}

/// How a report looks, whatever its format: day colours and marks, the page's palette, the first
/// weekday of grids, month grids or year heatmaps, and terminal colours for text.
public struct ReportPresentation: Sendable {
    /// How days look (marks, labels, fills); by default the palette's.
    public var rules: DayPresentationRules
    /// The page's colours in light and dark mode (SVG, HTML); the initializer colours the days in
    /// it too unless given `rules`.
    public var palette: ReportPalette
    /// The first column of month grids and the first row of year heatmaps.
    public var firstWeekday: Weekday
    /// Month grids or heatmaps (text, SVG, HTML); `nil`: ``ReportView/automatic(for:today:)``.
    public var view: ReportView?
    /// ANSI colours in a text report, besides its marks.
    public var terminalColors: Bool

    public init(
        rules: DayPresentationRules? = nil, palette: ReportPalette = .standard, firstWeekday: Weekday = .sunday,
        view: ReportView? = nil, terminalColors: Bool = false
    ) {
        self.rules = rules ?? palette.rules
        self.palette = palette
        self.firstWeekday = firstWeekday
        self.view = view
        self.terminalColors = terminalColors
    }
}

/// A report format: turns a report's content, with habit sections, into the document of its format.
///
/// One type per format (``TextReportRenderer``, ``JSONReportRenderer``, ``CSVReportRenderer``,
/// ``MarkdownReportRenderer``, ``SVGReportRenderer``, ``HTMLReportRenderer``); what a format needs
/// of the import (the sessions themselves, or only their totals) is said by the type, in one place.
///
/// ```swift
/// let renderer: any ReportRenderer = MarkdownReportRenderer(presentation: ReportPresentation(firstWeekday: .monday))
/// print(renderer.render(ReportContent(report: report)))
/// ```
public protocol ReportRenderer: Sendable {
    /// Whether the document shows sessions one by one (HTML's session cards): the import must
    /// then keep them (``ReportContent/sessions``), not only count them on their days.
    static var needsSessions: Bool { get }
    /// Whether the document draws every day as a picture (SVG, HTML), and so draws at most
    /// ``ReportView/maximumDrawnYears`` years (``ReportView/drawingNote(for:)``).
    static var drawsDays: Bool { get }

    init(presentation: ReportPresentation)

    /// The document. Rendering cannot fail: every scored calendar has a document in every format.
    func render(_ content: ReportContent) -> String
}
