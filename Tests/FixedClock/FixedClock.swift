import CalendarDays
public import ICalendar

/// The instant the tests score at where the instant does not matter to them: 2026-12-07 00:00 UTC.
/// A fixed instant, never the clock: the library takes "now" as a parameter, and a test gives the
/// same answer on any day it runs (issue 50). One definition for every test target.
public let testNow: Int64 = 1_796_601_600

/// Recurring events expanded through a year after ``testNow``'s day, where the window does not
/// matter to a test.
public let testExpansion = RecurrenceExpansion.untilNextYear(today: Day(daysSince1970: Int(testNow / 86_400)))
