import FoundationEssentials

/// The store file's top-level dictionary, coded key by key: the known keys as
/// their own types (the UID arrays straight as `[String]`, which is several
/// times faster than going through ``PropertyListValue`` for 10,000 UIDs), the
/// others as ``PropertyListValue`` so they are written back unchanged.
struct StoreDocument: Codable {
  var state: StoreState

  init(_ state: StoreState) {
    self.state = state
  }

  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let container: KeyedDecodingContainer<Key>
    do {
      container = try decoder.container(keyedBy: Key.self)
    } catch DecodingError.typeMismatch {
      throw StoreFormatError.notADictionary
    }
    var state = StoreState()
    for key in container.allKeys {
      let name = key.stringValue
      switch name {
      case StoreState.Key.uids:
        state.uids = try Self.strings(container, key)
      case StoreState.Key.syncedUIDs:
        state.syncedUIDs = try Self.strings(container, key)
      case StoreState.Key.token: state.token = try Self.string(container, key)
      case StoreState.Key.udid: state.udid = try Self.string(container, key)
      case StoreState.Key.os: state.os = try Self.string(container, key)
      case StoreState.Key.appID: state.appID = try Self.string(container, key)
      case StoreState.Key.server: state.server = try Self.string(container, key)
      case StoreState.Key.registered:
        guard let value = try? container.decode(Bool.self, forKey: key) else {
          throw StoreFormatError.wrongType(
            key: name, expected: "boolean",
            found: try container.decode(PropertyListValue.self, forKey: key))
        }
        state.registered = value
      default:
        state.otherKeys[name] = try container.decode(PropertyListValue.self, forKey: key)
      }
    }
    self.state = state
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for (name, value) in state.otherKeys where !StoreState.Key.all.contains(name) {
      try container.encode(value, forKey: Key(name))
    }
    try container.encode(state.uids, forKey: Key(StoreState.Key.uids))
    try container.encodeIfPresent(state.token, forKey: Key(StoreState.Key.token))
    try container.encodeIfPresent(state.udid, forKey: Key(StoreState.Key.udid))
    try container.encodeIfPresent(state.os, forKey: Key(StoreState.Key.os))
    try container.encodeIfPresent(state.appID, forKey: Key(StoreState.Key.appID))
    try container.encodeIfPresent(state.server, forKey: Key(StoreState.Key.server))
    try container.encode(state.registered, forKey: Key(StoreState.Key.registered))
    try container.encodeIfPresent(state.syncedUIDs, forKey: Key(StoreState.Key.syncedUIDs))
  }

  private static func string(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> String
  {
    if let text = try? container.decode(String.self, forKey: key) { return text }
    throw StoreFormatError.wrongType(
      key: key.stringValue, expected: "string",
      found: try container.decode(PropertyListValue.self, forKey: key))
  }

  private static func strings(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws
    -> [String]
  {
    if let texts = try? container.decode([String].self, forKey: key) { return texts }
    // The slow path, only to say what is wrong.
    let value = try container.decode(PropertyListValue.self, forKey: key)
    guard case .array(let items) = value else {
      throw StoreFormatError.wrongType(
        key: key.stringValue, expected: "array of strings", found: value)
    }
    let index = items.firstIndex { if case .string = $0 { false } else { true } } ?? 0
    throw StoreFormatError.wrongElementType(key: key.stringValue, index: index, found: items[index])
  }
}
