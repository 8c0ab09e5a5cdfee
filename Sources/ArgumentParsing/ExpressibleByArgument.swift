/// A type whose values can be read from one command-line argument, as in
/// swift-argument-parser: `@Option var port: UInt16`.
///
/// ```swift
/// enum Method: String, CaseIterable, ExpressibleByArgument { case post, get }
/// ```
public protocol ExpressibleByArgument: Sendable {
  /// The value `argument` spells, or nil when it spells none (a usage error:
  /// "The value 'x' is invalid for '--port <port>'").
  init?(argument: String)

  /// How help shows this value as a default: `(default: 30)`.
  var defaultValueDescription: String { get }

  /// Every value, for help and shell completion; empty when they cannot be listed.
  static var allValueStrings: [String] { get }

  /// How a shell completes a value of this type.
  static var defaultCompletionKind: CompletionKind { get }

  /// What a value must be, for the error about one that is none (`an
  /// http:// or https:// URL`); nil: the error names only the option. A type
  /// that lists its values says them (`one of post, get`).
  static var expectation: String? { get }

  /// `text` as an error may show it (a URL's password hidden, say).
  static func shown(_ text: String) -> String
}

extension ExpressibleByArgument {
  public var defaultValueDescription: String { "\(self)" }
  public static var allValueStrings: [String] { [] }
  public static var expectation: String? {
    allValueStrings.isEmpty ? nil : "one of " + allValueStrings.joined(separator: ", ")
  }
  public static func shown(_ text: String) -> String { text }
  public static var defaultCompletionKind: CompletionKind {
    allValueStrings.isEmpty ? .default : .list(allValueStrings)
  }
}

extension ExpressibleByArgument
where Self: CaseIterable, Self: RawRepresentable, RawValue == String {
  /// A case by its raw value, ignoring case (`--method GET`).
  public init?(argument: String) {
    guard let value = Self(rawValue: argument.lowercased()) ?? Self(rawValue: argument) else {
      return nil
    }
    self = value
  }
  public var defaultValueDescription: String { rawValue }
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension String: ExpressibleByArgument {
  /// Any text, the empty string included (`--message ''`).
  public init?(argument: String) { self = argument }
}

/// A file's path: not empty (which names no file); `-` is standard input
/// where the option says so. Completed as a file.
public struct FilePath: ExpressibleByArgument, Hashable, CustomStringConvertible {
  /// The path as given.
  public var string: String

  public init?(argument: String) {
    guard !argument.isEmpty else { return nil }
    string = argument
  }

  public var description: String { string }
  public static var defaultCompletionKind: CompletionKind { .file }
  public static var expectation: String? { "a path (not empty)" }
}

extension Int: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }
  public static var expectation: String? { "a whole number" }
}

extension Int32: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }
  public static var expectation: String? { "a whole number from \(min) to \(max)" }
}

extension UInt16: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }
  public static var expectation: String? { "a whole number from 0 to \(max)" }
}

extension Double: ExpressibleByArgument {
  /// A finite number (`nan` and `inf` are no amount of anything).
  public init?(argument: String) {
    guard let value = Double(argument), value.isFinite else { return nil }
    self = value
  }
  public static var expectation: String? { "a number" }
}

/// How a shell completes a value (swift-argument-parser's `CompletionKind`).
public enum CompletionKind: Sendable, Equatable {
  /// Whatever the shell completes by default.
  case `default`
  /// A file's path.
  case file
  /// One of these words.
  case list([String])
  /// The words a command prints: `tpns __complete uids`.
  case custom(String)
}
