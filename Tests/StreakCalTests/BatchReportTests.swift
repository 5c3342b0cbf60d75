import Foundation
@testable import StreakCal
import Testing
import FixedClock

private let batchFixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

private func batchFixture(_ name: String) -> String {
    batchFixtures.appendingPathComponent(name).path
}

/// A fresh folder under the temporary directory, removed after `body`.
func withTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// Writes `files` (relative path → fixture name) under `folder`.
func populate(_ folder: URL, _ files: [String: String]) throws {
    for (path, fixture) in files {
        let target = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: batchFixture(fixture), toPath: target.path)
    }
}

private func source(_ fixture: String, named name: String? = nil) throws -> CalendarSource {
    .bytes(try CalendarSource.file(batchFixture(fixture)).read(), name: name ?? fixture)
}

/// The report options the tests use: UTC days, a fixed last day.
private let settings = ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 12, day: 31))

/// A name that stays in its folder: one component, not hidden, not `.` or `..`.
private func isPlainFileName(_ name: String) -> Bool {
    !name.isEmpty && !name.contains("/") && !name.contains("\0") && !name.hasPrefix(".") && name != ".." && name.utf8.count <= 200
}

@Suite("Batch output names")
struct BatchOutputNameTests {
    @Test("Names are the path relative to the folder given, folders joined with __, .ics dropped; a clash gets its own path's hash", arguments: [
        ([String](), [String]()),
        (["run.ics"], ["run"]),
        (["a/x.ics", "b/x.ics"], ["a__x", "b__x"]),
        (["a/x.ics", "b/x.ics", "b/X.ICS"], ["a__x", "b__x", "b__X-" + StableHash.hexadecimal("b/X.ICS")]),
        (["b/X.ICS", "b/x.ics"], ["b__X-" + StableHash.hexadecimal("b/X.ICS"), "b__x"]),
        (["x.ics", "x-2.ics"], ["x", "x-2"]),
        (["one/run.ics", "two/deep/run.Ics", "two/notes.txt"], ["one__run", "two__deep__run", "two__notes.txt"]),
        (["./a.ics", "b.ics"], ["a", "b"]),
        (["Work.ics", "work.ics"], ["Work-" + StableHash.hexadecimal("Work.ics"), "work"]),
        (["a b.ics", "a_b.ics"], ["a_b-" + StableHash.hexadecimal("a b.ics"), "a_b"]),
    ])
    func names(paths: [String], expected: [String]) {
        #expect(BatchInput.outputNames(for: paths) == expected)
    }

