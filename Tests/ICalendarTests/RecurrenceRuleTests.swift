@testable import ICalendar
import Streaks
import Testing

/// A wall-clock time written as iCalendar writes it: `19970902T090000`.
private func local(_ text: String) -> LocalDateTime {
    ICalTime(iCalendarText: text)?.local ?? LocalDateTime(secondsSince1970: 0)
}

private func compact(_ time: LocalDateTime) -> String {
    SessionResolver.recurrenceIDText(time, isDate: false, isUTC: false)
}

/// The starts a rule gives from DTSTART (floating wall clock), as `RuleIterator` reads it for a
/// series: DTSTART first, COUNT and UNTIL applied; `through` bounds an endless rule.
private func starts(_ rule: String, from dtstart: String, through: String? = nil, includesStart: Bool = true) -> (starts: [String], problems: [RuleIterator.Problem]) {
    let window = through.map { local(dtstart)...local($0) }
    let result = RuleIterator.starts(
        rule: rule, dtstart: local(dtstart), isDate: false, clock: .floating, window: window, cap: 10_000,
        includesStart: includesStart)
    return (result.starts.map(compact), result.problems)
}

/// One of RFC 5545 §3.8.5.3's examples (times in the examples' New York wall clock, read floating).
struct RFCExample: CustomTestStringConvertible, Sendable {
    var name: String
    var dtstart: String
    var rule: String
    var through: String?
    var expected: [String]
    var testDescription: String { name }
}

