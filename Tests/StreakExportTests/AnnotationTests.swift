import Foundation
import ICalendar
import StreakExport
import Streaks
import Testing
import FixedClock

private let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// Imports fixtures, scores them in UTC over `window` and writes the annotated calendar at a fixed time.
private func annotate(
    _ names: [String], window: ClosedRange<Day>, allDays: Bool = false, markSessions: Bool = false
) throws -> (output: CalendarWriter.Output, sessions: [Session]) {
    let sources = try names.map { try CalendarSource.file(fixtures.appendingPathComponent($0).path).inMemory() }
    return try annotate(sources, window: window, allDays: allDays, markSessions: markSessions)
}

private func annotate(
    _ sources: [CalendarSource], window: ClosedRange<Day>, allDays: Bool = false, markSessions: Bool = false
) throws -> (output: CalendarWriter.Output, sessions: [Session]) {
    let importer = SessionImporter(expansion: RecurrenceExpansion(from: window.lowerBound, through: window.upperBound))
    let imported = try importer.importSessions(from: sources)
    let sessions = imported.sessions
    let report = StreakReport(sessions: sessions, goal: StreakGoal(timeZone: .utc), window: window)
    let output = try CalendarAnnotation(report: report, includesEmptyDays: allDays, calendar: CalendarSlug(names: imported.sources.map(\.name)))
        .write(sources, markingSessions: markSessions ? sessions : nil, timestamp: 1_709_164_800)
    return (output, sessions)
}

private let february = try! Day(year: 2024, month: 2, day: 20)...Day(year: 2024, month: 2, day: 29)

@Suite("Annotated calendars")
struct AnnotationTests {
    @Test("One all-day event per day with sessions, with status, colour, categories and figures")
    func dayEvents() throws {
        let (output, _) = try annotate(["tutorial-sample.ics"], window: february)
        let text = output.text
        #expect(text.components(separatedBy: "X-STREAKCAL-ANNOTATION:day").count - 1 == 4)
        #expect(text.contains("UID:2024-02-26.fscalendar-streaks-tutorial-sample@streakcal.local\r\n"))
        #expect(text.contains("SUMMARY:✓ 120/100 points · streak 2\r\n"))
        #expect(text.contains("SUMMARY:◐ 30/100 points\r\n"))
        #expect(text.contains("DTSTART;VALUE=DATE:20240224\r\nDTEND;VALUE=DATE:20240225\r\n"))
        #expect(text.contains("COLOR:red\r\nCATEGORIES:StreakCal,partial\r\n"))
        #expect(text.contains("X-STREAKCAL-STATUS:met\r\nX-STREAKCAL-POINTS:120\r\nX-STREAKCAL-REQUIRED:100\r\nX-STREAKCAL-STREAK:2\r\n"))
        #expect(text.contains("DTSTAMP:20240229T000000Z\r\n"))
        let all = try annotate(["tutorial-sample.ics"], window: february, allDays: true).output.text
        #expect(all.components(separatedBy: "X-STREAKCAL-ANNOTATION:day").count - 1 == 10)
        #expect(all.contains("SUMMARY:· 0/100 points\r\nTRANSP:TRANSPARENT\r\nCOLOR:gray\r\n"))
    }