    @Test("A name depends on its own path alone: the same in every company, order and subset of inputs")
    func ownPathAlone() {
        let paths = ["x/a.ics", "x/A.ICS", "x/a b.ics", "x/a_b.ics", "y/a.ics", "Work.ics", "work.ics", "summary.ics", "SUMMARY.ics"]
        let all = Dictionary(uniqueKeysWithValues: zip(paths, BatchInput.outputNames(for: paths, reserving: ["summary.json"], fileExtension: "json")))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let subset = paths.shuffled(using: &generator).prefix(Int.random(in: 1...paths.count, using: &generator))
            let names = BatchInput.outputNames(for: Array(subset), reserving: ["summary.json"], fileExtension: "json")
            #expect(Set(names.map { $0.lowercased() }).count == names.count, "\(subset)")
            for (path, name) in zip(subset, names) {
                // A path that spells its name exactly keeps it whatever else is given; any other keeps
                // its plain name or, in a clash, the one with its hash: never a counter from the order.
                if BatchInput.isExact(stem: BatchInput.stem(ofRelativePath: path), of: path), path != "summary.ics" {
                    #expect(name == all[path], "\(path) in \(subset)")
                } else {
                    #expect(name == BatchInput.stem(ofRelativePath: path) || name == all[path], "\(path) in \(subset)")
                }
            }
        }
    }

    @Test("Crafted names become plain file names", arguments: [
        ("..ics", "_"), ("...ics", "__"), (".hidden.ics", "_hidden"), (".ics", "_ics"),
        ("a b\\c:d\u{7}\n.ics", "a_b_c_d__"), ("λόγος.ics", "λόγος"), ("../../..", "calendar"),
        ("" + String(repeating: "long", count: 100) + ".ics", String(repeating: "long", count: 37) + "lo"),
    ])
    func crafted(path: String, expected: String) {
        #expect(BatchInput.outputNames(for: [path]) == [expected])
    }

    @Test("A path component keeps letters, digits and -_.+@, and nothing else")
    func sanitizedComponents() {
        #expect(BatchInput.sanitized("a b\\c:d") == "a_b_c_d")
        #expect(BatchInput.sanitized("Z-9_.+@,~") == "Z-9_.+@,_")
        #expect(BatchInput.sanitized("Run (2024) #1!") == "Run__2024___1_")
        #expect(BatchInput.sanitized("λόγος\u{3000}x") == "λόγος_x")  // an ideographic space is whitespace
    }

    @Test("A report's path in the output folder is the one URL gives, without asking the file system each time")
    func outputPaths() {
        let folders = ["out", "out/", "./out", "/", "", "/tmp/x/../y", "a b", "caf\u{E9}/r\u{E9}sum\u{E9}", "/dev/shm/sb//"]
        let names = ["a.json", "a b.json", "a%20b.json", "\u{FC}.json", "x:y.json", "#.json", "?.json", ".hidden.json", "a__b__c-2.csv"]
        for folder in folders {
            let prefix = OutputDirectory.prefix(for: folder)
            for name in names {
                #expect(prefix + name == URL(fileURLWithPath: folder).appendingPathComponent(name).path, "\(folder) \(name)")
            }
        }
    }

    @Test("A folder is listed by name, sorted by bytes, each entry identified as stat of its whole path identifies it")
    func listing() throws {
        let folder = NSTemporaryDirectory() + "listing-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["b.ics", "A.ics", "\u{E9}.ics", "a.ics"] { _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.ics", withDestinationPath: "a.ics")
        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling.ics", withDestinationPath: "gone.ics")
        let listed = try CalendarWalk.list(folder).get()
        #expect(listed.map(\.name) == ["A.ics", "a.ics", "b.ics", "dangling.ics", "link.ics", "sub", "\u{E9}.ics"])
        for (name, found) in listed {
            let byPath = CalendarWalk.identify(folder + "/" + name)
            #expect(found?.0 == byPath?.0 && found?.kind == byPath?.kind, "\(name)")
        }
        #expect(listed.first { $0.name == "dangling.ics" }?.found == nil)
        #expect(listed.first { $0.name == "sub" }?.found?.kind == S_IFDIR)
        #expect(listed.first { $0.name == "link.ics" }?.found?.0 == listed.first { $0.name == "a.ics" }?.found?.0)  // a link is followed
        #expect(throws: POSIXError(.ENOENT)) { try CalendarWalk.list(folder + "/missing").get() }
    }

    @Test("Calendar files end in .ics in any case of its letters", arguments: [
        ("x.ics", true), ("X.ICS", true), ("a.iCs", true), (".ics", true), ("é.ics", true), ("ics", false), ("x.icsx", false),
        ("x\u{0E}ics", false), ("x.ics\u{301}", false), ("x.İCS", false), ("", false),
    ])
    func calendarExtension(name: String, expected: Bool) {
        #expect(BatchInput.hasCalendarExtension(name) == expected)
    }

    @Test("Folder entries sort by their UTF-8 bytes, as the UTF-8 views compare them")
    func byteOrder() {
        let pieces = ["", "a", "B", "calendar-02", "calendar-0249.ics", "é", "e\u{301}", "Z", "~", "\u{7F}", "😀", "x.ics", "0"]
        var generator = SystemRandomNumberGenerator()
        var names = pieces
        for _ in 0..<300 {
            names.append((0..<Int(generator.next() % 4)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
        }
        for left in names {
            for right in names.prefix(60) {
                #expect(precedesByBytes(left, right) == left.utf8.lexicographicallyPrecedes(right.utf8), "\(left) < \(right)")
                #expect(precedesByBytes(right, left) == right.utf8.lexicographicallyPrecedes(left.utf8), "\(right) < \(left)")
            }
        }
    }

    @Test("Names taken are compared ignoring case")
    func caseFolding() {
        #expect(BatchInput.distinct(["A", "a", "SUMMARY", "b"], reserving: ["summary.json"], suffix: ".json") == ["A", "a-2", "SUMMARY-2", "b"])
        #expect(BatchInput.distinct(["ÉTÉ", "été"], reserving: [], suffix: "") == ["ÉTÉ", "été-2"])
    }

    @Test("batch-name-clash-quadratic.sh: names made distinct from where each stem's search left off are those a search from -2 gives")
    func distinctAsFromTheStart() {
        /// The search from the start for each stem, as names were made before.
        func fromTheStart(_ stems: [String], reserving: Set<String>, suffix: String) -> [String] {
            var taken = Set(reserving.map { $0.lowercased() })
            return stems.map { stem in
                var name = stem, counter = 1
                while !taken.insert((name + suffix).lowercased()).inserted {
                    counter += 1
                    name = "\(stem)-\(counter)"
                }
                return name
            }
        }
        var generator = SystemRandomNumberGenerator()
        let pool = ["a", "A", "a-2", "a-3", "A-2-2", "b", "summary", "a-2-2"]
        for _ in 0..<300 {
            let stems = (0..<Int.random(in: 0...30, using: &generator)).map { _ in pool.randomElement(using: &generator)! }
            let reserving: Set<String> = Bool.random(using: &generator) ? ["summary.json", "a-3.json"] : []
            #expect(BatchInput.distinct(stems, reserving: reserving, suffix: ".json") == fromTheStart(stems, reserving: reserving, suffix: ".json"), "\(stems)")
        }
        // 16,000 inputs with one stem: each gets the next counter.
        let many = BatchInput.distinct(Array(repeating: "weekly-training-log", count: 16_000), reserving: [], suffix: ".csv")
        #expect(many.last == "weekly-training-log-16000" && Set(many).count == 16_000)
    }

    @Test("A name is made safe: a dot at the start, nothing, too long", arguments: [
        ("", "calendar"), (".", "_"), ("..", "__"), (".a", "_a"), ("a.", "a."), ("x", "x"),
        (String(repeating: "a", count: 151), String(repeating: "a", count: 150)),
        (String(repeating: "é", count: 80), String(repeating: "é", count: 75)),
        ("." + String(repeating: "b", count: 200), "_" + String(repeating: "b", count: 149)),
    ])
    func safeNames(name: String, expected: String) {
        #expect(BatchInput.safeFileName(name) == expected)
    }

    @Test("Names from a walk are kept as they are: naming them again changes none", arguments: [ReportFormat.json, .csv, .text])
    func walkedNamesFinal(format: ReportFormat) throws {
        let folder = NSTemporaryDirectory() + "names-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["a/x.ics", "b/x.ics", "b/X.ICS", "b/x-2.ics", "summary.ics", "SUMMARY.ics", ".hidden.ics", "..ics", "c d/é.ics",
                     "deep/er/than/that.ics", String(repeating: "long", count: 60) + ".ics", "x.json.ics"] {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        }
        let walked = BatchReport(paths: [folder], format: format, now: testNow)
        let renamed = BatchReport(inputs: walked.inputs, format: format, now: testNow)
        #expect(walked.inputs.count == 12)
        #expect(walked.inputs.map(\.outputName) == renamed.inputs.map(\.outputName))
        #expect(Set(walked.inputs.map { $0.outputName.lowercased() }).count == 12)
        #expect(!walked.inputs.contains { walked.outputFileName(of: $0).lowercased() == BatchReport.summaryFileName })
    }

    @Test("Paths are split at / bytes, . and .. resolved by text")
    func components() {
        #expect(BatchInput.lexicalComponents(of: "a/./b/../c.ics", relativeTo: "/base") == ["base", "a", "c.ics"])
        #expect(BatchInput.lexicalComponents(of: "//x//y/", relativeTo: "/base") == ["x", "y"])
        #expect(BatchInput.lexicalComponents(of: "../../..", relativeTo: "/base") == [])
        #expect(BatchInput.lexicalComponents(of: "/a/\u{301}b/...", relativeTo: "/") == ["a", "\u{301}b", "..."])
    }

    @Test("Names of inputs from anywhere stay inside the output folder, distinct")
    func anywhere() {
        let paths = [
            "/in/..ics", "/in/...ics", "/in/.hidden.ics", "/in/.ics", "../../../etc/passwd.ics", "/etc/shadow", "..",
            "/in/a b\\c:d\u{7}.ics", "/in/" + String(repeating: "long", count: 100) + ".ics", "/in/λόγος.ics", "", "/",
        ]
        let names = BatchInput.outputNames(for: paths, fileExtension: "json")
        #expect(names.count == paths.count)
        for name in names { #expect(isPlainFileName(name), "\(name)") }
        #expect(Set(names.map { $0.lowercased() }).count == names.count)
    }

    @Test("The summary's name is never a report's")
    func reserved() {
        let names = BatchInput.outputNames(for: ["summary.ics", "SUMMARY.ics"], reserving: ["summary.json"], fileExtension: "json")
        #expect(names == ["summary-" + StableHash.hexadecimal("summary.ics"), "SUMMARY-" + StableHash.hexadecimal("SUMMARY.ics")])
        let csv = BatchInput.outputNames(for: ["summary.ics"], reserving: ["summary.json"], fileExtension: "csv")
        #expect(csv == ["summary"])
    }

    @Test("A batch over hand-made inputs makes their names safe and distinct again")
    func handMade() throws {
        let inputs = ["../../escape", "/etc/passwd", ".", "..", "summary", "x", "X"].map {
            BatchInput(name: $0, outputName: $0, content: .unreadable(CalendarReadError(path: $0, code: .notFound, reason: "none")))
        }
        let batch = BatchReport(inputs: inputs, format: .json, now: testNow)
        #expect(batch.inputs.map(\.outputName) == [
            "___.._escape", "_etc_passwd", "_", "__", "summary-" + StableHash.hexadecimal("summary"), "x", "X-" + StableHash.hexadecimal("X"),
        ])
        for input in batch.inputs { #expect(isPlainFileName(batch.outputFileName(of: input))) }
    }
}

