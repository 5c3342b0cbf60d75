import Testing

/// A mistyped command name (issue 33): `report` is the default subcommand, so `streakcal reprot
/// f.ics` reads `reprot` as a file; the error then says which command was meant.
@Suite("Mistyped commands")
struct CommandSuggestionTests {
    @Test("A word a slip away from a command is suggested", arguments: [
        ("reprot", "report"), ("sesions", "sessions"), ("anotate", "annotate"), ("lyaout", "layout"), ("bacth", "batch"),
        ("totls", "totals"), ("cadr", "card"),
    ])
    func suggested(typed: String, meant: String) throws {
        let result = try streakcal([typed, fixture("tutorial-sample.ics")])
        #expect(result.status == 1)
        #expect(result.standardError == "streakcal: error: cannot read \(typed): no such file; '\(typed)' is not a command: did you mean '\(meant)'?\n")
    }

    @Test("A missing file that is no command's near miss, or not the first word, is only a missing file")
    func notSuggested() throws {
        let far = try streakcal(["holiday", fixture("tutorial-sample.ics")])
        #expect(far.standardError == "streakcal: error: cannot read holiday: no such file\n")
        let second = try streakcal(["report", "reprot"])
        #expect(second.standardError == "streakcal: error: cannot read reprot: no such file\n")
        let path = try streakcal(["reprot.ics"])
        #expect(path.standardError == "streakcal: error: cannot read reprot.ics: no such file\n")
    }
}
