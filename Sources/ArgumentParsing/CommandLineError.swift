/// A usage error: printed as `Error: <message>`, the usage line and a pointer to
/// `--help`, with exit status 64 (`EX_USAGE`).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The first line, without `Error: `.
  public var message: String
  /// The command names from the root (`["tpns-server", "exec"]`).
  public var commandPath: [String]
  /// The command's usage, without `Usage: `.
  public var usage: String

  public var description: String { message }

  /// The three lines written to stderr. The message quotes what was typed,
  /// so its control characters are escaped (`\u{1b}`): an argument cannot
  /// drive the terminal or add a line.
  public var rendered: String {
    "Error: \(Self.escapingControlCharacters(message))\nUsage: \(usage)\n"
      + "  See '\(commandPath.joined(separator: " ")) --help' for more information.\n"
  }

  /// `text` with the characters a terminal acts on written as `\u{1b}`: C0, DEL, C1,
  /// the line and paragraph separators and the bidirectional controls (the rule of
  /// TPNSProtocol's `escapingControlCharacters`, which this module does not import).
  static func escapingControlCharacters(_ text: String) -> String {
    text.unicodeScalars.map { scalar in
      switch scalar.value {
      case 0..<0x20, 0x7F...0x9F, 0x200E...0x200F, 0x2028...0x202E, 0x2066...0x2069:
        "\\u{\(String(scalar.value, radix: 16))}"
      default: String(scalar)
      }
    }.joined()
  }

  static func missingValue(_ synopsis: String) -> String { "Missing value for '\(synopsis)'" }
  static func invalidValue(_ value: String, _ name: String, expected: String? = nil) -> String {
    "The value '\(value)' is invalid for '\(name)'" + (expected.map { ": it must be \($0)" } ?? "")
  }
  static func missingArgument(_ name: String) -> String { "Missing expected argument '\(name)'" }
  static func unexpectedArgument(_ value: String) -> String { "Unexpected argument '\(value)'" }
}

/// Thrown by a command's `init` when values parse but do not make sense together;
/// reported as a usage error (exit 64).
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The first line of the report, without `Error: `.
  public var message: String

  /// A validation error saying `message`.
  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

/// Thrown to end the program with a status, silently (e.g. a child's exit status).
public struct ExitCode: Error, Sendable, Equatable {
  /// The process's exit status.
  public var rawValue: Int32

  /// The exit status `rawValue`.
  public init(_ rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// 0.
  public static let success = ExitCode(0)
  /// 1, for a failure without a more specific status.
  public static let failure = ExitCode(1)
  /// `EX_USAGE`.
  public static let usage = ExitCode(64)
}

/// A failure to report as `Error: <message>` (and an optional second line saying
/// what to do next) with an exit status.
public struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, without `Error: `.
  public var message: String
  /// One line saying what to do next.
  public var hint: String?
  /// The exit status to end with.
  public var exitCode: ExitCode
  /// Text for standard output (a `--json` document that reports the failure),
  /// written before the error goes to standard error.
  public var output: String?

  /// A failure reported as `message` (and `hint`), ending with `exitCode`.
  public init(
    _ message: String, hint: String? = nil, exitCode: ExitCode = .failure, output: String? = nil
  ) {
    self.message = message
    self.hint = hint
    self.exitCode = exitCode
    self.output = output
  }

  public var description: String { message }
}