@Suite("Batch inputs")
struct BatchInputTests {
    @Test("Hidden folders (a server's or sync tool's own) are passed over; hidden files are read; a hidden folder named is walked")
    func hiddenFolders() throws {
        try withTemporaryFolder { folder in
            try populate(folder, [
                "cal/a.ics": "tutorial-sample.ics", "cal/.hidden.ics": "folding.ics",
                "cal/.Radicale.cache/item/a.ics": "tutorial-sample.ics", "cal/.git/x.ics": "folding.ics",
            ])
            let walked = BatchInput.walk([folder.appendingPathComponent("cal").path]).inputs.map(\.name)
            #expect(walked.map { String($0.dropFirst(folder.path.count)) } == ["/cal/.hidden.ics", "/cal/a.ics"])
            let named = BatchInput.walk([folder.appendingPathComponent("cal/.git").path]).inputs.map(\.name)
            #expect(named.map { String($0.dropFirst(folder.path.count)) } == ["/cal/.git/x.ics"])
        }
    }

    @Test("Folders give their *.ics files at any depth in sorted order; named files whatever their extension; each once")
    func discovery() throws {
        try withTemporaryFolder { folder in
            try populate(folder, [
                "cals/b/x.ics": "folding.ics", "cals/a/x.ics": "tutorial-sample.ics", "cals/a/deep/Run.ICS": "all-day-events.ics",
                "cals/notes.txt": "folding.ics", "cals/z.ics.bak": "folding.ics", "extra.cal": "folding.ics",
            ])
            let cals = folder.appendingPathComponent("cals").path
            // A loop back to the top, a link to a file already found, and a dangling link.
            try FileManager.default.createSymbolicLink(atPath: cals + "/a/deep/loop", withDestinationPath: "../..")
            try FileManager.default.createSymbolicLink(atPath: cals + "/b/y-same.ics", withDestinationPath: "x.ics")
            try FileManager.default.createSymbolicLink(atPath: cals + "/b/gone.ics", withDestinationPath: "nowhere.ics")
            let extra = folder.appendingPathComponent("extra.cal").path
            let missing = folder.appendingPathComponent("missing.ics").path
            let inputs = BatchInput.discover([cals, extra, missing, cals + "/a/x.ics"], reserving: ["summary.json"], fileExtension: "json")
            #expect(inputs.map(\.name) == [
                cals + "/a/deep/Run.ICS", cals + "/a/x.ics", cals + "/b/gone.ics", cals + "/b/x.ics", extra, missing,
            ])
            // Named by the path relative to the folder given; a file named on its own by its file name.
            #expect(inputs.map(\.outputName) == ["a__deep__Run", "a__x", "b__gone", "b__x", "extra.cal", "missing"])
            #expect(inputs.map(\.id) == ["a/deep/Run.ICS", "a/x.ics", "b/gone.ics", "b/x.ics", "extra.cal", "missing.ics"])
            // The link to a file already found is listed, not dropped without a word (issue 49.4).
            let walked = BatchInput.walk([cals, extra, missing, cals + "/a/x.ics"])
            #expect(walked.skipped == [SkippedInput(input: cals + "/b/y-same.ics", reason: "the same file as \(cals)/b/x.ics (a link), read once")])
            let unreadable = inputs.compactMap { input -> String? in
                if case .unreadable(let error) = input.content { return "\(error.code): \(error)" }
                return nil
            }
            #expect(unreadable == [
                "not-found: cannot read \(cals)/b/gone.ics: a broken link or a vanished file",
                "not-found: cannot read \(missing): no such file",
            ])
        }
    }
}

