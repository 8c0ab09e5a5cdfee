import TPNSProtocol

/// What one server has acknowledged: the registration it accepted and the
/// list it accepted, with each UID's settings. Only a request the server
/// answered 2xx moves it.
public struct Acknowledgement: Sendable, Equatable {
  /// The registration the server accepted (`cmd=client`); `nil` if none.
  public var registration: PhoneRegistration?
  /// The list the server accepted (`cmd=mapsync`, or moved by `mapping`,
  /// `rm_mapping` and `unreg_mapping`) for that registration's phone; `nil`
  /// if it never accepted one.
  public var uids: [String]?
  /// The settings the server accepted for UIDs of ``uids`` (`UIDSettings`);
  /// a UID without an entry has none there.
  public var settings: [String: MappingSettings]
  /// Phones this store registered there before the current one (another
  /// udid or appid) whose mappings are still to be removed.
  public var formerPhones: [Phone]
  /// UIDs the server refused as not activated in the vendor's console (a 2xx
  /// whose body starts with `422`, ``NotActivatedAnswer``), in the order sent:
  /// it does not hold them, and holding the rest of the list is not sync.
  /// Written as `NotActivated`.
  public var notActivated: [String] = []
  /// Whether the list the server holds (settings included) is unknown: `UIDs`
  /// was edited by hand since the server's list was stored as runs of it
  /// (``UIDRuns``), or a former phone was registered again before its
  /// mappings were removed. Known again after an `unreg_mapping` (sent first)
  /// or a whole `mapsync`. Written as `UIDsUnknown`, so that it stays unknown.
  public var listIsUnknown = false
  /// The entry's keys tpns does not know, and those of its `Registration`
  /// (a note a user wrote there, say): kept as they are and written back, as
  /// the store's own are (``StoreContents/otherKeys``).
  public var otherKeys: [String: PropertyListValue] = [:]
  public var otherRegistrationKeys: [String: PropertyListValue] = [:]

  /// An acknowledgement; nothing acknowledged by default.
  public init(
    registration: PhoneRegistration? = nil, uids: [String]? = nil,
    settings: [String: MappingSettings] = [:], formerPhones: [Phone] = []
  ) {
    self.registration = registration
    self.uids = uids
    self.settings = settings
    self.formerPhones = formerPhones
  }

  /// Whether the server acknowledged nothing at all.
  public var isEmpty: Bool {
    registration == nil && uids == nil && settings.isEmpty && formerPhones.isEmpty
      && !listIsUnknown && notActivated.isEmpty
  }

  /// Records that the server accepted `uids` with the `sent` settings
  /// (`mapsync`): its whole list, but the UIDs it refused as `notActivated`.
  /// A UID it held before keeps a setting its entry left out (the service
  /// keeps a mapping's settings unless told otherwise: only removing the
  /// mapping clears one); a UID new to it has what was sent.
  mutating func accept(
    list uids: [String], sent: [String: MappingSettings], notActivated: [String] = []
  ) {
    listIsUnknown = false
    self.notActivated = notActivated
    // Most lists have no settings, here or sent: nothing to merge.
    guard !self.settings.isEmpty || !sent.isEmpty else {
      self.uids = uids
      return
    }
    let held = Set(self.uids ?? [])
    let none = MappingSettings()
    var settings: [String: MappingSettings] = [:]
    for uid in uids {
      let old = held.contains(uid) ? self.settings[uid] ?? none : none
      let now = old.merged(sending: sent[uid] ?? none)
      if !now.isEmpty { settings[uid] = now }
    }
    self.uids = uids
    self.settings = settings
  }

  /// Records that the server mapped `uid` (`mapping`) with `sent`: added at
  /// the end of its list if it was not there; a setting not sent keeps the
  /// value the server had (a `mapping` cannot clear one).
  mutating func accept(mapping uid: String, sent: MappingSettings) {
    notActivated.removeAll { $0 == uid }
    let held = uids?.contains(uid) ?? false
    if !held { uids = (uids ?? []) + [uid] }
    let merged = (held ? settings[uid] ?? MappingSettings() : MappingSettings()).merged(
      sending: sent)
    settings[uid] = merged.isEmpty ? nil : merged
  }

