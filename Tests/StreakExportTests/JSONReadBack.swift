import Foundation
import StreakExport
import Streaks
import Testing

/// Holds `json.render()` to the values it was made of, read back with `JSONSerialization`.
///
/// The report's JSON is written in one place, the hand-written writer (issue 51.5: no second,
/// `Encodable` copy of its shape). What it writes is checked here against the values: each member
/// whose type has a `Codable` form (streaks, diagnostics, sources, summaries) is that form as
/// `JSONEncoder` gives it, so that the report and the batch's summary show a diagnostic alike; the
/// days, totals and scalars are the report's figures. `JSONWriterTests` hold the writer's layout and
/// escapes to `JSONEncoder`'s, byte for byte.
func expectReadsBack(_ json: JSONReport, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let text = json.render()
    #expect(text.hasPrefix("{\n  \"") && text.hasSuffix("\n}\n"), "pretty-printed, ending with a newline", sourceLocation: sourceLocation)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], sourceLocation: sourceLocation)
    let codable = { (value: any Encodable) throws -> Data in try canonical(JSONSerialization.jsonObject(with: JSONEncoder().encode(value), options: .fragmentsAllowed)) }
    func expectMember(_ key: String, is value: any Encodable) throws {
        let member = try #require(object[key], "no \(key)", sourceLocation: sourceLocation)
        #expect(try canonical(member) == codable(value), "\(key): its Codable form", sourceLocation: sourceLocation)
    }

    #expect(object["generator"] as? String == json.generator, sourceLocation: sourceLocation)
    #expect(object["timeZone"] as? String == json.timeZone, sourceLocation: sourceLocation)
    #expect(object["requiredPoints"] as? Int == json.requiredPoints, sourceLocation: sourceLocation)
    #expect(object["dayStart"] as? String == json.dayStart, sourceLocation: sourceLocation)
    #expect(object["from"] as? String == json.from.description, sourceLocation: sourceLocation)
    #expect(object["to"] as? String == json.to.description, sourceLocation: sourceLocation)
    try expectMember("currentStreak", is: json.currentStreak)
    try expectMember("longestStreak", is: json.longestStreak)
    try expectMember("diagnostics", is: json.diagnostics)
    try expectMember("sources", is: json.sources.calendars)
    try expectDays(object["days"], are: json.report, sourceLocation: sourceLocation)

    let totals = try #require(object["totals"] as? [String: Int], sourceLocation: sourceLocation)
    let expected = ["points": json.totals.points, "sessions": json.totals.sessions, "daysMet": json.totals.daysMet,
                    "daysPartial": json.totals.daysPartial, "daysNone": json.totals.daysNone]
    #expect(totals.filter { expected[$0.key] != nil } == expected, sourceLocation: sourceLocation)

    let extended = !json.report.rules.isSimple || !json.habits.isEmpty
    #expect((object["bestStreaks"] != nil) == extended, sourceLocation: sourceLocation)
    if extended { try expectMember("bestStreaks", is: json.report.bestStreaks) }
    if let periods = object["periods"] as? [[String: Any]] {
        #expect(periods.map { $0["status"] as? String } == json.report.periods.map(\.status.rawValue), sourceLocation: sourceLocation)
        #expect(periods.map { $0["start"] as? String } == json.report.periods.map(\.days.lowerBound.description), sourceLocation: sourceLocation)
    }

    #expect((object["habits"] != nil) == !json.habits.isEmpty, sourceLocation: sourceLocation)
    guard !json.habits.isEmpty else { return }
    try expectMember("unmatchedSummaries", is: json.unmatchedSummaries)
    #expect(totals["unmatchedSessions"] == json.unmatchedSessions, sourceLocation: sourceLocation)
    let habits = try #require(object["habits"] as? [[String: Any]], sourceLocation: sourceLocation)
    #expect(habits.map { $0["name"] as? String } == json.habits.map(\.name), sourceLocation: sourceLocation)
    for (section, habit) in zip(habits, json.habits) {
        #expect(section["filter"] as? String == habit.habit.filter.description, sourceLocation: sourceLocation)
        #expect(try canonical(section["longestStreak"] as Any) == codable(habit.report.longestStreak), sourceLocation: sourceLocation)
        try expectDays(section["days"], are: habit.report, sourceLocation: sourceLocation)
    }
}

/// `days` as the report's days: date, points, sessions and status; under rules, what each required
/// and its fraction (`null` where none is due), rounded to 4 decimals.
private func expectDays(_ member: Any?, are report: StreakReport, sourceLocation: Testing.SourceLocation) throws {
    let days = try #require(member as? [[String: Any]], sourceLocation: sourceLocation)
    #expect(days.count == report.days.count, sourceLocation: sourceLocation)
    let extended = days.first?["required"] != nil
    for (day, total) in zip(days, report.days) {
        #expect(day["date"] as? String == total.date.description, sourceLocation: sourceLocation)
        #expect(day["points"] as? Int == total.points, sourceLocation: sourceLocation)
        #expect(day["sessions"] as? Int == total.sessions, sourceLocation: sourceLocation)
        #expect(day["status"] as? String == total.status.rawValue, sourceLocation: sourceLocation)
        guard extended else { continue }
        #expect(day["required"] as? Int == total.required, sourceLocation: sourceLocation)
        if let fraction = total.fraction {
            #expect(abs((day["fraction"] as? Double ?? .nan) - fraction) < 0.000_051, "\(total.date)", sourceLocation: sourceLocation)
        } else {
            #expect(day["fraction"] is NSNull, "\(total.date)", sourceLocation: sourceLocation)
        }
    }
}

/// A JSON value in one form (keys sorted), so that two readings of the same JSON compare equal.
private func canonical(_ value: Any) throws -> Data {
    try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
}