extension BatchInputTests {
    @Test("Inside folders, *.ics entries that are not regular files are passed over with the reason; named on their own they are read")
    func specialFiles() throws {
        try withTemporaryFolder { folder in
            try populate(folder, ["cals/a.ics": "all-day-events.ics", "cals/c.ics": "folding.ics"])
            let cals = folder.appendingPathComponent("cals").path
            #expect(mkfifo(cals + "/b.ics", 0o644) == 0)
            #expect(mkfifo(cals + "/pipe.txt", 0o644) == 0)  // not a calendar name: ignored without a word
            try FileManager.default.createSymbolicLink(atPath: cals + "/d.ics", withDestinationPath: "/dev/zero")
            let discovery = BatchInput.walk([cals, cals + "/b.ics"])
            #expect(discovery.inputs.map(\.name) == [cals + "/a.ics", cals + "/c.ics", cals + "/b.ics"])
            #expect(discovery.skipped == [
                SkippedInput(input: cals + "/b.ics", reason: "a named pipe (FIFO), not a regular file"),
                SkippedInput(input: cals + "/d.ics", reason: "a character device, not a regular file"),
            ])
            #expect(BatchInput.discover([cals]).map(\.name) == [cals + "/a.ics", cals + "/c.ics"])

            // The batch carries them into its summary (JSON and table), after every report.
            let batch = BatchReport(paths: [cals], settings: settings, recordsElapsedTime: false, now: testNow)
            #expect(batch.skipped == discovery.skipped)
            let summary = try batch.write(to: folder.appendingPathComponent("out").path)
            #expect(summary.skipped == discovery.skipped)
            #expect(summary.files.map(\.input) == [cals + "/a.ics", cals + "/c.ics"])
            #expect(summary.table().hasSuffix("2 files, 0 failed, 2 skipped\n"))
            let written = try Data(contentsOf: folder.appendingPathComponent("out/summary.json"))
            #expect(String(decoding: written, as: UTF8.self) == summary.json())
        }
    }
}

