import TPNSProtocol

/// The contents of the store: the **desired state** (the UID list and the
/// registration) and, per server URL, what that server has **acknowledged**.
/// Kept as the property list of docs/ARCHITECTURE.md ("The store file");
/// keys it does not know are kept in `otherKeys` and written back unchanged.
public struct StoreContents: Sendable, Equatable {
  /// The desired device UIDs, in the user's order, without duplicates (`UIDs`).
  public var uids: [String] = []
  /// The desired settings of UIDs in ``uids``, by UID (`UIDSettings`); a UID
  /// without an entry has none (the service's defaults).
  public var settings: [String: MappingSettings] = [:]
  /// The desired registration (`Token`, `OS`, `AppID`, `UDID`, `Lang`, `Dev`);
  /// `nil` until a token is registered.
  public var registration: PhoneRegistration?
  /// What each server acknowledged, by its `/tpns` URL as
  /// ``ServerURL/storeKey`` spells it (`Servers`).
  public var servers: [String: Acknowledgement] = [:]
  /// Keys this version does not know, kept as they were.
  public var otherKeys: [String: PropertyListValue] = [:]

  /// An empty store: no UIDs, no token, nothing acknowledged.
  public init() {}

  /// What `server` acknowledged (nothing, if it never answered).
  public func acknowledged(at server: String) -> Acknowledgement {
    servers[server] ?? Acknowledgement()
  }

  /// The difference between the desired state and what `server` acknowledged.
  public func difference(at server: String) -> StoreDifference {
    StoreDifference(self, at: server)
  }

  /// Whether `other` holds the same desired state (list, settings,
  /// registration, keys tpns does not know), whatever the servers acknowledged.
  func desiresTheSame(as other: StoreContents) -> Bool {
    uids == other.uids && settings == other.settings && registration == other.registration
      && otherKeys == other.otherKeys
  }

  /// The settings of `uid` (none if it has no entry).
  public func settings(of uid: String) -> MappingSettings {
    settings[uid] ?? MappingSettings()
  }

  /// Removes the UIDs at `indexes` from the list, and their settings.
  public mutating func removeUIDs(at indexes: Set<Int>) {
    for index in indexes { settings[uids[index]] = nil }
    uids = uids.indices.filter { !indexes.contains($0) }.map { uids[$0] }
  }
}

extension StoreContents {
  enum Key {
    static let uids = "UIDs"
    /// ``UIDRuns/digest(of:)`` of `UIDs`, as earlier versions wrote it.
    static let uidsDigest = "UIDsDigest"
    static let settings = "UIDSettings"
    static let servers = "Servers"
    /// The earlier format's: the one server the registration belonged to,
    /// whether it acknowledged it, and the list it acknowledged.
    static let legacyServer = "Server"
    static let legacyRegistered = "Registered"
    static let legacySyncedUIDs = "SyncedUIDs"
    static let all: Set<String> = PhoneRegistration.Key.all.union([
      uids, uidsDigest, settings, servers, legacyServer, legacyRegistered, legacySyncedUIDs,
    ])
  }

  /// Reads and validates a whole top-level plist dictionary: every UID valid,
  /// no duplicates, settings valid and only for listed UIDs, the registration
  /// complete and valid.
  init(propertyList: [String: PropertyListValue]) throws(StoreFormatError) {
    // First: a misspelt `UIDs` would otherwise be reported as settings of unlisted UIDs.
    otherKeys = try Self.otherKeys(of: propertyList, known: Key.all)
    let listed = try propertyList.strings(Key.uids) ?? []
    uids = try Self.validated(listed, key: Key.uids)
    var runsAreOfStoredUIDs = false
    if case .string(let digest)? = propertyList[Key.uidsDigest] {
      runsAreOfStoredUIDs = digest == UIDRuns.digest(of: listed)
    }
    settings = try Self.settings(in: propertyList, listKey: Key.uids, of: uids)
    registration = try PhoneRegistration.read(propertyList)
    if let entries = try propertyList.dictionary(Key.servers) {
      // Several spellings of one server's URL are merged into one entry.
      var spellings: [String: [Acknowledgement]] = [:]
      for (server, value) in entries.sorted(by: { $0.key < $1.key }) {
        let acknowledgement = try Acknowledgement.read(
          value, server: server, storedUIDs: uids, runsAreOfStoredUIDs: runsAreOfStoredUIDs)
        spellings[ServerURL(server).storeKey, default: []].append(acknowledgement)
      }
      servers = spellings.mapValues(Acknowledgement.merged)
    }
    try migrateLegacyKeys(propertyList)
  }