@Suite("Recurrence rules (RFC 5545 3.3.10 and the examples of 3.8.5.3)")
struct RecurrenceRuleTests {
    static let examples: [RFCExample] = [
        RFCExample(name: "Daily for 10 occurrences", dtstart: "19970902T090000", rule: "FREQ=DAILY;COUNT=10",
                   expected: (2...11).map { String(format2: "199709%02dT090000", $0) }),
        RFCExample(name: "Every 10 days, 5 occurrences", dtstart: "19970902T090000", rule: "FREQ=DAILY;INTERVAL=10;COUNT=5",
                   expected: ["19970902T090000", "19970912T090000", "19970922T090000", "19971002T090000", "19971012T090000"]),
        RFCExample(name: "Every day in January, for 3 years", dtstart: "19980101T090000",
                   rule: "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA",
                   expected: [1998, 1999, 2000].flatMap { year in (1...31).map { String(format2: "\(year)01%02dT090000", $0) } }),
        RFCExample(name: "Weekly for 10 occurrences", dtstart: "19970902T090000", rule: "FREQ=WEEKLY;COUNT=10",
                   expected: ["19970902T090000", "19970909T090000", "19970916T090000", "19970923T090000", "19970930T090000",
                              "19971007T090000", "19971014T090000", "19971021T090000", "19971028T090000", "19971104T090000"]),
        RFCExample(name: "Every other week on Monday, Wednesday and Friday until December 24", dtstart: "19970901T090000",
                   rule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR",
                   expected: ["0901", "0903", "0905", "0915", "0917", "0919", "0929", "1001", "1003", "1013", "1015", "1017",
                              "1027", "1029", "1031", "1110", "1112", "1114", "1124", "1126", "1128", "1208", "1210", "1212", "1222"]
                       .map { "1997\($0)T090000" }),
        RFCExample(name: "WKST matters: Tuesday and Sunday every other week, weeks from Monday", dtstart: "19970805T090000",
                   rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO",
                   expected: ["19970805T090000", "19970810T090000", "19970819T090000", "19970824T090000"]),
        RFCExample(name: "WKST matters: the same with weeks from Sunday", dtstart: "19970805T090000",
                   rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU",
                   expected: ["19970805T090000", "19970817T090000", "19970819T090000", "19970831T090000"]),
        RFCExample(name: "Monthly on the first Friday for 10 occurrences", dtstart: "19970905T090000", rule: "FREQ=MONTHLY;COUNT=10;BYDAY=1FR",
                   expected: ["19970905", "19971003", "19971107", "19971205", "19980102", "19980206", "19980306", "19980403",
                              "19980501", "19980605"].map { $0 + "T090000" }),
        RFCExample(name: "Every other month on the first and last Sunday", dtstart: "19970907T090000",
                   rule: "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU",
                   expected: ["19970907", "19970928", "19971102", "19971130", "19980104", "19980125", "19980301", "19980329",
                              "19980503", "19980531"].map { $0 + "T090000" }),
        RFCExample(name: "Monthly on the second-to-last Monday for 6 months", dtstart: "19970922T090000", rule: "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO",
                   expected: ["19970922", "19971020", "19971117", "19971222", "19980119", "19980216"].map { $0 + "T090000" }),
        RFCExample(name: "Monthly on the third-to-last day", dtstart: "19970928T090000", rule: "FREQ=MONTHLY;BYMONTHDAY=-3",
                   through: "19980301T000000",
                   expected: ["19970928", "19971029", "19971128", "19971229", "19980129", "19980226"].map { $0 + "T090000" }),
        RFCExample(name: "Monthly on the first and last day", dtstart: "19970930T090000", rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1",
                   expected: ["19970930", "19971001", "19971031", "19971101", "19971130", "19971201", "19971231", "19980101",
                              "19980131", "19980201"].map { $0 + "T090000" }),
        RFCExample(name: "Every 18 months on the 10th to 15th", dtstart: "19970910T090000",
                   rule: "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15",
                   expected: ["19970910", "19970911", "19970912", "19970913", "19970914", "19970915", "19990310", "19990311",
                              "19990312", "19990313"].map { $0 + "T090000" }),
        RFCExample(name: "Every other year on January, February and March", dtstart: "19970310T090000",
                   rule: "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3",
                   expected: ["19970310", "19990110", "19990210", "19990310", "20010110", "20010210", "20010310", "20030110",
                              "20030210", "20030310"].map { $0 + "T090000" }),
        RFCExample(name: "Every third year on the 1st, 100th and 200th day", dtstart: "19970101T090000",
                   rule: "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200",
                   expected: ["19970101", "19970410", "19970719", "20000101", "20000409", "20000718", "20030101", "20030410",
                              "20030719", "20060101"].map { $0 + "T090000" }),
        RFCExample(name: "Every 20th Monday of the year", dtstart: "19970519T090000", rule: "FREQ=YEARLY;BYDAY=20MO",
                   through: "19991231T000000", expected: ["19970519", "19980518", "19990517"].map { $0 + "T090000" }),
        RFCExample(name: "Monday of week number 20", dtstart: "19970512T090000", rule: "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO",
                   through: "19991231T000000", expected: ["19970512", "19980511", "19990517"].map { $0 + "T090000" }),
        RFCExample(name: "Every Thursday in March", dtstart: "19970313T090000", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=TH",
                   through: "19991231T000000",
                   expected: ["19970313", "19970320", "19970327", "19980305", "19980312", "19980319", "19980326", "19990304",
                              "19990311", "19990318", "19990325"].map { $0 + "T090000" }),
        RFCExample(name: "The first Saturday that follows the first Sunday of the month", dtstart: "19970913T090000",
                   rule: "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13", through: "19980630T000000",
                   expected: ["19970913", "19971011", "19971108", "19971213", "19980110", "19980207", "19980307", "19980411",
                              "19980509", "19980613"].map { $0 + "T090000" }),
        RFCExample(name: "US Presidential Election day", dtstart: "19961105T090000",
                   rule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", through: "20041231T000000",
                   expected: ["19961105", "20001107", "20041102"].map { $0 + "T090000" }),
        RFCExample(name: "The third instance of Tuesday, Wednesday or Thursday, 3 times", dtstart: "19970904T090000",
                   rule: "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3",
                   expected: ["19970904", "19971007", "19971106"].map { $0 + "T090000" }),
        RFCExample(name: "The second-to-last weekday of the month", dtstart: "19970929T090000",
                   rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", through: "19980331T000000",
                   expected: ["19970929", "19971030", "19971127", "19971230", "19980129", "19980226", "19980330"].map { $0 + "T090000" }),
        RFCExample(name: "Every 3 hours from 09:00 to 17:00 on a day", dtstart: "19970902T090000",
                   rule: "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z",
                   expected: ["19970902T090000", "19970902T120000", "19970902T150000"]),
        RFCExample(name: "Every 15 minutes for 6 occurrences", dtstart: "19970902T090000", rule: "FREQ=MINUTELY;INTERVAL=15;COUNT=6",
                   expected: ["090000", "091500", "093000", "094500", "100000", "101500"].map { "19970902T" + $0 }),
        RFCExample(name: "Every hour and a half for 4 occurrences", dtstart: "19970902T090000", rule: "FREQ=MINUTELY;INTERVAL=90;COUNT=4",
                   expected: ["090000", "103000", "120000", "133000"].map { "19970902T" + $0 }),
        RFCExample(name: "Every 20 minutes from 09:00 to 16:40, as a DAILY rule", dtstart: "19970902T090000",
                   rule: "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40", through: "19970902T235959",
                   expected: (9...16).flatMap { hour in [0, 20, 40].map { String(format2: "19970902T%02d", hour) + String(format2: "%02d00", $0) } }),
        RFCExample(name: "Every 20 minutes from 09:00 to 16:40, as a MINUTELY rule", dtstart: "19970902T090000",
                   rule: "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16", through: "19970902T235959",
                   expected: (9...16).flatMap { hour in [0, 20, 40].map { String(format2: "19970902T%02d", hour) + String(format2: "%02d00", $0) } }),
        RFCExample(name: "Invalid dates are skipped: the 15th and 30th, 5 times", dtstart: "20070115T090000",
                   rule: "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5",
                   expected: ["20070115", "20070130", "20070215", "20070315", "20070330"].map { $0 + "T090000" }),
    ]