@Suite("Batch reports")
struct BatchReportTests {
    @Test("Without writing: each calendar's figures and text, as a report of it alone gives them")
    func rendered() throws {
        let names = ["tutorial-sample.ics", "folding.ics", "bad-properties.ics", "all-day-events.ics"]
        let sources = try names.map { try source($0) }
        let batch = BatchReport(sources: sources, settings: settings, format: .json, jobs: 2, now: testNow)
        let reports = batch.render()
        try #require(reports.count == names.count)
        for (report, source) in zip(reports, sources) {
            let scored = settings.scored(try settings.importer(now: testNow).importSessions(from: source), now: testNow)
            #expect(report.result.input == source.name)
            #expect(report.result.error == nil)
            #expect(report.result.sessions == scored.report.totalSessions)
            #expect(report.result.daysMet == scored.report.statusCounts[.met] ?? 0)
            #expect(report.result.longestStreak == scored.report.longestStreak)
            #expect(report.result.diagnostics == DiagnosticCounts(scored.imported.diagnostics))
            #expect(report.text == ReportFormat.json.render(scored, with: settings))
        }
        let tutorial = reports[0].result
        #expect(tutorial.output == "tutorial-sample.json")
        #expect(tutorial.sessions == 5)
        #expect(tutorial.points == 350)
        #expect(tutorial.days == 316)
        #expect(tutorial.daysMet == 3)
        #expect(tutorial.currentStreak?.length == 0)
        #expect(tutorial.longestStreak == Streak(from: try! Day(year: 2024, month: 2, day: 25), through: try! Day(year: 2024, month: 2, day: 26)))
        #expect(tutorial.diagnostics == DiagnosticCounts(errors: 0, warnings: 1, notes: 0))
        #expect(reports[2].result.diagnostics == DiagnosticCounts(errors: 1, warnings: 5, notes: 0))
    }

    @Test("With habits, each calendar's summary lists every habit's figures by its own rules, in summary.json and the table")
    func habitsInSummary() throws {
        var settings = StreakCal.ReportSettings(timeZone: "UTC")
        let file = try RulesFile(parsing: """
            {"habits": [{"name": "Piano", "filter": "categories:piano", "required": 30},
                        {"name": "Running", "filter": "property:X-HABIT=running", "required": 50, "atMost": true}]}
            """, file: "rules.json")
        try settings.applyRules(file)
        settings.from = Day("2024-01-01")
        settings.to = Day("2024-01-03")
        let batch = BatchReport(sources: [try source("habits.ics")], settings: settings, format: .csv, jobs: 1, recordsElapsedTime: false, now: testNow)
        let result = try #require(batch.render().first?.result)
        #expect(result.habits.map(\.name) == ["Piano", "Running"])
        #expect(result.habits.map(\.daysMet) == [2, 3])  // piano 30, 30, 0 of 30; running 40, 0, 40: at most 50 every day
        let summary = BatchSummary(format: .csv, files: [result])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        let habits = try #require((json["files"] as? [[String: Any]])?.first?["habits"] as? [[String: Any]])
        #expect(habits.map { $0["name"] as? String } == ["Piano", "Running"])
        #expect(habits.map { $0["daysMet"] as? Int } == [2, 3])
        let habitRows = summary.table().split(separator: "\n").filter { $0.hasPrefix(" ") }
        // Piano: day 3 is open (today-grace), so the current streak is 2.
        #expect(habitRows.map { $0.split(separator: " ").map(String.init) } == [["Piano", "2", "2", "2"], ["Running", "3", "3", "3"]])
        // Without habits, summary.json has no habits key.
        let plain = BatchSummary(format: .csv, files: [BatchReport(sources: [try source("folding.ics")], settings: StreakCal.ReportSettings(timeZone: "UTC"), format: .csv, jobs: 1, now: testNow).render()[0].result])
        #expect(!plain.json().contains("\"habits\""))
    }

    @Test("One, two or eight workers give the same results in input order", arguments: [1, 2, 8])
    func deterministic(jobs: Int) throws {
        let names = ["tutorial-sample.ics", "folding.ics", "recurring-weekly-across-dst.ics", "bad-properties.ics",
                     "encoding-utf16le-bom.ics", "vtimezone-after-events.ics", "several-vcalendars.ics", "day-start-after-midnight.ics"]
        let sources = try names.map { try source($0) }
        let reference = BatchReport(sources: sources, settings: settings, format: .csv, jobs: 1, recordsElapsedTime: false, now: testNow).render()
        let parallel = BatchReport(sources: sources, settings: settings, format: .csv, jobs: jobs, recordsElapsedTime: false, now: testNow).render()
        #expect(parallel.map(\.result) == reference.map(\.result))
        #expect(parallel.map(\.text) == reference.map(\.text))
        #expect(parallel.map(\.result.input) == names)
    }

