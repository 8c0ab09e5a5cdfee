import TPNSProtocol

/// How a mapping's settings are stored: `UIDSettings › <UID>` is a
/// dictionary of `interval` (integer) and `format` (string), the wire's names.
extension MappingSettings {
  enum Key {
    static let interval = "interval"
    static let format = "format"
    static let all: Set<String> = [interval, format]
  }

  /// The settings stored at `key`, checked as ``MappingSettings`` checks
  /// them. A key it does not know is refused: a misspelt `Interval` must not
  /// silently be no setting at all.
  static func read(_ value: PropertyListValue, key: String) throws(StoreFormatError)
    -> MappingSettings
  {
    guard case .dictionary(let list) = value else {
      throw .wrongType(key: key, expected: "dictionary", found: value)
    }
    if let unknown = list.keys.filter({ !Key.all.contains($0) }).sorted().first {
      throw .invalidValue(
        key: key, reason: "'\(unknown)' is not a setting (known: interval, format)")
    }
    let interval: Int?
    switch list[Key.interval] {
    case nil: interval = nil
    case .integer(let value): interval = value
    case let other?:
      throw .wrongType(key: key + " › " + Key.interval, expected: "integer", found: other)
    }
    let format = try list.string(Key.format, context: key + " › ")
    do {
      return try MappingSettings(interval: interval, format: format)
    } catch {
      let field = if case .interval = error { Key.interval } else { Key.format }
      throw .invalidValue(key: key + " › " + field, reason: error.description)
    }
  }

  /// The dictionary that stores these settings (only those set).
  var propertyList: PropertyListValue {
    var list: [String: PropertyListValue] = [:]
    list[Key.interval] = interval.map(PropertyListValue.integer)
    list[Key.format] = format.map(PropertyListValue.string)
    return .dictionary(list)
  }
}