    @Test("RFC 5545's examples", arguments: examples)
    func rfcExample(_ example: RFCExample) {
        let result = starts(example.rule, from: example.dtstart, through: example.through)
        #expect(result.starts == example.expected)
        #expect(result.problems.isEmpty)
    }

    @Test("A period's days carry their date parts from one day to the next exactly as each day's own parts are", arguments: [
        (try! Day(year: 1599, month: 12, day: 1), 400 * 366),  // 400 years from before 1600 (a leap century)
        (try! Day(year: 1899, month: 2, day: 20), 3 * 366),  // 1900: not a leap year
        (try! Day(year: 2023, month: 12, day: 25), 800),  // 2024's leap day, New Year twice
        (Day(daysSince1970: -1_000_000), 2 * 366),  // BCE, proleptic
    ])
    func datePartsWalk(from first: Day, days: Int) {
        var walked = RecurrenceIterator.DateParts(first)
        var mismatches: [Day] = []
        for number in first.daysSince1970..<first.daysSince1970 + days {
            let day = Day(daysSince1970: number)
            let own = RecurrenceIterator.DateParts(day)
            if walked != own { mismatches.append(day) }
            #expect(own.weekday == day.weekday.rawValue && own.dayOfMonth == day.dayOfMonth)
            walked.advance()
        }
        #expect(mismatches.isEmpty)
        let leapDay = RecurrenceIterator.DateParts(try! Day(year: 2024, month: 2, day: 29))
        #expect(leapDay == .init(try! Day(year: 2024, month: 2, day: 28)).advanced())
        #expect((leapDay.monthLength, leapDay.dayOfYear, leapDay.yearLength, leapDay.weekday) == (29, 59, 366, 4))
    }

