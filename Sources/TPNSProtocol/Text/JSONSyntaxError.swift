/// Why bytes are not JSON (RFC 8259): what was wrong and at which byte.
///
///     try JSONValue(parsing: "[1,]")
///     // throws: expected a value at offset 3, found ']'
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The 0-based offset of the byte where the input stopped being JSON.
  public var offset: Int
  /// The whole message, offset included.
  public var description: String

  public init(offset: Int, description: String) {
    self.offset = offset
    self.description = description
  }
}
