/// The contents of the store: the UID list and the registration, the single
/// source of truth the server is a replica of.
///
/// Kept as the XML property list of DESIGN.md; keys it does not know are kept
/// in `otherKeys` and written back unchanged.
public struct StoreState: Sendable, Equatable {
  /// The device UIDs, in the user's order, without duplicates (`UIDs`).
  public var uids: [String] = []
  /// The push token (`Token`).
  public var token: String?
  /// The phone's ID at the server; an iOS phone's is its token (`UDID`).
  public var udid: String?
  /// `ios` or `android` (`OS`).
  public var os: String?
  /// The application ID (`AppID`).
  public var appID: String?
  /// The server the registration belongs to (`Server`).
  public var server: String?
  /// Whether that server acknowledged this token (`Registered`).
  public var registered = false
  /// The last list the server acknowledged (`SyncedUIDs`); `nil` if never synced.
  public var syncedUIDs: [String]?
  /// Keys this version does not know, kept as they were.
  public var otherKeys: [String: PropertyListValue] = [:]

  /// An empty store: no UIDs, not registered.
  public init() {}

  /// The first string that a property list cannot hold, if any.
  var unwritableText: String? {
    let texts = uids + (syncedUIDs ?? []) + [token, udid, os, appID, server].compactMap { $0 }
    return texts.first { !PropertyListXML.isWritable($0) }
  }

  /// Whether the stored list differs from what the server last acknowledged
  /// (a server that never acknowledged a list holds none).
  public var hasPendingChanges: Bool {
    (syncedUIDs ?? []) != uids
  }
}

extension StoreState {
  /// The property-list keys, as the quickstart and DESIGN.md name them.
  enum Key {
    static let uids = "UIDs"
    static let token = "Token"
    static let udid = "UDID"
    static let os = "OS"
    static let appID = "AppID"
    static let server = "Server"
    static let registered = "Registered"
    static let syncedUIDs = "SyncedUIDs"
    static let all: Set<String> = [uids, token, udid, os, appID, server, registered, syncedUIDs]
  }

  /// Reads a top-level plist dictionary; `reason` says which key has the wrong type.
  init(propertyList: [String: PropertyListValue]) throws(StoreFormatError) {
    var remaining = propertyList
    func take(_ key: String) -> PropertyListValue? { remaining.removeValue(forKey: key) }

    uids = try Self.strings(take(Key.uids), key: Key.uids) ?? []
    token = try Self.string(take(Key.token), key: Key.token)
    udid = try Self.string(take(Key.udid), key: Key.udid)
    os = try Self.string(take(Key.os), key: Key.os)
    appID = try Self.string(take(Key.appID), key: Key.appID)
    server = try Self.string(take(Key.server), key: Key.server)
    switch take(Key.registered) {
    case nil: registered = false
    case .bool(let value): registered = value
    case let other?: throw .wrongType(key: Key.registered, expected: "boolean", found: other)
    }
    syncedUIDs = try Self.strings(take(Key.syncedUIDs), key: Key.syncedUIDs)
    otherKeys = remaining
  }

  /// The top-level plist dictionary for this state.
  var propertyList: [String: PropertyListValue] {
    var list = otherKeys
    list[Key.uids] = .array(uids.map(PropertyListValue.string))
    list[Key.token] = token.map(PropertyListValue.string)
    list[Key.udid] = udid.map(PropertyListValue.string)
    list[Key.os] = os.map(PropertyListValue.string)
    list[Key.appID] = appID.map(PropertyListValue.string)
    list[Key.server] = server.map(PropertyListValue.string)
    list[Key.registered] = .bool(registered)
    list[Key.syncedUIDs] = syncedUIDs.map { .array($0.map(PropertyListValue.string)) }
    return list
  }

  private static func string(
    _ value: PropertyListValue?, key: String
  ) throws(StoreFormatError) -> String? {
    switch value {
    case nil: return nil
    case .string(let text): return text
    case let other?: throw .wrongType(key: key, expected: "string", found: other)
    }
  }

  private static func strings(
    _ value: PropertyListValue?, key: String
  ) throws(StoreFormatError) -> [String]? {
    switch value {
    case nil: return nil
    case .array(let items):
      var texts: [String] = []
      for (index, item) in items.enumerated() {
        guard case .string(let text) = item else {
          throw .wrongElementType(key: key, index: index, found: item)
        }
        texts.append(text)
      }
      return texts
    case let other?: throw .wrongType(key: key, expected: "array of strings", found: other)
    }
  }
}

/// Why a store file's contents are not a valid store.
public enum StoreFormatError: Error, Equatable, CustomStringConvertible {
  /// The file is not a property list at all (`reason` from the parser).
  case notAPropertyList(reason: String)
  /// The file is empty (a store is never written empty: something else did it).
  case empty
  /// A binary property list; the store is kept as XML.
  case binaryPropertyList
  /// The top level is not a dictionary.
  case notADictionary
  /// A known key holds the wrong type.
  case wrongType(key: String, expected: String, found: PropertyListValue)
  /// An element of a known array key is not a string.
  case wrongElementType(key: String, index: Int, found: PropertyListValue)

  public var description: String {
    switch self {
    case .notAPropertyList(let reason): "it is not a property list (\(reason))"
    case .empty: "the file is empty"
    case .binaryPropertyList:
      "it is a binary property list; tpns keeps XML (convert it: plutil -convert xml1 FILE)"
    case .notADictionary: "its top level is not a dictionary"
    case .wrongType(let key, let expected, let found):
      "'\(key)' should be \(expected.first.map { "aeiou".contains($0) } == true ? "an" : "a") "
        + "\(expected), found \(found.typeName)"
    case .wrongElementType(let key, let index, let found):
      "'\(key)' item \(index) should be a string, found \(found.typeName)"
    }
  }
}