    @Test("Writing: reports and summary.json in the folder, a failure recorded, no temporary files left")
    func written() throws {
        try withTemporaryFolder { folder in
            try populate(folder, ["in/a/x.ics": "tutorial-sample.ics", "in/b/x.ics": "folding.ics", "in/summary.ics": "all-day-events.ics"])
            let input = folder.appendingPathComponent("in").path
            let missing = folder.appendingPathComponent("in/missing.ics").path
            let out = folder.appendingPathComponent("out/reports").path
            let batch = BatchReport(paths: [input, missing], settings: settings, format: .json, jobs: 2, now: testNow)
            let summary = try batch.write(to: out)
            let summaryName = "summary-" + StableHash.hexadecimal("summary.ics")
            #expect(summary.files.map(\.output) == ["a__x.json", "b__x.json", summaryName + ".json", nil])
            #expect(summary.files.map(\.id) == ["a/x.ics", "b/x.ics", "summary.ics", "missing.ics"])
            #expect(summary.files.map(\.unit) == [.points, .points, .points, nil])
            #expect(summary.files.map(\.zone) == ["UTC", "UTC", "UTC", nil])
            #expect(summary.files.map(\.sessions) == [5, 1, 3, nil])
            #expect(summary.files.map(\.points) == [350, 100, 220, nil])
            #expect(summary.files.map(\.daysMet) == [3, 1, 1, nil])
            #expect(summary.files.map(\.error) == [nil, nil, nil, "cannot read \(missing): no such file"])
            #expect(summary.failed.map(\.input) == [missing])
            #expect(summary.files.allSatisfy { $0.elapsedSeconds != nil })
            #expect(summary.elapsedSeconds != nil)
            let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(written == [BatchManifest.fileName, "a__x.json", "b__x.json", summaryName + ".json", "summary.json"])
            #expect(try String(contentsOfFile: out + "/summary.json", encoding: .utf8) == summary.json())
            let report = try String(contentsOfFile: out + "/a__x.json", encoding: .utf8)
            let expected = ReportFormat.json.render(try settings.scored(settings.importer(now: testNow).importSessions(from: .file(input + "/a/x.ics")), now: testNow), with: settings)
            #expect(report == expected)
        }
    }