    @Test("Output is CRLF, folded at 75 octets without splitting a UTF-8 character, and libical reads it without error",
          arguments: ["tutorial-sample.ics", "folding.ics", "vtimezone-after-events.ics", "recurring-with-moved-instance.ics",
                      "encoding-latin1.ics", "bad-properties.ics", "missing-end-lines.ics", "several-vcalendars.ics"])
    func wellFormed(_ name: String) throws {
        let window = try! Day(year: 2024, month: 1, day: 1)...Day(year: 2024, month: 12, day: 31)
        let text = try annotate([name], window: window, allDays: false).output.text
        let bytes = Array(text.utf8)
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!bytes.enumerated().contains { $0.element == 0x0A && ($0.offset == 0 || bytes[$0.offset - 1] != 0x0D) })
        for line in text.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 75, "\(line)")
        }
        #expect(Libical.parseErrors(in: text) == [])
    }

    @Test("Annotating an annotated calendar replaces the annotations: the result is the same")
    func idempotent() throws {
        let first = try annotate(["tutorial-sample.ics"], window: february, markSessions: true).output.text
        let again = try annotate([.bytes(Array(first.utf8), name: "annotated.ics")], window: february, markSessions: true).output.text
        #expect(again == first)
        let unmarked = try annotate([.bytes(Array(first.utf8), name: "annotated.ics")], window: february).output.text
        #expect(!unmarked.contains("X-STREAKCAL-DAY-STATUS"))
        #expect(unmarked == (try annotate(["tutorial-sample.ics"], window: february).output.text))
    }

    @Test("Importing the output gives the same sessions as the input", arguments: [
        "tutorial-sample.ics", "recurring-with-moved-instance.ics", "vtimezone-after-events.ics", "dst-gap-and-overlap.ics",
    ])
    func roundTrip(_ name: String) throws {
        let window = try! Day(year: 2000, month: 1, day: 1)...Day(year: 2024, month: 12, day: 31)
        let (output, sessions) = try annotate([name], window: window, allDays: true)
        let reread = try SessionImporter(expansion: RecurrenceExpansion(from: window.lowerBound, through: window.upperBound))
            .importSessions(from: .string(output.text, name: "annotated.ics")).sessions
        func comparable(_ list: [Session]) -> [Session] {
            list.map { var session = $0; session.source = nil; return session }
        }
        #expect(comparable(reread) == comparable(sessions))
    }

    @Test("The original data is kept: calendar properties, VTIMEZONEs, unknown properties, alarms")
    func preserved() throws {
        let text = try annotate(["vtimezone-after-events.ics", "tutorial-sample.ics"], window: february).output.text
        #expect(text.contains("TZID:Custom Central European\r\n"))
        #expect(text.contains("RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\n"))  // libical's order of the parts
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("COMMENT:The tutorial's sample data set: floating local times\\, required points 100."))
        #expect(unfolded.contains("COMMENT:The events come before the VTIMEZONE they use\\; the VTIMEZONE's own rules apply."))
        #expect(text.contains("X-WR-CALNAME:FSCalendar streaks tutorial sample\r\n"))
        #expect(text.contains("X-POINTS:120\r\n"))
        #expect(text.components(separatedBy: "BEGIN:VCALENDAR").count - 1 == 1)
        let alarms = try annotate(["missing-end-lines.ics"], window: try! Day(year: 2024, month: 5, day: 1)...Day(year: 2024, month: 5, day: 5)).output.text
        #expect(alarms.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\n"))
    }

    @Test("--mark-sessions gives each single event its day's status")
    func sessionMarks() throws {
        let text = try annotate(["tutorial-sample.ics"], window: february, markSessions: true).output.text
        #expect(text.contains("UID:tutorial-5@streakcal.example"))
        #expect(text.contains("X-STREAKCAL-DAY:2024-02-26\r\nX-STREAKCAL-DAY-STATUS:met\r\nX-STREAKCAL-DAY-POINTS:120\r\n"))
        #expect(text.components(separatedBy: "X-STREAKCAL-DAY-STATUS").count - 1 == 5)
    }
}

/// Every fixture that is a calendar.
private let calendarFixtures = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path))?
    .filter { $0.hasSuffix(".ics") }.sorted() ?? []

/// What `streakcal report` reads of a calendar: each session's id, summary and points, and its
/// day in UTC (floating times read there), in a stable order; and the points of each day.
private func reportReading(of source: CalendarSource, window: ClosedRange<Day>) throws -> (sessions: [String], days: [Day: Int]) {
    let imported = try SessionImporter(expansion: RecurrenceExpansion(from: window.lowerBound, through: window.upperBound))
        .importSessions(from: source).readingFloatingTimes(in: .utc)
    let sessions = imported.sessions.map { session in
        "\(session.id) | \(session.summary) | \(session.points) | \(session.day(in: .utc, dayStart: .midnight))"
    }
    var days: [Day: Int] = [:]
    for session in imported.sessions { days[session.day(in: .utc, dayStart: .midnight), default: 0] += session.points }
    return (sessions.sorted(), days)
}

