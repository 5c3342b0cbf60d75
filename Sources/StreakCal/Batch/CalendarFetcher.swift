public import ICalendar

/// Reads the calendars at an address, for the `url` records of a ``JSONLinesBatch``.
///
/// The umbrella module reads no network: `StreakCalRemote` makes the fetcher the command uses
/// (`CalendarFetcher.subscriptions(_:)`, through libcurl and the cache), and a program may give its
/// own, such as one over its own HTTP client.
///
/// ```swift
/// let fetcher = CalendarFetcher(permittedHosts: ["calendar.example.com"]) { address in
///     [CalendarSource(name: address, content: .bytes(Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)))]
/// }
/// print(try fetcher.calendars(at: "https://calendar.example.com/a.ics").count)
/// // Prints "1"
/// ```
public struct CalendarFetcher: Sendable {
    /// The hosts it asks. A batch refuses every `url` record when there are none: its records come
    /// from elsewhere, and only hosts its caller named are asked (the command's `--allow-host`).
    public let permittedHosts: Set<String>
    private let fetch: @Sendable (String) throws(CalendarReadError) -> [CalendarSource]

    /// A fetcher that asks only `permittedHosts`, reading each address with `fetch`.
    public init(permittedHosts: Set<String>, fetch: @escaping @Sendable (_ address: String) throws(CalendarReadError) -> [CalendarSource]) {
        self.permittedHosts = permittedHosts
        self.fetch = fetch
    }

    /// The calendars at `address`, as the import reads them.
    public func calendars(at address: String) throws(CalendarReadError) -> [CalendarSource] {
        try fetch(address)
    }
}