  /// Records that the server refused to map `uid` as not activated
  /// (`mapping`): it holds no mapping of it.
  mutating func refuse(notActivated uid: String) {
    uids?.removeAll { $0 == uid }
    settings[uid] = nil
    if !notActivated.contains(uid) { notActivated.append(uid) }
  }

  /// Records that the server removed the mapping of `uid`, or every
  /// mapping of the phone when `uid` is nil (`rm_mapping`, `unreg_mapping`).
  mutating func accept(unmapping uid: String?) {
    guard let uid else {
      uids = []
      settings = [:]
      notActivated = []
      listIsUnknown = false
      return
    }
    uids?.removeAll { $0 == uid }
    settings[uid] = nil
  }

  /// Records that the server accepted `registration`: a phone it replaces
  /// (another appid or udid) becomes a former phone (its mappings still to
  /// be removed), and the list acknowledged for it says nothing of the new
  /// one. The same phone with another `os` was updated in place: nothing
  /// to unmap, and its list is sent again rather than assumed. A former
  /// phone registered again may still hold mappings its unmapping was to
  /// remove: its list is unknown (``listIsUnknown``).
  mutating func accept(_ registration: PhoneRegistration) {
    let wasFormer = formerPhones.contains { $0.isSamePhone(as: registration.phone) }
    if let current = self.registration, current.phone != registration.phone {
      if !current.phone.isSamePhone(as: registration.phone),
        !formerPhones.contains(current.phone)
      {
        formerPhones.append(current.phone)
      }
      uids = nil
      settings = [:]
      notActivated = []
      listIsUnknown = false
    }
    if wasFormer {
      formerPhones.removeAll { $0.isSamePhone(as: registration.phone) }
      uids = nil
      settings = [:]
      listIsUnknown = true
    }
    self.registration = registration
  }
}

extension Acknowledgement {
  /// What one server acknowledged, from the `records` a store kept for it
  /// under several spellings of its URL: what they all say. Where they
  /// disagree, nothing is concluded (no registration, no list), and every
  /// phone any of them held is a former phone to unmap.
  static func merged(_ records: [Acknowledgement]) -> Acknowledgement {
    guard var merged = records.first else { return Acknowledgement() }
    for other in records.dropFirst() {
      let sameRegistration = merged.registration == other.registration
      var phones = other.formerPhones
      if !sameRegistration {
        phones = [merged.registration?.phone, other.registration?.phone].compactMap { $0 } + phones
        merged.registration = nil
      }
      if !sameRegistration || merged.uids != other.uids || merged.settings != other.settings
        || merged.notActivated != other.notActivated
      {
        merged.uids = nil
        merged.settings = [:]
        merged.notActivated = []
      }
      for phone in phones where !merged.formerPhones.contains(phone) {
        merged.formerPhones.append(phone)
      }
      merged.otherKeys.merge(other.otherKeys) { kept, _ in kept }
      merged.otherRegistrationKeys.merge(other.otherRegistrationKeys) { kept, _ in kept }
    }
    return merged
  }
}

extension Acknowledgement {
  enum Key {
    static let registration = "Registration"
    static let uids = "UIDs"
    static let uidRuns = "UIDRuns"
    static let settings = "UIDSettings"
    static let formerPhones = "FormerPhones"
    static let uidsUnknown = "UIDsUnknown"
    static let notActivated = "NotActivated"
    static let all: Set<String> = [
      registration, uids, uidRuns, settings, formerPhones, uidsUnknown, notActivated,
    ]
  }