  /// Refuses, in a binary store, what tpns could not write back as it was read,
  /// naming where it is: a key or string holding a character XML does not allow
  /// (``PropertyListXML/allows(_:)``), or a date libplist 2.2 cannot hand over
  /// exactly (``PropertyListLibplist``: the store would be written with another).
  static func checkWritable(_ value: PropertyListValue, key: String = "")
    throws(StoreFormatError)
  {
    let why = " (tpns writes the store as XML)"
    switch value {
    case .string(let text):
      if let refused = PropertyListXML.disallowedCharacter(in: text) {
        throw .invalidValue(
          key: key, reason: "it holds \(refused), \(PropertyListXML.notAllowed)" + why)
      }
    case .array(let items):
      for (index, item) in items.enumerated() {
        try checkWritable(item, key: "\(key) › \(index)")
      }
    case .dictionary(let members):
      for (name, member) in members.sorted(by: { $0.key < $1.key }) {
        let path = (key.isEmpty ? "" : key + " › ") + PropertyList.shown(key: name)
        if let refused = PropertyListXML.disallowedCharacter(in: name) {
          throw .invalidValue(
            key: path, reason: "the key holds \(refused), \(PropertyListXML.notAllowed)" + why)
        }
        try checkWritable(member, key: path)
      }
    case .date(let secondsSince1970):
      if !PropertyListLibplist.isExact(secondsSince1970: secondsSince1970) {
        throw .invalidValue(
          key: key,
          reason: "it holds a date libplist cannot read exactly (not after "
            + "1932-12-13T20:45:52Z, not before 2069-01-19T03:14:07Z, or within a second of "
            + "2001-01-01T00:00:00Z): write the store as an XML property list")
      }
    default:
      break
    }
  }

  /// Whether `key` differs from `known` only by case or surrounding white space.
  static func isMisspelt(_ key: String, as known: String) -> Bool {
    key != known && key.trimmingWhitespace().lowercased() == known.lowercased()
  }

  /// The keys of `dictionary` not among `known`, refusing one that differs from a known
  /// key only by case or spaces: kept as another key, the list or token it holds would
  /// read as missing, and a sync would unmap every UID. `context` prefixes it in errors.
  static func otherKeys(
    of dictionary: [String: PropertyListValue], known: Set<String>, context: String = ""
  ) throws(StoreFormatError) -> [String: PropertyListValue] {
    let others = dictionary.filter { !known.contains($0.key) }
    for key in others.keys.sorted() {
      if let known = known.first(where: { isMisspelt(key, as: $0) }) {
        throw .invalidValue(
          key: context + key,
          reason: "keys are exact, case and spaces included: rename it '\(known)'")
      }
    }
    return others
  }

  /// The earlier format's `Server`/`Registered`/`SyncedUIDs` as an
  /// acknowledgement of that server (unless `Servers` already says otherwise).
  private mutating func migrateLegacyKeys(
    _ propertyList: [String: PropertyListValue]
  ) throws(StoreFormatError) {
    let registered = try propertyList.bool(Key.legacyRegistered) ?? false
    let synced = try propertyList.strings(Key.legacySyncedUIDs).map {
      (uids) throws(StoreFormatError) in try Self.validated(uids, key: Key.legacySyncedUIDs)
    }
    guard let text = try propertyList.string(Key.legacyServer) else { return }
    let server = ServerURL(text).storeKey
    guard servers[server] == nil else { return }
    let acknowledgement = Acknowledgement(
      registration: registered ? registration : nil, uids: registered ? synced : nil)
    if !acknowledgement.isEmpty { servers[server] = acknowledgement }
  }

  /// `uids` in their canonical form (trimmed, upper-case: a hand-edited
  /// `abcd…` is read as `ABCD…`), if every one is a valid UID and none is repeated.
  static func validated(_ uids: [String], key: String) throws(StoreFormatError) -> [String] {
    var first: [String: Int] = [:]
    first.reserveCapacity(uids.count)
    // Copied only if a UID is not in its canonical form already.
    var canonical = uids
    for (index, text) in uids.enumerated() {
      let uid: String
      do {
        uid = try DeviceUID(text).rawValue
      } catch {
        throw .invalidUID(key: key, index: index, text: text, reason: error.description)
      }
      if let seen = first.updateValue(index, forKey: uid) {
        throw .duplicateUID(key: key, text: uid, first: seen, second: index)
      }
      if uid != text { canonical[index] = uid }
    }
    return canonical
  }