    @Test("A month's days worked out from BYMONTHDAY and BYDAY are the days that pass them one by one", arguments: [1, 2, 3, 4] as [UInt64])
    func monthDaysFromParts(seed: UInt64) throws {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let codes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        var compared = 0
        for _ in 0..<300 {
            let yearly = next(3) == 0
            var parts = [yearly ? "FREQ=YEARLY" : "FREQ=MONTHLY"]
            if next(2) == 0 || yearly {
                parts.append("BYMONTH=" + Set((0...next(3)).map { _ in 1 + next(12) }).map(String.init).joined(separator: ","))
            }
            if next(3) != 0 {
                let values = (0...next(4)).map { _ in next(2) == 0 ? 1 + next(31) : -1 - next(31) }
                parts.append("BYMONTHDAY=" + Set(values).map(String.init).joined(separator: ","))
            }
            if next(2) == 0 {
                let days = (0...next(3)).map { _ in
                    let ordinal = next(3) == 0 ? 0 : (next(2) == 0 ? 1 + next(5) : -1 - next(5))
                    return (ordinal == 0 ? "" : String(ordinal)) + codes[next(7)]
                }
                parts.append("BYDAY=" + Set(days).joined(separator: ","))
            }
            let rule = try RecurrenceRule(parsing: parts.joined(separator: ";"))
            let dtstart = LocalDateTime(day: try! Day(year: 2020 + next(8), month: 1 + next(12), day: 1 + next(28)), secondOfDay: 9 * 3600)
            let iterator = RecurrenceIterator(rule: rule, dtstart: dtstart, isDate: false, stepBudget: 1_000)
            for month in 0..<30 {
                let first = Day(normalizingYear: 2023, month: 1 + month, day: 1)  // through June 2025: a leap February
                let length = Day.daysInMonth(year: first.year, month: first.month)
                let fromParts = try #require(iterator.matchingDays(ofMonthStarting: first, length: length))
                #expect(fromParts == iterator.testedDays(ofMonthStarting: first, length: length), "\(parts) \(first)")
                compared += 1
            }
        }
        #expect(compared == 9_000)
        let leapDays = try RecurrenceIterator(
            rule: RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=-1,29;BYDAY=-1TH,TH"),
            dtstart: LocalDateTime(year: 2024, month: 1, day: 1, hour: 9)!, isDate: false, stepBudget: 100)
            .matchingDays(ofMonthStarting: try! Day(year: 2024, month: 2, day: 1), length: 29)
        #expect(leapDays == 1 << 29)  // Thursday 29 February 2024: the last day, the 29th and the last Thursday
    }

    @Test("Friday the 13th: a rule that DTSTART does not match starts at its first match")
    func fridayThe13th() {
        let result = starts("FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", from: "19970902T090000", through: "20001231T000000", includesStart: false)
        #expect(result.starts == ["19980213", "19980313", "19981113", "19990813", "20001013"].map { $0 + "T090000" })
    }

    @Test("BYWEEKNO without BYDAY recurs on DTSTART's weekday of that week (RFC 5545 3.3.10), not on the week's other days")
    func weekNumberWithoutWeekday() {
        // Python's dateutil (the reference) gives all seven days of week 20; RFC 5545 takes what the
        // rule leaves out from DTSTART, and 1997-05-12 is a Monday. libical 3.0 gave Tuesdays and Sundays.
        let result = starts("FREQ=YEARLY;BYWEEKNO=20", from: "19970512T090000", through: "20001231T000000")
        #expect(result.starts == ["19970512", "19980511", "19990517", "20000515"].map { $0 + "T090000" })
    }