  /// The acknowledgement stored at `Servers › <server>`. `storedUIDs`, the
  /// store's validated list, is taken as it is when the acknowledged list
  /// equals it. Runs (``UIDRuns``) are of `storedUIDs` if
  /// `runsAreOfStoredUIDs`; if not, the list is unknown.
  static func read(
    _ value: PropertyListValue, server: String, storedUIDs: [String] = [],
    runsAreOfStoredUIDs: Bool = true
  ) throws(StoreFormatError) -> Acknowledgement {
    // A hand-edited server key may hold credentials: messages show it without them.
    let entry = "Servers › \(PropertyList.shown(key: server))"
    let context = entry + " › "
    guard case .dictionary(let list) = value else {
      throw .wrongType(key: entry, expected: "dictionary", found: value)
    }
    var acknowledgement = Acknowledgement()
    acknowledgement.otherKeys = try StoreContents.otherKeys(
      of: list, known: Key.all, context: context)
    if let registration = try list.dictionary(Key.registration, context: context) {
      let context = context + Key.registration + " › "
      acknowledgement.registration = try PhoneRegistration.read(registration, context: context)
      acknowledgement.otherRegistrationKeys = try StoreContents.otherKeys(
        of: registration, known: PhoneRegistration.Key.all, context: context)
    }
    // The mark counts only without a list: a tpns that does not know it
    // keeps it as it is, beside the list it records after a sync.
    acknowledgement.listIsUnknown =
      list[Key.uidsUnknown] == .bool(true) && list[Key.uids] == nil && list[Key.uidRuns] == nil
    // Written out (`UIDs`) or as runs of the stored list (`UIDRuns`); not both.
    // Most often the stored list itself: compared where it lies, not copied out.
    let isStoredList = list.holds(Key.uids, strings: storedUIDs)
    if let uids = isStoredList ? storedUIDs : try list.strings(Key.uids, context: context) {
      if list[Key.uidRuns] != nil {
        throw .invalidValue(
          key: context + Key.uidRuns,
          reason: "'\(Key.uids)' holds the list already (keep one of the two)")
      }
      acknowledgement.uids =
        isStoredList ? storedUIDs : try StoreContents.validated(uids, key: context + Key.uids)
    } else if let value = list[Key.uidRuns] {
      let key = context + Key.uidRuns
      if runsAreOfStoredUIDs {
        let uids = try UIDRuns.expand(value, key: key, against: storedUIDs)
        acknowledgement.uids =
          uids == storedUIDs ? storedUIDs : try StoreContents.validated(uids, key: key)
      } else {
        // `UIDs` was edited by hand since: the runs would name other UIDs.
        acknowledgement.listIsUnknown = true
      }
    }
    if let refused = try list.strings(Key.notActivated, context: context) {
      acknowledgement.notActivated = try StoreContents.validated(
        refused, key: context + Key.notActivated)
    }
    acknowledgement.settings = try StoreContents.settings(
      in: list, context: context,
      listKey: context + (list[Key.uidRuns] != nil ? Key.uidRuns : Key.uids),
      of: acknowledgement.listIsUnknown ? nil : acknowledgement.uids ?? [])
    switch list[Key.formerPhones] {
    case nil: break
    case .array(let items):
      for (index, item) in items.enumerated() {
        let key = context + Key.formerPhones + " › \(index)"
        guard case .dictionary(let phone) = item else {
          throw .wrongType(key: key, expected: "dictionary", found: item)
        }
        acknowledgement.formerPhones.append(try Phone.read(phone, context: key + " › "))
      }
    case let other?:
      throw .wrongType(key: context + Key.formerPhones, expected: "array", found: other)
    }
    return acknowledgement
  }

  var propertyList: PropertyListValue {
    var list = otherKeys
    list[Key.registration] = registration.map {
      .dictionary(otherRegistrationKeys.merging($0.propertyList) { _, known in known })
    }
    if listIsUnknown {
      // The list as it is now would claim a list the server may not hold.
      list[Key.uidsUnknown] = .bool(true)
    } else if let uids {
      list[Key.uids] = .array(uids.map(PropertyListValue.string))
    }
    list[Key.settings] = StoreContents.propertyList(of: settings, for: uids ?? [])
    if !notActivated.isEmpty {
      list[Key.notActivated] = .array(notActivated.map(PropertyListValue.string))
    }
    if !formerPhones.isEmpty {
      list[Key.formerPhones] = .array(formerPhones.map { .dictionary($0.propertyList) })
    }
    return .dictionary(list)
  }
}