@Suite("Annotated calendars read as their inputs")
struct AnnotationReadingTests {
    @Test("report of the annotated copy gives the input's sessions: ids, summaries, points per day", arguments: calendarFixtures)
    func fixtureSessions(_ name: String) throws {
        let window = try! Day(year: 1990, month: 1, day: 1)...Day(year: 2030, month: 12, day: 31)
        let source = try CalendarSource.file(fixtures.appendingPathComponent(name).path).inMemory()
        let (output, _) = try annotate([source], window: window, markSessions: true)
        let input = try reportReading(of: source, window: window)
        let copy = try reportReading(of: .string(output.text, name: "annotated.ics"), window: window)
        #expect(copy.sessions == input.sessions)
        #expect(copy.days == input.days)
        #expect(!input.sessions.isEmpty || ["bare-vevent.ics", "no-points-property.ics"].contains(name) || input.days.isEmpty)
    }

    @Test("annotate-rewrites-bad-escapes.sh: TEXT values with bad and tricky escapes read the same in the copy")
    func trickyText() throws {
        let values = [
            "run\\", "run", "q\\x", "q ", "s\\x\\qz", "a\\:b", "a b", "a\\\"b", "a\\ b", "a\\\\b", "a\\;b\\,c", "a\\nb",
            "  spaced  ", "a\\,b", "a,,b", "é\\é", "日本\\語", "end\\\\", "x\\\\\\", "Meeting\\, John",
        ]
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
        for (index, value) in values.enumerated() {
            lines += [
                "BEGIN:VEVENT", "UID:" + value, "DTSTART:202407\(10 + index % 20)T0600\(index < 10 ? "0" : "")\(index)Z",
                "SUMMARY:" + value, "CATEGORIES:" + value + ",x", "X-POINTS:\(index + 1)", "END:VEVENT",
            ]
        }
        let source = CalendarSource.string((lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n", name: "tricky.ics")
        let window = try! Day(year: 2024, month: 7, day: 1)...Day(year: 2024, month: 7, day: 31)
        let (output, _) = try annotate([source], window: window, markSessions: true)
        let input = try reportReading(of: source, window: window)
        let copy = try reportReading(of: .string(output.text, name: "annotated.ics"), window: window)
        #expect(input.sessions.count == values.count)
        #expect(copy.sessions == input.sessions)
        #expect(copy.days == input.days)
        // Every session is marked: the mark finds the event by its UID as the import reads it.
        #expect(output.text.components(separatedBy: "X-STREAKCAL-DAY-STATUS").count - 1 == values.count)
    }
}

@Suite("Annotated calendars from damaged inputs")
struct DamagedAnnotationTests {
    @Test("What cannot be valid iCalendar is left out with a warning: control characters, non-dates, bad names, wrapped durations")
    func sanitized() throws {
        let text = [
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z", "X-POINTS:5",
            "X-NOTE:bell\u{07}and\u{0B}tab\there", "DTSTAMP:19900000T000000Z", "X-EX^ECT:17", "DURATION:P999999999999999999W",
            "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n")
        let source = CalendarSource.string(text, name: "damaged.ics")
        let window = try! Day(year: 2024, month: 3, day: 1)...Day(year: 2024, month: 3, day: 1)
        let report = StreakReport(sessions: try SessionImporter(expansion: testExpansion).importSessions(from: source).sessions, goal: StreakGoal(timeZone: .utc), window: window)
        let output = try CalendarAnnotation(report: report).write([source], timestamp: 0)
        #expect(output.text.contains("X-NOTE:bell\u{FFFD}and\u{FFFD}tab\there\r\n"))
        #expect(!output.text.contains("19900000"))
        #expect(!output.text.contains("X-EX^ECT"))
        #expect(!output.text.contains("DURATION"))
        #expect(output.diagnostics.map(\.message).sorted() == [
            "DTSTAMP 19900000T000000Z is not a real date; not copied",
            "DURATION P999999999999999999W is too long to count; not copied",
            "X-NOTE has control characters, which iCalendar does not allow; they are written as U+FFFD",
            "property name \"X-EX^ECT\" is not an iCalendar name; not copied",
        ])
        #expect(Libical.parseErrors(in: output.text) == [])
    }
}