    @Test("Week numbers follow ISO 8601 with WKST: week 1 may start in December, week 53 end in January")
    func weekNumbersAcrossYears() {
        // 2020 has 53 ISO weeks (2020-12-28 to 2021-01-03): its Friday is 2021-01-01.
        #expect(starts("FREQ=YEARLY;BYWEEKNO=53;BYDAY=FR", from: "20200101T090000", through: "20211231T000000").starts
                == ["20200101T090000", "20210101T090000"])
        // Week 1 of 2025 starts on Monday 2024-12-30, week 1 of 2026 on Monday 2025-12-29.
        #expect(starts("FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO", from: "20240101T090000", through: "20251231T000000").starts
                == ["20240101T090000", "20241230T090000", "20251229T090000"])
        // The last week of 2024 (week 52, Monday 2024-12-23).
        #expect(starts("FREQ=YEARLY;BYWEEKNO=-1;BYDAY=MO", from: "20240101T090000", through: "20241231T000000").starts
                == ["20240101T090000", "20241223T090000"])
    }

    @Test("Rules that never match are diagnosed before any iteration, and cost nothing", arguments: [
        ("FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30", "BYMONTHDAY=30 is in no month of BYMONTH=2"),
        ("FREQ=DAILY;BYMONTH=4,6;BYMONTHDAY=31", "BYMONTHDAY=31 is in no month of BYMONTH=4,6"),
        ("FREQ=YEARLY;BYMONTH=1;BYYEARDAY=100", "BYYEARDAY=100 falls in no month of BYMONTH=1"),
        // Found by the fuzzer: it took seconds, spending the whole budget (Fuzz/regressions).
        ("FREQ=SECONDLY;BYSETPOS=-2", "BYSETPOS=-2 picks none of the 1 instance a SECONDLY period holds"),
        ("FREQ=MINUTELY;BYSECOND=0,30;BYSETPOS=3,-3", "BYSETPOS=3,-3 picks none of the 2 instances a MINUTELY period holds"),
        ("FREQ=HOURLY;BYMINUTE=0,30;BYSECOND=0,1;BYSETPOS=5", "BYSETPOS=5 picks none of the 4 instances a HOURLY period holds"),
    ])
    func neverMatches(rule: String, reason: String) {
        let result = starts(rule, from: "20240101T000000")
        #expect(result.starts == ["20240101T000000"])  // DTSTART is still the first instance
        #expect(result.problems == [.impossible(reason)])
    }

    @Test("A rule that matches rarely is bounded by its budget of steps, not by the results it finds")
    func budget() throws {
        // February 29th on a Monday at 03:00:00, a SECONDLY rule: whole days that cannot match are
        // stepped over in one step each, so 77 years cost about 28,000 steps.
        let rare = starts("FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;BYHOUR=3;BYMINUTE=0;BYSECOND=0",
                          from: "20240101T000000", through: "21001231T000000")
        #expect(rare.starts == ["20240101T000000", "20440229T030000", "20720229T030000"])
        #expect(rare.problems.isEmpty)
        // Every 168 hours from a Monday never lands on a Tuesday; nothing in the parts alone says so.
        let rule = try RecurrenceRule(parsing: "FREQ=HOURLY;INTERVAL=168;BYDAY=TU")
        #expect(rule.impossibility == nil)
        var iterator = RecurrenceIterator(rule: rule, dtstart: local("20240101T000000"), isDate: false, stepBudget: 1_000)
        #expect(iterator.next() == nil)
        #expect(iterator.isOverBudget)
        #expect(iterator.steps == 1_001)
        // Every other second, at second 1 of a minute: never, and nothing says so before iterating.
        let endless = starts("FREQ=SECONDLY;INTERVAL=2;BYSECOND=1", from: "20240101T000000")
        #expect(endless.starts == ["20240101T000000"])
        #expect(endless.problems == [.overBudget(steps: RuleIterator.minimumStepBudget)])
    }

    @Test("Rules RFC 5545 does not allow are read as nothing, and say which part is wrong", arguments: [
        ("FREQ=MINUTELY;BYDAY=2SA", "BYDAY=2SA: a weekday with an ordinal is only allowed with FREQ=MONTHLY, or YEARLY without BYWEEKNO (RFC 5545 3.3.10)"),
        ("FREQ=HOURLY;BYDAY=5SA", "BYDAY=5SA: a weekday with an ordinal is only allowed with FREQ=MONTHLY, or YEARLY without BYWEEKNO (RFC 5545 3.3.10)"),
        ("FREQ=DAILY;COUNT=4294967297", ""),
        ("FREQ=DAILY;COUNT=99999999999999999999", "COUNT=99999999999999999999 is out of range (1...9223372036854775807)"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH=13 is out of range (1...12)"),
        ("FREQ=YEARLY;BYWEEKNO=54", "BYWEEKNO=54 is out of range (-53...53)"),
        ("FREQ=DAILY;COUNT=2;UNTIL=20240101", "COUNT and UNTIL are both given (RFC 5545 allows one)"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0 is out of range (1...2147483647)"),
        ("BYDAY=MO", "FREQ is missing"),
        ("FREQ=FORTNIGHTLY", "FREQ=FORTNIGHTLY is not a frequency"),
    ])
    func unreadable(rule: String, reason: String) {
        let result = starts(rule, from: "20240101T000000", through: "20240110T000000")
        if reason.isEmpty {
            // A COUNT beyond 32 bits is read exactly (libical wraps 4294967297 to 1): ten days, not one.
            #expect(result.starts.count == 10)
            #expect(result.problems.isEmpty)
        } else {
            #expect(result.starts == ["20240101T000000"])
            #expect(result.problems == [.unreadable(reason)])
        }
    }

    @Test("Parts a frequency does not take only limit its days, with a warning", arguments: [
        ("FREQ=WEEKLY;BYMONTHDAY=1,8", ["20240101T000000", "20240108T000000"]),
        ("FREQ=DAILY;BYWEEKNO=2", (8...10).map { String(format2: "202401%02dT000000", $0) }),
    ])
    func misplacedParts(rule: String, expected: [String]) {
        let result = starts(rule, from: "20240101T000000", through: "20240110T235959")
        #expect(result.starts.filter { $0 != "20240101T000000" } == expected.filter { $0 != "20240101T000000" })
        #expect(result.problems.count == 1)
    }

    @Test("The cap counts the window's own instances; the margin days have their own")
    func capCountsTheWindow() {
        let result = RuleIterator.starts(
            rule: "FREQ=DAILY", dtstart: local("20240101T100000"), isDate: false, clock: .floating,
            window: local("20240108T000000")...local("20240122T235959"), counted: day("2024-01-10")...day("2024-01-20"), cap: 3)
        #expect(result.starts.map(compact) == ["20240108T100000", "20240109T100000", "20240110T100000", "20240111T100000", "20240112T100000"])
        #expect(result.problems == [.capped(3)])
    }
}

extension String {
    /// `String(format:)` for the integer patterns these tests use, without Foundation.
    init(format2 pattern: String, _ value: Int) {
        var result = pattern
        if let range = result.range(of: "%02d") {
            let digits = String(value)
            result.replaceSubrange(range, with: (digits.count < 2 ? "0" : "") + digits)
        }
        self = result
    }
}

@Suite("Recurrence ids and instance session ids")
struct RecurrenceIDTextTests {
    /// The texts as they were pieced together before ids were written in one string.
    private static func pieced(_ local: LocalDateTime, isDate: Bool, isUTC: Bool) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let (year, month, day) = local.day.components
        let date = pad(year, 4) + pad(month, 2) + pad(day, 2)
        if isDate { return date }
        let (hour, minute, second) = local.timeOfDay
        return date + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2) + (isUTC ? "Z" : "")
    }

    @Test("Each form, at the edges of the day and of the years written with four digits", arguments: [
        (2024, 3, 1, 9, 30, 0), (2024, 2, 29, 23, 59, 59), (2025, 1, 1, 0, 0, 0), (1970, 1, 1, 0, 0, 0),
        (0, 1, 1, 0, 0, 0), (9999, 12, 31, 23, 59, 59), (10_000, 1, 1, 12, 0, 0), (-1, 12, 31, 1, 2, 3),
        (-2024, 6, 15, 7, 8, 9),
    ])
    func forms(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) throws {
        let local = try #require(LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
        for (isDate, isUTC) in [(true, false), (false, true), (false, false)] {
            #expect(SessionResolver.recurrenceIDText(local, isDate: isDate, isUTC: isUTC) == Self.pieced(local, isDate: isDate, isUTC: isUTC))
        }
        let rules = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
        let expected: [(SeriesClock, String)] = [
            (.date, Self.pieced(local, isDate: true, isUTC: false)), (.utc, Self.pieced(local, isDate: false, isUTC: true)),
            (.floating, Self.pieced(local, isDate: false, isUTC: false)), (.zoned(rules), Self.pieced(local, isDate: false, isUTC: false)),
        ]
        for (clock, text) in expected {
            #expect(SessionResolver.instanceID(uid: "ü-run@example.com", local, clock: clock) == "ü-run@example.com/" + text)
        }
        #expect(SessionResolver.instanceID(uid: "", local, clock: .utc) == "/" + Self.pieced(local, isDate: false, isUTC: true))
    }

    @Test("The examples: 2024-03-01 09:30 as a date, in UTC and on a wall clock")
    func examples() throws {
        let local = try #require(LocalDateTime(year: 2024, month: 3, day: 1, hour: 9, minute: 30))
        #expect(SessionResolver.recurrenceIDText(local, isDate: true, isUTC: false) == "20240301")
        #expect(SessionResolver.recurrenceIDText(local, isDate: false, isUTC: true) == "20240301T093000Z")
        #expect(SessionResolver.instanceID(uid: "run@example.com", local, clock: .utc) == "run@example.com/20240301T093000Z")
        #expect(SessionResolver.instanceID(uid: "run@example.com", local, clock: .floating) == "run@example.com/20240301T093000")
    }
}

extension RecurrenceIterator.DateParts {
    /// The next day's parts.
    fileprivate func advanced() -> Self {
        var next = self
        next.advance()
        return next
    }
}