    @Test("summary.json: every key on every entry, null where there is nothing, totals over the calendars")
    func summaryJSON() throws {
        let batch = BatchReport(
            inputs: BatchInput.sources([try source("tutorial-sample.ics")]) + [BatchInput(name: "gone.ics", outputName: "gone", content: .unreadable(CalendarReadError(path: "gone.ics", code: .notFound, reason: "no such file")))],
            settings: settings, format: .md, recordsElapsedTime: false, now: testNow)
        let summary = BatchSummary(format: .md, files: batch.render().map(\.result))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["complete", "elapsedSeconds", "files", "format", "generator", "remaining", "skipped", "stale", "staleRemoved", "totals"])
        #expect(object["complete"] as? Bool == true && object["remaining"] as? Int == 0)
        #expect(object["format"] as? String == "md")
        #expect(object["generator"] as? String == "StreakCal " + StreakCalVersion.current)
        #expect(object["elapsedSeconds"] is NSNull)
        #expect((object["skipped"] as? [Any])?.isEmpty == true)
        let totals = try #require(object["totals"] as? [String: Any])
        #expect(totals["pointsByUnit"] as? [String: Int] == ["points": 350])
        #expect(totals.filter { $0.key != "pointsByUnit" } as? [String: Int] == ["files": 2, "failed": 1, "sessions": 5, "points": 350, "daysMet": 3])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.map { Set($0.keys) } == Array(repeating: [
            "id", "input", "name", "output", "sessions", "points", "days", "daysMet", "currentStreak", "longestStreak",
            "diagnostics", "error", "errorCode", "elapsedSeconds", "unit", "zone",
        ], count: 2))
        // The calendar's X-WR-CALNAME; a file that cannot be read is named by its file.
        #expect(files.map { $0["name"] as? String } == ["FSCalendar streaks tutorial sample", "gone"])
        #expect(files[1]["sessions"] is NSNull)
        #expect(files[1]["error"] as? String == "cannot read gone.ics: no such file")
        #expect(files.map { $0["errorCode"] as? String } == [nil, "not-found"] && files[0]["errorCode"] is NSNull)
        #expect(files[0]["diagnostics"] as? [String: Int] == ["errors": 0, "warnings": 1, "notes": 0])
        #expect((files[0]["longestStreak"] as? [String: Any])?["length"] as? Int == 2)
    }

    @Test("summary.json byte for byte: nulls, escapes, timings, skipped entries, no files")
    func summaryJSONBytes() throws {
        var timed = BatchFileResult(input: "folder/a \"quoted\" name\\with/slash\n.ics")
        timed.output = "folder__a.json"
        timed.sessions = 12
        timed.points = 1_234
        timed.days = 30
        timed.daysMet = 4
        timed.currentStreak = Streak(from: try! Day(year: 2025, month: 3, day: 1), through: try! Day(year: 2025, month: 3, day: 4))
        timed.longestStreak = Streak(start: nil, end: nil)
        timed.diagnostics = DiagnosticCounts(errors: 1, warnings: 2, notes: 3)
        timed.elapsedSeconds = 0.001234
        timed.name = "Piano \"scales\"\n"
        timed.id = "a \"quoted\" name"
        timed.unit = .points
        timed.zone = "Europe/Berlin"
        var failed = BatchFileResult(input: "gone.ics")
        failed.error = "cannot read gone.ics: no such file \u{1}"
        failed.errorCode = .notFound
        failed.elapsedSeconds = 12.0
        let skipped = [
            SkippedInput(input: "in/live.ics", reason: "a named pipe (FIFO), not a regular file"),
            SkippedInput(input: "in/\"odd\"\n.ics", reason: "a socket, not a regular file"),
        ]
        // What JSONEncoder gave for the summary's Codable form (.prettyPrinted, .sortedKeys,
        // .withoutEscapingSlashes) before the summary had one writer: the bytes stay these.
        let full = BatchSummary(format: .json, files: [timed, failed], elapsedSeconds: 3e-05, skipped: skipped)
        #expect(full.json() == #"""
            {
              "complete" : true,
              "elapsedSeconds" : 3e-05,
              "files" : [
                {
                  "currentStreak" : {
                    "end" : "2025-03-04",
                    "length" : 4,
                    "start" : "2025-03-01"
                  },
                  "days" : 30,
                  "daysMet" : 4,
                  "diagnostics" : {
                    "errors" : 1,
                    "notes" : 3,
                    "warnings" : 2
                  },
                  "elapsedSeconds" : 0.001234,
                  "error" : null,
                  "errorCode" : null,
                  "id" : "a \"quoted\" name",
                  "input" : "folder/a \"quoted\" name\\with/slash\n.ics",
                  "longestStreak" : {
                    "end" : null,
                    "length" : 0,
                    "start" : null
                  },
                  "name" : "Piano \"scales\"\n",
                  "output" : "folder__a.json",
                  "points" : 1234,
                  "sessions" : 12,
                  "unit" : "points",
                  "zone" : "Europe/Berlin"
                },
                {
                  "currentStreak" : null,
                  "days" : null,
                  "daysMet" : null,
                  "diagnostics" : {
                    "errors" : 0,
                    "notes" : 0,
                    "warnings" : 0
                  },
                  "elapsedSeconds" : 12,
                  "error" : "cannot read gone.ics: no such file \u0001",
                  "errorCode" : "not-found",
                  "id" : null,
                  "input" : "gone.ics",
                  "longestStreak" : null,
                  "name" : "gone",
                  "output" : null,
                  "points" : null,
                  "sessions" : null,
                  "unit" : null,
                  "zone" : null
                }
              ],
              "format" : "json",
              "generator" : "\#(StreakCalVersion.generator)",
              "remaining" : 0,
              "skipped" : [
                {
                  "input" : "in/live.ics",
                  "reason" : "a named pipe (FIFO), not a regular file"
                },
                {
                  "input" : "in/\"odd\"\n.ics",
                  "reason" : "a socket, not a regular file"
                }
              ],
              "stale" : [

              ],
              "staleRemoved" : false,
              "totals" : {
                "daysMet" : 4,
                "failed" : 1,
                "files" : 2,
                "points" : 1234,
                "pointsByUnit" : {
                  "points" : 1234
                },
                "sessions" : 12
              }
            }

            """#)
        let empty = BatchSummary(format: .html, files: [], elapsedSeconds: 100.5)
        #expect(empty.json() == #"""
            {
              "complete" : true,
              "elapsedSeconds" : 100.5,
              "files" : [

              ],
              "format" : "html",
              "generator" : "\#(StreakCalVersion.generator)",
              "remaining" : 0,
              "skipped" : [

              ],
              "stale" : [

              ],
              "staleRemoved" : false,
              "totals" : {
                "daysMet" : 0,
                "failed" : 0,
                "files" : 0,
                "points" : 0,
                "pointsByUnit" : {

                },
                "sessions" : 0
              }
            }

            """#)
        #expect(empty.json(entries: []) == empty.json())
        // Minutes and X-POINTS are not added together: `points` is null, each unit has its sum.
        var minutes = timed
        minutes.unit = .minutes
        minutes.points = 90
        var mixed = BatchSummary(format: .json, files: [timed, minutes])
        mixed.remaining = 3
        mixed.stale = ["old.json"]
        let object = try #require(try JSONSerialization.jsonObject(with: Data(mixed.json().utf8)) as? [String: Any])
        let totals = try #require(object["totals"] as? [String: Any])
        #expect(totals["points"] is NSNull)
        #expect(totals["pointsByUnit"] as? [String: Int] == ["points": 1_234, "minutes": 90])
        #expect(object["complete"] as? Bool == false && object["remaining"] as? Int == 3)
        #expect(object["stale"] as? [String] == ["old.json"])
        #expect(mixed.table().hasSuffix("2 files, 0 failed, interrupted with 3 not done\n"))
        #expect(full.json(entries: full.files.map(BatchSummary.jsonEntry)) == full.json())
    }

    @Test("The table: one line per calendar, figures right-aligned, errors last, totals")
    func table() throws {
        var tutorial = BatchFileResult(input: "tutorial-sample.ics")
        tutorial.name = "Piano \u{1B}[31m"
        tutorial.sessions = 5
        tutorial.daysMet = 3
        tutorial.currentStreak = .empty
        tutorial.longestStreak = Streak(from: try! Day(year: 2024, month: 2, day: 25), through: try! Day(year: 2024, month: 2, day: 26))
        tutorial.diagnostics = DiagnosticCounts(warnings: 1)
        var missing = BatchFileResult(input: "missing.ics")
        missing.error = "cannot read missing.ics: no such file"
        #expect(BatchSummary(format: .text, files: [tutorial, missing]).table() == """
            FILE                 NAME              SESSIONS  DAYS MET  CURRENT  LONGEST  DIAGNOSTICS  ERROR
            tutorial-sample.ics  Piano \\u{1B}[31m         5         3        0        2  1 warning
            missing.ics          missing                  -         -        -        -  -            cannot read missing.ics: no such file
            2 files, 1 failed

            """)
        #expect(BatchSummary(format: .text, files: [], elapsedSeconds: 1.5).table().hasSuffix("0 files, 0 failed, in 1.50 s\n"))
    }

    @Test("Strict: a calendar with warnings fails, and its report is still written")
    func strict() throws {
        try withTemporaryFolder { folder in
            let batch = BatchReport(sources: [try source("tutorial-sample.ics"), try source("all-day-events.ics")], settings: settings, format: .text, strict: true, now: testNow)
            let summary = try batch.write(to: folder.path)
            #expect(summary.files.map(\.error) == ["1 problem in the input (strict)", nil])
            #expect(summary.files.map(\.output) == ["tutorial-sample.txt", "all-day-events.txt"])
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("tutorial-sample.txt").path))
        }
    }

    @Test("A report that cannot be written fails alone; a folder that cannot be made throws")
    func unwritable() throws {
        try withTemporaryFolder { folder in
            // A folder where the report should go makes the rename fail.
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("out/folding.txt"), withIntermediateDirectories: true)
            let batch = BatchReport(sources: [try source("folding.ics"), try source("all-day-events.ics")], settings: settings, now: testNow)
            let summary = try batch.write(to: folder.appendingPathComponent("out").path)
            #expect(summary.files[0].error?.hasPrefix("cannot write") == true)
            #expect(summary.files[0].output == nil)
            #expect(summary.files[1].error == nil)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).filter { $0.hasSuffix(".tmp") }
            #expect(leftovers.isEmpty)

            let file = folder.appendingPathComponent("plain-file")
            try Data("x".utf8).write(to: file)
            #expect(throws: AtomicFile.WriteError.self) { try batch.write(to: file.path) }
        }
    }

    @Test("Progress: once before the first calendar, then once per calendar, in order")
    func progress() throws {
        let sources = try ["tutorial-sample.ics", "folding.ics", "all-day-events.ics"].map { try source($0) }
        let batch = BatchReport(
            inputs: BatchInput.sources(sources) + [BatchInput(name: "x", outputName: "x", content: .unreadable(CalendarReadError(path: "x", code: .notFound, reason: "no")))],
            settings: settings, jobs: 2, now: testNow)
        let seen = Collected<BatchProgress>()
        _ = batch.render { seen.append($0) }
        let reports = seen.values
        #expect(reports.map(\.completed) == [0, 1, 2, 3, 4])
        #expect(reports.allSatisfy { $0.total == 4 })
        #expect(reports.last?.failed == 1)
    }

    @Test("Rate and time left")
    func rate() {
        let progress = BatchProgress(completed: 30, total: 120, failed: 1, elapsed: .seconds(3))
        #expect(progress.filesPerSecond == 10)
        #expect(progress.estimatedTimeRemaining == .seconds(9))
        #expect(BatchProgress(completed: 0, total: 5, failed: 0, elapsed: .seconds(1)).filesPerSecond == nil)
    }

    @Test("Diagnostic counts read as words", arguments: [
        (DiagnosticCounts(), "none"),
        (DiagnosticCounts(errors: 1), "1 error"),
        (DiagnosticCounts(errors: 2, warnings: 1, notes: 3), "2 errors, 1 warning, 3 notes"),
    ])
    func counts(counts: DiagnosticCounts, text: String) {
        #expect(counts.description == text)
    }
}
