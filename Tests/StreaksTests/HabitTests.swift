import Streaks
import Testing

private func session(_ summary: String, categories: [String] = [], properties: [String: String] = [:]) -> Session {
    Session(id: summary, start: .date(ymd(2024, 1, 1)), end: .date(ymd(2024, 1, 2)), points: 10,
            summary: summary, categories: categories, properties: properties)
}

@Suite("Habits: session filters")
struct SessionFilterTests {
    @Test("Filters as text match what they say", arguments: [
        ("summary:piano", "Piano scales", [], [:], true),
        ("summary:piano", "Guitar", [], [:], false),
        ("summary:\"morning run\"", "Long Morning Run", [], [:], true),
        ("summary~^Run\\b", "Run 5k", [], [:], true),
        ("summary~^Run\\b", "Running", [], [:], false),
        ("categories:piano", "x", ["Music", "PIANO"], [:], true),
        ("category:piano", "x", ["pianos"], [:], false),
        ("property:X-HABIT", "x", [], ["X-HABIT": "anything"], true),
        ("property:x-habit=Piano", "x", [], ["X-HABIT": "piano"], true),
        ("property:X-HABIT=piano", "x", [], ["X-HABIT": "guitar"], false),
        ("categories:piano or summary:scales", "Scales", [], [:], true),
        ("categories:piano and not summary:warm-up", "Warm-up", ["piano"], [:], false),
        ("not (summary:a or summary:b) and categories:c", "zzz", ["c"], [:], true),
        ("summary:x or summary:y and categories:z", "x", [], [:], true),   // and binds tighter
        ("all", "anything", [], [:], true),
    ] as [(String, String, [String], [String: String], Bool)])
    func matching(text: String, summary: String, categories: [String], properties: [String: String], expected: Bool) throws {
        let filter = try SessionFilter(parsing: text)
        #expect(filter.matches(session(summary, categories: categories, properties: properties)) == expected)
        // The text form reads back to the same filter.
        #expect(try SessionFilter(parsing: filter.description) == filter)
    }

    @Test("Bad filters say what and where", arguments: [
        ("colour:red", 0, "'colour' is not summary, categories or property"),
        ("summary:a and", 13, "a condition is expected here"),
        ("(summary:a", 0, "has no ')'"),
        ("summary~(", 8, "is not a regular expression"),
        ("categories~x", 0, "only summary takes a regular expression"),
        ("summary:a summary:b", 10, "join conditions with 'and' or 'or'"),
        ("summary:\"open", 8, "the quote here is not closed"),
        ("property:", 9, "property: takes a property name"),
    ] as [(String, Int, String)])
    func errors(text: String, offset: Int, message: String) {
        #expect {
            try SessionFilter(parsing: text)
        } throws: { error in
            guard let error = error as? StreakRulesSyntaxError else { return false }
            return error.offset == offset && error.message.contains(message)
        }
    }

    @Test("A habit is NAME=FILTER; its errors count from the start of the whole text")
    func habits() throws {
        let habit = try Habit(parsing: "Piano practice=categories:piano")
        #expect(habit.name == "Piano practice")
        #expect(habit.filter == .category("piano"))
        #expect(SessionFilter.and(.property("x-a", value: nil), .not(.property("X-B", value: "1"))).propertyNames == ["X-A", "X-B"])
        #expect(throws: StreakRulesSyntaxError("'colour' is not summary, categories or property", offset: 6)) {
            try Habit(parsing: "Piano=colour:red")
        }
        #expect(throws: StreakRulesSyntaxError("a habit is NAME=FILTER, such as Piano=categories:piano", offset: 0)) {
            try Habit(parsing: "categories:piano")
        }
    }
}
