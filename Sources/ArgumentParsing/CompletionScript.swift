/// The shells a completion script is generated for.
public enum CompletionShell: String, CaseIterable, ExpressibleByArgument {
  case bash, zsh, fish
}

extension ParsableCommand {
  /// The completion script for `shell`, generated from the command tree's
  /// declarations (as swift-argument-parser's `--generate-completion-script`):
  /// subcommands, options, option values (a ``CompletionKind``: files, a list
  /// of words, or the words `<root> __complete <name>` prints, one a line,
  /// each optionally followed by a tab and a description).
  public static func completionScript(for shell: CompletionShell) -> String {
    let script = CompletionScript(root: self)
    switch shell {
    case .bash: return script.bash
    case .zsh: return script.zsh
    case .fish: return script.fish
    }
  }
}

/// What the three generators share: the command tree, flattened.
struct CompletionScript {
  struct Command {
    /// `tpns add`.
    var path: String
    var subcommands: [(name: String, abstract: String)]
    /// Its options and flags, then `--version` (the root's) and `--help`.
    var options: [ArgumentDefinition]
    var positionals: [ArgumentDefinition]
  }

  let root: String
  let commands: [Command]

  init(root: any ParsableCommand.Type) {
    self.root = root.commandName
    commands = root.commandPaths().map { path in
      let command = path[path.count - 1]
      let definitions = command.definitions()
      return Command(
        path: path.map { $0.commandName }.joined(separator: " "),
        subcommands: command.displayedSubcommands.map {
          ($0.commandName, $0.configuration.abstract)
        },
        options: definitions.filter(\.isNamed) + ArgumentDefinition.builtins(command.configuration),
        positionals: definitions.filter(\.isPositional))
    }
  }