@Suite("Annotation UIDs")
struct AnnotationUIDTests {
    @Test("A calendar's name as a slug: ASCII lower-case letters, digits and hyphens, never empty", arguments: [
        ("Piano", "piano"), ("Piano Practice!", "piano-practice"), ("  --Übung__Straße  ", "ubung-strasse"),
        ("Ｐｉａｎｏ ﬁve", "piano-five"), ("Ærø 2024", "aero-2024"), ("", "calendar"), ("!!! ???", "calendar"),
        ("standard input", "standard-input"),
    ])
    func slug(name: String, expected: String) {
        #expect(CalendarSlug(name: name).text == expected)
    }

    @Test("Names with letters that have no ASCII form, and long names, end in a hash of the whole name and stay apart")
    func hashedSlugs() {
        let japanese = CalendarSlug(name: "日本語").text
        let chinese = CalendarSlug(name: "中文").text
        #expect(japanese.hasPrefix("calendar-") && japanese.count == 17)
        #expect(chinese.hasPrefix("calendar-") && chinese != japanese)
        // The hash is FNV-1a: the same on every platform and run, as docs/command-line.md says.
        #expect(japanese == "calendar-26ca0d32")
        #expect(CalendarSlug(name: "Piano 日本").text.hasPrefix("piano-"))
        let long = String(repeating: "Practice ", count: 12)
        let one = CalendarSlug(name: long + "A").text
        let other = CalendarSlug(name: long + "B").text
        #expect(one.count == CalendarSlug.maximumLength && other.count == CalendarSlug.maximumLength)
        #expect(one != other)
        #expect(one.hasPrefix("practice-practice-practice-"))
        #expect(CalendarSlug(name: long + "A") == CalendarSlug(name: long + "A"))
        for slug in [japanese, chinese, one, other] {
            #expect(slug.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }, "\(slug)")
        }
    }

    @Test("Several calendars: every name's slug, sorted, without repeats, joined by --, whatever their order")
    func severalNames() {
        #expect(CalendarSlug(names: ["Running", "Piano"]).text == "piano--running")
        #expect(CalendarSlug(names: ["Piano", "Running"]) == CalendarSlug(names: ["Running", "Piano", "Running"]))
        #expect(CalendarSlug(names: ["Piano", "piano!"]).text == "piano")
        #expect(CalendarSlug(names: []).text == "calendar")
        #expect(CalendarSlug(names: ["Piano", "Running"]) != CalendarSlug(name: "Piano Running"))
    }

    @Test("UIDs: the day, the calendar, the habit and the domain; habits whose names give one slug stay apart")
    func uids() throws {
        let report = StreakReport(sessions: [], goal: StreakGoal(timeZone: .utc), window: february)
        let day = try! Day(year: 2024, month: 2, day: 20)
        let piano = CalendarAnnotation(report: report, calendar: CalendarSlug(name: "Piano"), uidDomain: try UIDDomain("Example.ORG"))
        #expect(piano.uid(for: day) == "2024-02-20.piano@example.org")
        #expect(piano.uid(for: day, habit: "Scales & arpeggios") == "2024-02-20.piano.scales-arpeggios@example.org")
        #expect(CalendarAnnotation(report: report).uid(for: day) == "2024-02-20.calendar@streakcal.local")
        let habits = CalendarAnnotation(
            report: report, habits: [HabitReport(habit: Habit(name: "Piano", filter: .all), report: report),
                                     HabitReport(habit: Habit(name: "piano!", filter: .all), report: report)],
            calendar: CalendarSlug(name: "Practice"))
        let first = habits.uid(for: day, habit: "Piano")
        let second = habits.uid(for: day, habit: "piano!")
        #expect(first != second)
        #expect(first.hasPrefix("2024-02-20.practice.piano-") && second.hasPrefix("2024-02-20.practice.piano-"))
    }

