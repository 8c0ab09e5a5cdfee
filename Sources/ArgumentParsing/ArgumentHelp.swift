/// The help of an option, flag or argument: one line, and the name its value
/// takes in usage (`<seconds>`). A string literal is an abstract alone.
///
/// ```swift
/// @Option(help: ArgumentHelp("Give up after this long.", valueName: "seconds"))
/// ```
public struct ArgumentHelp: Sendable, ExpressibleByStringLiteral {
  /// One line of help.
  public var abstract: String
  /// The value's name in usage and help, without brackets; nil: from the property.
  public var valueName: String?

  public init(_ abstract: String, valueName: String? = nil) {
    self.abstract = abstract
    self.valueName = valueName
  }

  public init(stringLiteral value: String) { self.init(value) }
}
