import Foundation
import Streaks

/// A day from its fields, so that tests that are not about parsing do not depend on `Day(String)`.
func ymd(_ year: Int, _ month: Int, _ dayOfMonth: Int) -> Day {
    try! Day(year: year, month: month, day: dayOfMonth)
}

/// A wall-clock time from its fields.
func wall(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> LocalDateTime {
    LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)!
}

/// Seconds since 1970 UTC of a UTC date and time, computed with Foundation's Gregorian calendar
/// (an oracle independent of `Day`).
func utcInstant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    return Int64(calendar.date(from: components)!.timeIntervalSince1970)
}

/// Foundation's offset, in seconds east of UTC, of `zone` at `instant`.
func foundationOffset(_ zone: TimeZone, _ instant: Int64) -> Int {
    zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
}

/// JSON with sorted keys, as a string.
func sortedJSON<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