    @Test("The calendar slug of earlier annotations' UIDs, when they name one")
    func earlierSlug() {
        #expect(CalendarAnnotation.calendarSlug(inUIDs: ["2024-02-20.piano@streakcal.local", "2024-02-21.piano.scales@example.com"])?.text == "piano")
        #expect(CalendarAnnotation.calendarSlug(inUIDs: ["2024-02-20.piano@streakcal.local", "2024-02-20.running@streakcal.local"]) == nil)
        #expect(CalendarAnnotation.calendarSlug(inUIDs: ["streakcal-day-2024-02-20"]) == nil)
        #expect(CalendarAnnotation.calendarSlug(inUIDs: ["2024-02-20.Piano@x", "2024-13-01.piano@x", "2024-02-20.a.b.c@x"]) == nil)
        #expect(CalendarAnnotation.calendarSlug(inUIDs: []) == nil)
    }

    @Test("A UID domain is a DNS name", arguments: [
        ("example.com", "example.com"), ("Example.COM", "example.com"), ("a-b.c1.example", "a-b.c1.example"), ("localhost", "localhost"),
    ])
    func validDomain(text: String, expected: String) throws {
        #expect(try UIDDomain(text).text == expected)
    }

    @Test("Anything else is refused, with the reason", arguments: [
        ("", "the domain is empty"), ("a..b", "a dot must stand between two labels"), (".a", "a dot must stand between two labels"),
        ("a.", "a dot must stand between two labels"), ("-a.com", "the label '-a' starts or ends with a hyphen"),
        ("a-.com", "the label 'a-' starts or ends with a hyphen"), ("a_b.com", "the label 'a_b' has a character other than"),
        ("ex ample.com", "the label 'ex ample' has a character other than"), ("é.com", "the label 'é' has a character other than"),
        ("a@b.com", "the label 'a@b' has a character other than"),
        (String(repeating: "a", count: 64) + ".com", "is longer than 63 characters"),
        (Array(repeating: String(repeating: "a", count: 50), count: 5).joined(separator: "."), "at most 253 characters"),
    ])
    func invalidDomain(text: String, reason: String) {
        #expect(throws: InvalidUIDDomain.self) { try UIDDomain(text) }
        do {
            _ = try UIDDomain(text)
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
            #expect(error.description.hasPrefix("'\(text)' is not a domain name: "))
        }
    }

    @Test("The annotations alone: calendar properties, then the day events")
    func annotationsOnly() throws {
        let sources = [try CalendarSource.file(fixtures.appendingPathComponent("tutorial-sample.ics").path).inMemory()]
        let sessions = try SessionImporter(expansion: RecurrenceExpansion(from: february.lowerBound, through: february.upperBound))
            .importSessions(from: sources).sessions
        let report = StreakReport(sessions: sessions, goal: StreakGoal(timeZone: .utc), window: february)
        let text = CalendarAnnotation(report: report, calendar: CalendarSlug(name: "Piano"))
            .writeAnnotationsOnly(calendarName: "Piano, daily (StreakCal)", timestamp: 1_709_164_800)
        let lines = text.components(separatedBy: "\r\n")
        #expect(Array(lines.prefix(12)) == [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//StreakCal//StreakCal \(StreakCalVersion.current)//EN", "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:Piano\\, daily (StreakCal)", "BEGIN:VEVENT", "UID:2024-02-20.piano@streakcal.local",
            "DTSTAMP:20240229T000000Z", "DTSTART;VALUE=DATE:20240220", "DTEND;VALUE=DATE:20240221",
            "SUMMARY:✓ 100/100 points · streak 1", "TRANSP:TRANSPARENT",
        ])
        #expect(lines.filter { $0.hasPrefix("UID:") }.count == 4)
        #expect(Libical.parseErrors(in: text) == [])
        let unnamed = CalendarAnnotation(report: report).writeAnnotationsOnly(calendarName: nil, timestamp: 0)
        #expect(!unnamed.contains("X-WR-CALNAME"))
    }
}
