import ArgumentParser
import Foundation

/// The shell completion scripts: ArgumentParser's, taught that `streakcal FILE ...` is
/// `streakcal report FILE ...` (the default subcommand, which its scripts do not know).
///
/// With them, the first word completes to a subcommand or a calendar file, and every word after a
/// first word that is not a subcommand completes as `report`'s do (its options, their values, more
/// files). Each change is made at a line of ArgumentParser's script; a line that is no longer there
/// (a newer ArgumentParser) leaves that shell's script as ArgumentParser wrote it, and
/// `FirstHourTests.bareFileCompletion` fails.
enum CompletionScripts {
    /// The subcommands as ArgumentParser's scripts list them: the command's own, in order, and `help`.
    static let subcommandNames = CommandNameSuggestion.commands
    /// `message` itself, or, when it is ArgumentParser's completion script for a shell (what
    /// `--generate-completion-script` prints), that script taught the default subcommand.
    /// ArgumentParser stays the one reader of the command line: this looks only at what it printed.
    static func taught(_ message: String) -> String {
        // Help and the version never name the scripts' shell functions: they pass at once, without
        // three scripts made to compare them with.
        guard message.contains("__streakcal_") else { return message }
        let teachings: [(CompletionShell, (String) -> String)] = [(.bash, bash), (.zsh, zsh), (.fish, fish)]
        for (shell, teach) in teachings where message == StreakCalCommand.completionScript(for: shell) {
            return teach(message)
        }
        return message
    }

    /// bash: `_streakcal`'s fallback offers the subcommands only; the first word may be a file, and
    /// the words after a file are `report`'s.
    static func bash(_ script: String) -> String {
        let fallback = "        # Offer subcommand completions\n"
            + "        COMPREPLY+=($(compgen -W '\(subcommandNames.joined(separator: " "))' -- \"${cur}\"))\n"
        let replacement = """
                    if [[ "${#unparsed_words[@]}" -eq 0 ]]; then
                        # The first word: a subcommand, or a calendar (streakcal FILE is streakcal report FILE)
                        COMPREPLY+=($(compgen -W '\(subcommandNames.joined(separator: " "))' -- "${cur}"))
                        __streakcal_add_completions -o plusdirs -fX '!*.@(ics)'
                    else
                        # After a first word that is not a subcommand: report's completions, that word its first file
                        unparsed_words=("${subcommand}" "${unparsed_words[@]}")
                        _streakcal_report
                    fi

            """
        return replacingOnce(fallback, with: replacement, in: script)
    }

    /// zsh: the first word offers files too; the words after a file are `report`'s.
    static func zsh(_ script: String) -> String {
        let subcommands = "        _describe -V subcommand subcommands && ret=0\n"
        var patched = replacingOnce(
            subcommands, with: subcommands + "        _files -g '*.ics' && ret=0\n", in: script)
        let dispatch = """
                    \(subcommandNames.joined(separator: "|")))
                        "_streakcal_${words[1]}" && ret=0
                        ;;

            """
        let fallback = """
                    *)
                        # streakcal FILE ... is streakcal report FILE ...
                        words=(report "${words[@]}")
                        (( CURRENT += 1 ))
                        _streakcal_report && ret=0
                        ;;

            """
        patched = replacingOnce(dispatch, with: dispatch + fallback, in: patched)
        return patched
    }

    /// fish: the first word offers files too; tokens after a first file are parsed as `report`'s.
    static func fish(_ script: String) -> String {
        var lines = script.components(separatedBy: "\n")
        // Files at the first word: report's file completion, offered for the command itself.
        let reportFiles = "'__streakcal_should_offer_completions_for_positional \"streakcal report\" -ge 1'"
        if let index = lines.firstIndex(where: { $0.contains(reportFiles) }) {
            let firstWord = "'__streakcal_should_offer_completions_for_positional \"streakcal\" -eq 1'"
            lines.insert(lines[index].replacingOccurrences(of: reportFiles, with: firstWord), at: index)
        }
        // Tokens after a first word that is not a subcommand: parsed as report's.
        guard let reportCase = lines.firstIndex(of: "        case 'report'"),
              reportCase + 1 < lines.count,
              let end = lines[reportCase...].firstIndex(of: "        end")
        else { return lines.joined(separator: "\n") }
        let parseReport = lines[reportCase + 1]
        lines.insert(contentsOf: [
            "        case '*'",
            "            # streakcal FILE ... is streakcal report FILE ...",
            "            if test (count $unparsed_tokens) -gt 0",
            "                set unparsed_tokens 'report' $unparsed_tokens",
            parseReport,
            "            end",
        ], at: end)
        return lines.joined(separator: "\n")
    }

    /// `text` with its one `target` replaced; `text` itself when `target` is not there exactly once.
    private static func replacingOnce(_ target: String, with replacement: String, in text: String) -> String {
        guard let range = text.range(of: target), text.range(of: target, range: range.upperBound..<text.endIndex) == nil else {
            return text
        }
        return text.replacingCharacters(in: range, with: replacement)
    }
}