  /// The settings in `list`'s `UIDSettings` (UID → {`interval`, `format`}),
  /// by canonical UID; each must be of a UID of `uids` (the list at
  /// `listKey`; nil: not known), so that a hand edit naming the wrong UID
  /// does not pass unnoticed. `context` prefixes the key in errors.
  static func settings(
    in list: [String: PropertyListValue], context: String = "", listKey: String,
    of uids: [String]?
  ) throws(StoreFormatError) -> [String: MappingSettings] {
    guard let entries = try list.dictionary(Key.settings, context: context), !entries.isEmpty
    else { return [:] }
    let key = context + Key.settings
    let listed = uids.map(Set.init)
    var settings: [String: MappingSettings] = [:]
    var seen = Set<String>()
    // Sorted, so that the error about several bad entries is always the same one.
    for (text, value) in entries.sorted(by: { $0.key < $1.key }) {
      let entryKey = "\(key) › \(text)"
      let uid: String
      do {
        uid = try DeviceUID(text).rawValue
      } catch {
        throw .invalidValue(key: entryKey, reason: "it is not a UID: \(error)")
      }
      guard listed?.contains(uid) ?? true else {
        throw .invalidValue(
          key: entryKey,
          reason: "\(uid) is not in '\(listKey)' (add it to the list, or remove its settings)")
      }
      guard seen.insert(uid).inserted else {
        throw .invalidValue(key: entryKey, reason: "\(uid) has settings twice")
      }
      let read = try MappingSettings.read(value, key: entryKey)
      if !read.isEmpty { settings[uid] = read }
    }
    return settings
  }

  /// `settings` as a plist dictionary, only those of `uids` that are set;
  /// nil if none is.
  static func propertyList(
    of settings: [String: MappingSettings], for uids: [String]
  ) -> PropertyListValue? {
    guard !settings.isEmpty else { return nil }
    let listed = Set(uids)
    let kept = settings.filter { listed.contains($0.key) && !$0.value.isEmpty }
    return kept.isEmpty ? nil : .dictionary(kept.mapValues(\.propertyList))
  }

  var propertyList: [String: PropertyListValue] {
    var list = otherKeys
    list[Key.uids] = .array(uids.map(PropertyListValue.string))
    list[Key.settings] = Self.propertyList(of: settings, for: uids)
    list.merge(registration?.propertyList ?? [:]) { $1 }
    let acknowledged = servers.filter { !$0.value.isEmpty }
    if !acknowledged.isEmpty {
      list[Key.servers] = .dictionary(acknowledged.mapValues(\.propertyList))
    }
    return list
  }
}

/// Why a store file's contents are not a valid store.
public enum StoreFormatError: Error, Equatable, CustomStringConvertible {
  /// The file is not a property list at all (`reason` from the parser).
  case notAPropertyList(reason: String)
  /// Values nest deeper than `limit` levels (at `line` of an XML file; a
  /// binary one has none): refused before the reader runs out of stack.
  case nestedTooDeep(limit: Int, line: Int?)
  /// The file is empty (a store is never written empty: something else did it).
  case empty
  /// The file is larger than `limit` bytes, which no store tpns writes is: read no
  /// further, so that a mistaken file does not fill memory.
  case tooLarge(limit: Int)
  /// The top level is not a dictionary.
  case notADictionary
  /// A known key holds the wrong type.
  case wrongType(key: String, expected: String, found: PropertyListValue)
  /// An element of a known array key is not a string.
  case wrongElementType(key: String, index: Int, found: PropertyListValue)
  /// A list holds something that is not a device UID.
  case invalidUID(key: String, index: Int, text: String, reason: String)
  /// A list holds a UID twice.
  case duplicateUID(key: String, text: String, first: Int, second: Int)
  /// A known key holds a value of the right type that is not valid.
  case invalidValue(key: String, reason: String)

  public var description: String {
    switch self {
    case .notAPropertyList(let reason): "it is not a property list (\(reason))"
    case .nestedTooDeep(let limit, let line):
      "its elements nest deeper than \(limit) levels\(line.map { " (line \($0))" } ?? ""); "
        + "a store nests 6, and tpns reads at most \(limit)"
    case .empty: "the file is empty"
    case .tooLarge(let limit):
      "it is larger than \(limit >> 20) MiB (a store of 10,000 UIDs is less than 1 MiB)"
    case .notADictionary: "its top level is not a dictionary"
    case .wrongType(let key, let expected, let found):
      "'\(key)' should be \(withArticle(expected)), found \(found.typeName)"
    case .wrongElementType(let key, let index, let found):
      "'\(key)' item \(index) should be a string, found \(found.typeName)"
    case .invalidUID(let key, let index, let text, let reason):
      "'\(key)' item \(index) is not a UID (\"\(text.quotedStart.escapingControlCharacters)\": \(reason))"
    case .duplicateUID(let key, let text, let first, let second):
      "'\(key)' holds \(text) twice (items \(first) and \(second))"
    case .invalidValue(let key, let reason):
      "'\(key)' is not valid: \(reason)"
    }
  }
}
