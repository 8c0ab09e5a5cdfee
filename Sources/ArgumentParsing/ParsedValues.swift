/// The typed values of one parsed command line, by property path
/// (`options.server`): what the decoder hands each property wrapper.
struct ParsedValues: Sendable {
  var values: [String: any Sendable] = [:]

  /// The value at `path`, nil when none was set.
  subscript(path: String) -> (any Sendable)? { values[path] }

  /// Sets the value at `path` (a nil optional is a value too).
  mutating func set(_ value: any Sendable, at path: String) { values[path] = value }
}
