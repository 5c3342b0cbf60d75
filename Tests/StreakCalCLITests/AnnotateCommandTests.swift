import Foundation
import Testing

@Suite("streakcal annotate")
struct AnnotateCommandTests {
    @Test("Writes the annotated calendar to -o; annotating that file again gives the same days, not twice as many")
    func writeAndReannotate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("annotate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.ics").path
        let second = directory.appendingPathComponent("second.ics").path
        let arguments = ["--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29", "--mark-sessions"]
        let run = try streakcal(["annotate", fixture("tutorial-sample.ics"), "-o", first] + arguments)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
        let again = try streakcal(["annotate", first, "-o", second] + arguments)
        #expect(again.status == 0)
        let firstText = try String(contentsOfFile: first, encoding: .utf8)
        let secondText = try String(contentsOfFile: second, encoding: .utf8)
        func annotations(_ text: String) -> [String] {
            text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:2024-") }
        }
        #expect(annotations(firstText) == ["2024-02-20", "2024-02-24", "2024-02-25", "2024-02-26"].map {
            "UID:\($0).fscalendar-streaks-tutorial-sample@streakcal.local"
        })
        #expect(annotations(secondText) == annotations(firstText))
        #expect(secondText.components(separatedBy: "X-STREAKCAL-DAY-STATUS").count == firstText.components(separatedBy: "X-STREAKCAL-DAY-STATUS").count)
        // The annotated file reports the same days as the original.
        let original = try streakcal(["report", fixture("tutorial-sample.ics"), "--format", "json"] + arguments.dropLast())
        let annotated = try streakcal(["report", second, "--format", "json"] + arguments.dropLast())
        #expect(try jsonObject(annotated.standardOutput)["days"] as? NSArray == jsonObject(original.standardOutput)["days"] as? NSArray)
    }

    @Test("A failed write leaves nothing behind and says why")
    func failedWrite() throws {
        let target = "/nonexistent-directory/annotated.ics"
        let run = try streakcal(["annotate", fixture("tutorial-sample.ics"), "--tz", "UTC", "--to", "2024-02-29", "-o", target])
        #expect(run.status == 1)
        #expect(run.standardError.contains("streakcal: error: cannot write \(target)"))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("--uid-domain replaces the domain of the UIDs")
    func uidDomain() throws {
        let run = try streakcal(["annotate", fixture("tutorial-sample.ics"), "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-20",
                                 "--uid-domain", "Practice.Example.ORG"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("UID:2024-02-20.fscalendar-streaks-tutorial-sample@practice.example.org\r\n"))
    }

    @Test("A --uid-domain that is no DNS name is a usage error that says why", arguments: [
        ("a..b", "a dot must stand between two labels"), ("under_score.com", "the label 'under_score' has a character other than"),
        ("-x.org", "the label '-x' starts or ends with a hyphen"), ("", "the domain is empty"),
    ])
    func badUIDDomain(domain: String, reason: String) throws {
        let run = try streakcal(["annotate", fixture("tutorial-sample.ics"), "--uid-domain", domain])
        #expect(run.status == 64)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("Error: --uid-domain '\(domain)' is not a domain name: \(reason)"), "\(run.standardError)")
    }

    @Test("--only-annotations writes the day events alone; with --mark-sessions it is a usage error")
    func onlyAnnotations() throws {
        let run = try streakcal(["annotate", fixture("tutorial-sample.ics"), "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29",
                                 "--only-annotations"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.components(separatedBy: "\r\n")
        #expect(Array(lines.prefix(5)) == ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//StreakCal//StreakCal 0.1.0//EN",
                                           "CALSCALE:GREGORIAN", "X-WR-CALNAME:FSCalendar streaks tutorial sample (StreakCal)"])
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 4)
        #expect(lines.filter { $0 == "X-STREAKCAL-ANNOTATION:day" }.count == 4)
        #expect(!run.standardOutput.contains("X-POINTS"))
        // The annotations are no sessions.
        let report = try streakcal(["report", "-", "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29"], input: run.standardOutput)
        #expect(report.standardOutput.contains("Points: 0 in 0 sessions"), "\(report.standardOutput)")

        let both = try streakcal(["annotate", fixture("tutorial-sample.ics"), "--only-annotations", "--mark-sessions"])
        #expect(both.status == 64)
        #expect(both.standardOutput.isEmpty)
        #expect(both.standardError.contains("Error: --mark-sessions marks the inputs' events, which --only-annotations leaves out"))
    }

    @Test("A Windows TZID without VTIMEZONE gets one: the annotated calendar reports the same days")
    func generatedZone() throws {
        let arguments = ["--tz", "Europe/Berlin", "--from", "2024-07-10", "--to", "2024-07-19", "--format", "json"]
        let run = try streakcal(["annotate", fixture("real-world-tzids.ics"), "--tz", "Europe/Berlin", "--from", "2024-07-10", "--to", "2024-07-19"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\n"))
        #expect(run.standardOutput.contains("BEGIN:VTIMEZONE\r\nTZID:(UTC+01:00) Amsterdam\\, Berlin\\, Bern\\, Rome\\, Stockholm\\, Vienna\r\n"))
        #expect(!run.standardOutput.contains("TZID:Customized Time Zone"))
        #expect(run.standardError.contains(
            "real-world-tzids.ics:47:1: warning: TZID \"Customized Time Zone\" is defined by no VTIMEZONE and names no time zone StreakCal knows"))
        let original = try streakcal(["report", fixture("real-world-tzids.ics")] + arguments)
        let annotated = try streakcal(["report", "-"] + arguments, input: run.standardOutput)
        #expect(try jsonObject(annotated.standardOutput)["days"] as? NSArray == jsonObject(original.standardOutput)["days"] as? NSArray)
    }
}
