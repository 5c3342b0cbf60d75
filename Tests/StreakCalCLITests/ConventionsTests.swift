import Foundation
import StreakCal
import Testing

/// What users expect of any command-line tool: a version, completions, `-o -`.
@Suite("Command-line conventions")
struct ConventionsTests {
    @Test("--version prints the one version, on the command and every subcommand")
    func version() throws {
        for arguments in [["--version"], ["report", "--version"], ["batch", "--version"]] {
            let result = try streakcal(arguments)
            #expect(result.status == 0)
            #expect(result.standardOutput == StreakCalVersion.current + "\n")
        }
        #expect(StreakCalVersion.current.split(separator: ".").compactMap { Int($0) }.count == 3)
    }

    @Test("Every JSON output and the annotated calendar name their maker and its version")
    func generator() throws {
        let window = ["--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29"]
        let report = try jsonObject(try streakcal(["report", fixture("tutorial-sample.ics"), "--format", "json"] + window).standardOutput)
        #expect(report["generator"] as? String == "StreakCal " + StreakCalVersion.current)
        let layout = try jsonObject(try streakcal(["layout", "--month", "2024-02", "--format", "json"]).standardOutput)
        #expect(layout["generator"] as? String == "StreakCal " + StreakCalVersion.current)
        let annotated = try streakcal(["annotate", "-", "--tz", "UTC", "--to", "2024-02-29"], input: "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240226T090000Z\r\nX-POINTS:5\r\nEND:VEVENT\r\n")
        #expect(annotated.standardOutput.contains("PRODID:-//StreakCal//StreakCal \(StreakCalVersion.current)//EN\r\n"))
    }

    @Test("Completion scripts for bash, zsh and fish complete file paths for FILE and --output", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) throws {
        let result = try streakcal(["--generate-completion-script", shell])
        #expect(result.status == 0)
        let script = result.standardOutput
        for subcommand in ["report", "sessions", "annotate", "layout", "batch"] {
            #expect(script.contains(subcommand))
        }
        switch shell {
        case "bash":
            #expect(script.contains("--output"))
            #expect(script.contains("__streakcal_add_completions -f"))
        case "zsh":
            #expect(script.contains("{-o,--output}"))
            #expect(script.contains("]:file:_files'"))
            #expect(script.contains("'*:file:_files -g"))
        default:
            #expect(script.contains("-s 'o' -l 'output'"))
            #expect(script.contains("-rF"))
        }
    }

    @Test("-o - and --output - write standard output, for every command that writes")
    func dashIsStandardOutput() throws {
        let window = ["--tz", "UTC", "--from", "2024-02-25", "--to", "2024-02-26"]
        let plain = try streakcal(["report", fixture("tutorial-sample.ics"), "--format", "csv"] + window)
        let dashed = try streakcal(["report", fixture("tutorial-sample.ics"), "--format", "csv", "-o", "-"] + window)
        #expect(dashed.standardOutput == plain.standardOutput)
        #expect(dashed.standardOutput.hasPrefix("date,points,sessions,status\r\n"))
        let layout = try streakcal(["layout", "--month", "2024-02", "--output", "-"])
        #expect(layout.standardOutput.contains("February 2024"))
    }
}
