import Foundation
import Testing

/// `--from today`, `--to yesterday` and `--last 30d|12w|6m|1y` (issue 33): days people write,
/// read in the report's zone.
@Suite("Windows relative to today")
struct RelativeWindowTests {
    /// The report's `from` and `to`.
    private func window(_ options: [String]) throws -> (from: String, to: String) {
        let result = try streakcal(["report", fixture("all-day-events.ics"), "--tz", "UTC", "--format", "json"] + options)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try jsonObject(result.standardOutput)
        return (try #require(report["from"] as? String), try #require(report["to"] as? String))
    }

    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()

    /// Today in UTC, as `YYYY-MM-DD`.
    private func utcToday() -> String {
        Self.formatter.string(from: Date())
    }

    /// The day `count` days before `day` (`YYYY-MM-DD`).
    private func day(_ count: Int, before day: String) throws -> String {
        Self.formatter.string(from: try #require(Self.formatter.date(from: day)).addingTimeInterval(-Double(count) * 86_400))
    }

    @Test("Spans end on --to (or today) and count it: 30d, 12w, 1m, 1y")
    func spans() throws {
        #expect(try window(["--last", "30d", "--to", "2024-03-30"]) == ("2024-03-01", "2024-03-30"))
        #expect(try window(["--last", "2w", "--to", "2024-03-14"]) == ("2024-03-01", "2024-03-14"))
        #expect(try window(["--last", "1m", "--to", "2024-03-31"]) == ("2024-03-01", "2024-03-31"))
        #expect(try window(["--last", "1m", "--to", "2024-03-30"]) == ("2024-03-01", "2024-03-30"))
        #expect(try window(["--last", "1y", "--to", "2024-02-29"]) == ("2023-03-01", "2024-02-29"))
        #expect(try window(["--last", "6M", "--to", "2024-08-31"]) == ("2024-03-01", "2024-08-31"))
    }

    @Test("today and yesterday are days in the report's zone; --last alone ends today")
    func today() throws {
        // Read the clock around the run, so that a run across midnight still passes.
        let before = utcToday()
        let last = try window(["--last", "7d"])
        let yesterday = try window(["--from", "yesterday", "--to", "today"])
        let after = utcToday()
        #expect([before, after].contains(last.to))
        #expect(last.from == (try day(6, before: last.to)))
        #expect([before, after].contains(yesterday.to))
        #expect(yesterday.from == (try day(1, before: yesterday.to)))
    }

    @Test("Bad spans and contradictions are usage errors naming the option")
    func refused() throws {
        for (options, message) in [
            (["--last", "30x"], "The value '30x' is invalid for '--last <span>'"),
            (["--last", "0d"], "The value '0d' is invalid for '--last <span>'"),
            (["--last", "7d", "--from", "2024-01-01"], "--last and --from both give the first day: give one."),
            (["--from", "today", "--to", "2024-01-01"], "is after --to 2024-01-01"),
        ] {
            let result = try streakcal(["report", fixture("all-day-events.ics")] + options)
            #expect(result.status == 64, "\(options)")
            #expect(result.standardError.contains(message), "\(options): \(result.standardError)")
        }
    }
}

extension RelativeWindowTests {
    @Test("annotate-negative-years-invalid-dates.sh: a window before year 1 or after 9999 is a usage error naming the day; the ends themselves are taken", arguments: [
        ["--from=-0005-01-01", "--to", "2024-02-29"], ["--from", "2024-01-01", "--to", "10000-01-01"], ["--last", "10000y", "--to", "2024-02-29"],
        ["--from", "0000-12-31", "--to", "0001-01-02"],
    ])
    func outsideTheYearsADateHolds(options: [String]) throws {
        for command in ["report", "annotate"] {
            let result = try streakcal([command, fixture("all-day-events.ics"), "--tz", "UTC"] + options)
            #expect(result.status == 64, "\(command) \(options): \(result.standardError)")
            #expect(result.standardError.contains("0001-01-01"), "\(result.standardError)")
        }
    }

    @Test("The first and last days an iCalendar date holds are taken, and what annotate writes reads back without an error")
    func endsOfTheYearsADateHolds() throws {
        for window in [["--from", "0001-01-01", "--to", "0001-01-03"], ["--from", "9999-12-29", "--to", "9999-12-31"]] {
            let annotated = try streakcal(["annotate", fixture("all-day-events.ics"), "--tz", "UTC", "--all-days"] + window)
            #expect(annotated.status == 0, "\(annotated.standardError)")
            #expect(!annotated.standardOutput.contains("VALUE=DATE:0000") && !annotated.standardOutput.contains("VALUE=DATE:10000"))
            let reread = try streakcal(["report", "-", "--tz", "UTC", "--format", "csv"] + window, input: annotated.standardOutput)
            #expect(reread.status == 0)
            #expect(!reread.standardError.contains("error"), "\(reread.standardError)")
        }
    }
}