  /// A shell-safe function name part: `tpns-server` → `tpns_server`.
  var identifier: String {
    String(root.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }

  // MARK: bash

  var bash: String {
    let f = "_\(identifier)"
    var lines = [
      "# bash completion for \(root), generated from its declarations.",
      "# Load it with: source <(\(root) completion bash)",
      "",
      "\(f)_values() {",
      "  # $1: a completion kind (file, directory, words:..., custom:NAME); $2: the word.",
      "  local kind=$1 cur=$2 line",
      "  case $kind in",
      "    file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;",
      "    directory) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;",
      "    words:*) mapfile -t COMPREPLY < <(compgen -W \"${kind#words:}\" -- \"$cur\") ;;",
      "    custom:*)",
      "      # Lines of 'value<TAB>description': several matches show their",
      "      # descriptions, a single one is inserted alone.",
      "      local -a values=() shown=()",
      "      while IFS= read -r line; do",
      "        [[ ${line%%$'\\t'*} == \"$cur\"* ]] || continue",
      "        values+=(\"${line%%$'\\t'*}\")",
      "        shown+=(\"${line/$'\\t'/  }\")",
      "      done < <(\(root) __complete \"${kind#custom:}\" -- \"${COMP_WORDS[@]}\" 2>/dev/null)",
      "      if ((${#values[@]} == 1)); then COMPREPLY=(\"${values[0]}\"); else COMPREPLY=(\"${shown[@]}\"); fi",
      "      ;;",
      "  esac",
      "}",
      "",
      "\(f)() {",
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev= command_path=\(root) i=1",
      "  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}",
      "  # --option=value: readline splits at '=', so the option is two words back.",
      "  if [[ $prev == = ]] && ((COMP_CWORD > 1)); then prev=${COMP_WORDS[COMP_CWORD - 2]}; fi",
      "  COMPREPLY=()",
      "  while ((i < COMP_CWORD)); do",
      "    case \"$command_path ${COMP_WORDS[i]}\" in",
    ]
    let nested = commands.dropFirst().map { "\"\($0.path)\"" }
    if !nested.isEmpty {
      lines.append(
        "      \(nested.joined(separator: " | "))) command_path+=\" ${COMP_WORDS[i]}\" ;;")
    }
    lines += [
      "      *) break ;;",
      "    esac",
      "    ((i++))",
      "  done",
      "  case $command_path in",
    ]
    for command in commands {
      lines.append("    \"\(command.path)\")")
      let valued = command.options.filter(\.takesValue)
      if !valued.isEmpty {
        lines.append("      case $prev in")
        for option in valued {
          let kind = Self.bashKind(option.completion)
          let action = kind.map { "\(f)_values \($0) \"$cur\"" } ?? ":"
          lines.append(
            "        \(option.names.joined(separator: " | "))) \(action); return ;;")
        }
        lines.append("      esac")
      }
      let words = command.options.flatMap(\.names)
      lines.append(
        "      if [[ $cur == -* ]]; then \(f)_values \(Self.quotedWords(words)) \"$cur\"; return; fi"
      )
      if !command.subcommands.isEmpty {
        lines.append(
          "      \(f)_values \(Self.quotedWords(command.subcommands.map(\.name))) \"$cur\"")
      } else if let positional = command.positionals.first,
        let kind = Self.bashKind(positional.completion)
      {
        lines.append("      \(f)_values \(kind) \"$cur\"")
      }
      lines.append("      ;;")
    }
    lines += ["  esac", "}", "", "complete -F \(f) \(root)", ""]
    return lines.joined(separator: "\n")
  }

  static func quotedWords(_ words: [String]) -> String {
    "\"words:\(words.joined(separator: " "))\""
  }

  /// The argument of `_values` for `kind`; nil: nothing to offer.
  static func bashKind(_ kind: CompletionKind) -> String? {
    switch kind {
    case .default: return nil
    case .file: return "file"
    case .list(let words): return quotedWords(words)
    case .custom(let name): return "custom:\(name)"
    }
  }

  // MARK: zsh

  var zsh: String {
    let f = "_\(identifier)"
    var lines = [
      "#compdef \(root)",
      "# zsh completion for \(root), generated from its declarations.",
      "# Put it in a directory of $fpath as _\(root), or load it with:",
      "#   source <(\(root) completion zsh)",
      "",
      "\(f)_custom() {",
      "  local -a items",
      "  items=(${(f)\"$(\(root) __complete $1 -- ${words[@]} 2>/dev/null)\"})",
      "  items=(${items//:/\\\\:})",
      "  items=(${items//$'\\t'/:})",
      "  _describe -t $1 $1 items",
      "}",
      "",
      "\(f)() {",
      "  local command_path=\(root) i=2",
      "  while ((i < CURRENT)); do",
      "    case \"$command_path ${words[i]}\" in",
    ]
    let nested = commands.dropFirst().map { "\"\($0.path)\"" }
    if !nested.isEmpty {
      lines.append("      (\(nested.joined(separator: " | "))) command_path+=\" ${words[i]}\" ;;")
    }
    lines += [
      "      (*) break ;;",
      "    esac",
      "    ((i++))",
      "  done",
      "  # Complete from the command's name on, as _arguments expects.",
      "  if ((i > 2)); then",
      "    shift $((i - 2)) words",
      "    ((CURRENT -= i - 2))",
      "  fi",
      "  case $command_path in",
    ]
    for command in commands {
      lines.append("    (\"\(command.path)\")")
      var specs: [String] = []
      for option in command.options {
        // `--name=`: the value may follow `=` or come as the next word.
        let names = option.names.filter { !$0.hasPrefix("--no-") || option.inversion == nil }
          .map { option.takesValue && $0.hasPrefix("--") ? $0 + "=" : $0 }
        let help = Self.zshEscaped(option.help)
        let value =
          option.takesValue ? ":\(option.valueName):\(zshAction(option.completion))" : ""
        let repeated = option.isRepeating ? "*" : ""
        if names.count == 1 {
          specs.append("'\(repeated)\(names[0])[\(help)]\(value)'")
        } else {
          let group =
            "(\(names.map { $0.hasSuffix("=") ? String($0.dropLast()) : $0 }.joined(separator: " ")))"
          specs.append(
            "'\(repeated)\(group)'{\(names.joined(separator: ","))}'[\(help)]\(value)'")
        }
        if let inversion = option.inversion {
          specs.append("'--\(inversion)[\(help)]'")
        }
      }
      if !command.subcommands.isEmpty {
        let described = command.subcommands.map {
          "\($0.name)\\:\(Self.zshEscaped($0.abstract, inParentheses: true))"
        }
        specs.append("':subcommand:((\(described.joined(separator: " "))))'")
      } else {
        for positional in command.positionals {
          let action = zshAction(positional.completion)
          if case .positional(_?) = positional.kind {
            specs.append("'*:\(positional.valueName):\(action)'")
          } else {
            let colons = positional.isOptional ? "::" : ":"
            specs.append("'\(colons)\(positional.valueName):\(action)'")
          }
        }
      }
      lines.append("      _arguments -s -S \\")
      lines += specs.map { "        \($0) \\" }
      lines.append("        && return")
      lines.append("      ;;")
    }
    lines += [
      "  esac", "  return 1", "}", "",
      // Autoloaded from $fpath it completes; sourced, it registers itself.
      "if [[ \"$funcstack[1]\" == \"\(f)\" ]]; then \(f) \"$@\"; else compdef \(f) \(root); fi",
      "",
    ]
    return lines.joined(separator: "\n")
  }

  /// `text` inside an _arguments spec's single quotes and brackets.
  static func zshEscaped(_ text: String, inParentheses: Bool = false) -> String {
    // Within (( )), the words are read again as shell words: a quote needs a backslash.
    var output = text.replacing("'", with: inParentheses ? "\\'\\''" : "'\\''")
    for special in inParentheses ? ["[", "]", ":", "(", ")", " "] : ["[", "]", ":"] {
      output = output.replacing(special, with: "\\" + special)
    }
    return output
  }

  func zshAction(_ kind: CompletionKind) -> String {
    switch kind {
    case .default: return " "
    case .file: return "_files"
    case .list(let words): return "(\(words.joined(separator: " ")))"
    case .custom(let name): return "{_\(identifier)_custom \(name)}"
    }
  }

  // MARK: fish

  var fish: String {
    let f = "__\(identifier)"
    var lines = [
      "# fish completion for \(root), generated from its declarations.",
      "# Load it with: \(root) completion fish | source",
      "",
      "function \(f)_path",
      "    set -l path \(root)",
      "    for word in (commandline -opc)[2..-1]",
      "        switch \"$path $word\"",
    ]
    let nested = commands.dropFirst().map { "'\($0.path)'" }
    if !nested.isEmpty {
      lines.append("            case \(nested.joined(separator: " "))")
      lines.append("                set path \"$path $word\"")
    }
    lines += [
      "            case '*'",
      "                break",
      "        end",
      "    end",
      "    echo $path",
      "end",
      "",
      "function \(f)_at",
      "    test (\(f)_path) = \"$argv\"",
      "end",
      "",
      "complete -c \(root) -f",
    ]
    for command in commands {
      let condition = "-n '\(f)_at \"\(command.path)\"'"
      for subcommand in command.subcommands {
        lines.append(
          "complete -c \(root) \(condition) -a \(subcommand.name) -d \(Self.fishQuoted(subcommand.abstract))"
        )
      }
      for option in command.options {
        var parts = ["complete -c \(root) \(condition)"]
        if let short = option.short { parts.append("-s \(short)") }
        if let long = option.long { parts.append("-l \(long)") }
        if option.takesValue {
          // -r: the value is required; -x: and it is no file.
          parts.append(option.completion == .file ? "-r" : "-x")
          if let values = fishValues(option.completion) { parts.append(values) }
        }
        parts.append("-d \(Self.fishQuoted(option.help))")
        lines.append(parts.joined(separator: " "))
        if let inversion = option.inversion {
          lines.append(
            "complete -c \(root) \(condition) -l \(inversion) -d \(Self.fishQuoted(option.help))")
        }
      }
      if command.subcommands.isEmpty, let positional = command.positionals.first,
        let values = fishValues(positional.completion)
      {
        lines.append("complete -c \(root) \(condition) \(values)")
      }
    }
    lines.append("")
    return lines.joined(separator: "\n")
  }

  /// The values fish offers for `kind`; nil: none of its own.
  func fishValues(_ kind: CompletionKind) -> String? {
    switch kind {
    case .default: return nil
    case .file: return "-F"
    case .list(let words): return "-a \(Self.fishQuoted(words.joined(separator: " ")))"
    case .custom(let name):
      return "-a '(\(root) __complete \(name) -- (commandline -opc) 2>/dev/null)'"
    }
  }

  static func fishQuoted(_ text: String) -> String {
    "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
  }
}
