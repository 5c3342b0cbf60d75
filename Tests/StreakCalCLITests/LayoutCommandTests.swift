import Foundation
import Testing

@Suite("streakcal layout")
struct LayoutCommandTests {
    @Test("JSON: the contract's shape; widths add up, frames stack, hidden cells keep their dates")
    func json() throws {
        let run = try streakcal(["layout", "--month", "2024-02", "--months", "2", "--width", "352", "--hide-out-of-month", "--format", "json"])
        #expect(run.status == 0, "\(run.standardError)")
        let document = try jsonObject(run.standardOutput)
        #expect(document["width"] as? Int == 352)
        let months = try #require(document["months"] as? [[String: Any]])
        #expect(months.map { $0["month"] as? Int } == [2, 3])
        #expect(months.map { $0["year"] as? Int } == [2024, 2024])
        let frames = months.compactMap { $0["frame"] as? [String: Int] }
        #expect(frames.map { $0["y"] } == [0, frames[0]["height"]])
        let weeks = try #require(months.first?["weeks"] as? [[[String: Any]]])
        #expect(weeks.count == 5)
        #expect(weeks.allSatisfy { $0.count == 7 })
        let firstRow = weeks[0]
        #expect(firstRow.map { $0["date"] as? String } == ["2024-01-28", "2024-01-29", "2024-01-30", "2024-01-31", "2024-02-01", "2024-02-02", "2024-02-03"])
        #expect(firstRow.map { $0["inMonth"] as? Bool } == [false, false, false, false, true, true, true])
        let widths = firstRow.compactMap { ($0["frame"] as? [String: Int])?["width"] }
        #expect(widths.reduce(0, +) == 352)
        #expect((widths.max() ?? 0) - (widths.min() ?? 0) <= 1)
        let xs = firstRow.compactMap { ($0["frame"] as? [String: Int])?["x"] }
        #expect(zip(xs, widths).dropLast().map { $0 + $1 } == Array(xs.dropFirst()))
    }

    @Test("Text: cal's grid for the month and first weekday; week mode is one row")
    func text() throws {
        let run = try streakcal(["layout", "--month", "2015-02", "--hide-out-of-month"])
        #expect(run.standardOutput == [
            "   February 2015",
            "Su Mo Tu We Th Fr Sa",
            " 1  2  3  4  5  6  7",
            " 8  9 10 11 12 13 14",
            "15 16 17 18 19 20 21",
            "22 23 24 25 26 27 28",
            "",
        ].joined(separator: "\n"))
        let week = try streakcal(["layout", "--month", "2024-02", "--mode", "week", "--date", "2024-02-20", "--first-weekday", "monday"])
        #expect(week.standardOutput.components(separatedBy: "\n").dropFirst(2).first == "19 20 21 22 23 24 25")
        // --first-weekday takes a weekday as --week-starts does: three letters or the name, any case.
        for spelling in ["mon", "MON", "Monday"] {
            let same = try streakcal(["layout", "--month", "2024-02", "--mode", "week", "--date", "2024-02-20", "--first-weekday", spelling])
            #expect(same.standardOutput == week.standardOutput, "\(spelling)")
        }
        let refused = try streakcal(["layout", "--month", "2024-02", "--first-weekday", "mo"])
        #expect(refused.status == 64)
    }

    @Test("Coloured by a calendar: marks in text, fills in SVG")
    func withCalendar() throws {
        let text = try streakcal(["layout", "--month", "2024-02", "--calendar", fixture("tutorial-sample.ics"), "--tz", "UTC", "--hide-out-of-month"])
        #expect(text.standardOutput.contains("18·19·20✓21·22·23·24◔"))
        let svg = try streakcal(["layout", "--month", "2024-02", "--calendar", fixture("tutorial-sample.ics"), "--tz", "UTC", "--format", "svg"])
        #expect(svg.standardOutput.contains("<g id=\"day-2024-02-20\"><title>Tuesday, 20 February 2024: met, 100/100 points</title><rect"))
        #expect(svg.standardOutput.contains("fill=\"#0A5C45\""))
        #expect(svg.standardOutput.contains("fill=\"#C6E8A8\""))
        let tutorial = try streakcal(["layout", "--month", "2024-02", "--calendar", fixture("tutorial-sample.ics"), "--tz", "UTC", "--format", "svg", "--palette", "tutorial"])
        #expect(tutorial.standardOutput.contains("fill=\"#1E8336\"") && tutorial.standardOutput.contains("fill=\"#D70015\""))
    }

    @Test("Bad arguments are one clear line and a non-zero exit", arguments: [
        (["layout", "--month", "2024-13"], "--month"),
        (["layout", "--month", "2024-02", "--width", "3"], "--width"),
        (["layout", "--month", "2024-02", "--rows", "seven"], "--rows"),
    ])
    func badArguments(_ arguments: [String], mentions: String) throws {
        let run = try streakcal(arguments)
        #expect(run.status != 0)
        #expect(run.standardError.contains(mentions))
    }
}

@Suite("streakcal report formats")
struct ReportFormatCommandTests {
    @Test("csv, md, svg and html are written; colours and the first weekday are options", arguments: [
        ("csv", "date,points,sessions,status\r\n2024-02-20,100,1,met\r\n"),
        ("md", "| Su | Mo | Tu | We | Th | Fr | Sa |"),
        ("svg", "<svg xmlns=\"http://www.w3.org/2000/svg\""),
        ("html", "<!DOCTYPE html>"),
    ])
    func formats(_ format: String, expected: String) throws {
        let run = try streakcal(["report", fixture("tutorial-sample.ics"), "--tz", "UTC", "--to", "2024-02-29", "--format", format])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains(expected))
    }

    @Test("Colour options change the fills; a bad colour is a usage error")
    func colours() throws {
        let svg = try streakcal(["report", fixture("tutorial-sample.ics"), "--tz", "UTC", "--to", "2024-02-29", "--format", "svg", "--met-color", "#0000FF"])
        #expect(svg.standardOutput.contains("fill=\"#0000FF\""))
        #expect(!svg.standardOutput.contains("fill=\"#1E8336\""))
        let bad = try streakcal(["report", fixture("tutorial-sample.ics"), "--met-color", "blue"])
        #expect(bad.status != 0)
        #expect(bad.standardError.contains("--met-color"))
    }
}
