import Foundation
import CalendarDays

/// A wall-clock time from its fields.
func wall(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> LocalDateTime {
    LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)!
}

/// JSON with sorted keys, as a string.
func sortedJSON<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
