import TPNSProtocol

/// How far one server is from the desired state: what `tpns status` shows
/// and what reconciling that server does. Whether the server is registered,
/// and whose list it holds, are ``StoreContents``'s rules
/// (`StoreContents+Reconcile.swift`).
public struct StoreDifference: Sendable, Equatable {
  private let state: StoreContents
  private let server: String
  /// What the server acknowledged.
  public let acknowledged: Acknowledgement

  init(_ state: StoreContents, at server: String) {
    self.state = state
    self.server = server
    acknowledged = state.acknowledged(at: server)
  }

  /// The desired registration, if a token is stored.
  public var desired: PhoneRegistration? { state.registration }

  /// The desired list.
  public var uids: [String] { state.uids }

  /// The desired settings of the listed UIDs.
  public var settings: [String: MappingSettings] { state.settings }

  /// Whether the server acknowledged the desired registration.
  public var isRegistered: Bool { state.isRegistered(at: server) }

  /// Phones the server holds for this store that are no longer the desired
  /// one (another udid or appid; another os alone is the same phone,
  /// ``Phone/isSamePhone(as:)``): their mappings must go, once the new phone
  /// is registered and before it is mapped.
  public var formerPhones: [Phone] {
    guard let desired else { return [] }
    var phones = acknowledged.formerPhones
    if let current = acknowledged.registration?.phone, !phones.contains(current) {
      phones.append(current)
    }
    return phones.filter { !$0.isSamePhone(as: desired.phone) }
  }

  /// Whether the desired registration must be sent (a new token, phone,
  /// `lang` or `dev`, or one the server never accepted).
  public var needsRegistration: Bool { desired != nil && !isRegistered }

  /// The list the server holds for the desired phone, as far as we know.
  public var acknowledgedUIDs: [String] {
    state.holds(desired?.phone, at: server) ? acknowledged.uids ?? [] : []
  }

  /// The settings the server holds for the desired phone's UIDs, as far as we know.
  public var acknowledgedSettings: [String: MappingSettings] {
    state.holds(desired?.phone, at: server) ? acknowledged.settings : [:]
  }

  /// Whether the list the server holds for the desired phone is unknown
  /// (``Acknowledgement/listIsUnknown``), or will be once it is registered there
  /// again (a former phone there, its mappings not yet removed): only unmapping
  /// all of it makes it known, and counts of what it lacks (``toAdd``,
  /// ``toRemove``) are guesses until then.
  public var listIsUnknown: Bool {
    guard let phone = desired?.phone else { return false }
    guard state.holds(phone, at: server) else {
      return acknowledged.formerPhones.contains { $0.isSamePhone(as: phone) }
    }
    return acknowledged.listIsUnknown
  }

  /// Stored UIDs the server refused as not activated in the vendor's console
  /// (``Acknowledgement/notActivated``) and does not hold: neither in line
  /// nor pending, until they are activated and sent again (`tpns sync`,
  /// `watch --interval`).
  public var notActivated: [String] {
    guard !acknowledged.notActivated.isEmpty, state.holds(desired?.phone, at: server) else {
      return []
    }
    let refused = Set(acknowledged.notActivated)
    let held = Set(acknowledgedUIDs)
    return uids.filter { refused.contains($0) && !held.contains($0) }
  }

  /// Whether the desired list, or a listed UID's settings, differs from
  /// what the server acknowledged (or what the server holds is unknown),
  /// leaving out the UIDs it refused as not activated: sending them again
  /// at once would only be refused again.
  public var listDiffers: Bool { listDiffers(passingOver: []) }

  /// Whether the list differs (``listDiffers``) but for the UIDs of
  /// `removals` the server holds (the list no longer has them).
  func listDiffers(passingOver removals: Set<String>) -> Bool {
    if listIsUnknown || !toUpdate.isEmpty { return true }
    let held =
      removals.isEmpty ? acknowledgedUIDs : acknowledgedUIDs.filter { !removals.contains($0) }
    guard held != uids else { return false }
    let refused = Set(notActivated)
    return refused.isEmpty || held != uids.filter { !refused.contains($0) }
  }

  /// Stored UIDs the server holds with a setting the desired settings do
  /// not have: neither a `mapsync` entry nor a `mapping` that leaves a
  /// setting out clears it at the service, so the mapping is removed (a
  /// `mapsync` without these UIDs) and made again (one with them).
  public var toReset: [String] {
    let held = acknowledgedSettings
    guard !held.isEmpty else { return [] }
    let none = MappingSettings()
    return toUpdate.filter { !(settings[$0] ?? none).covers(held[$0] ?? none) }
  }

  /// Stored UIDs the server holds with other settings than the desired ones.
  public var toUpdate: [String] {
    let held = acknowledgedSettings
    // Most stores have no settings at all: nothing to compare.
    guard !settings.isEmpty || !held.isEmpty else { return [] }
    let acknowledgedList = Set(acknowledgedUIDs)
    let none = MappingSettings()
    return uids.filter {
      acknowledgedList.contains($0) && settings[$0] ?? none != held[$0] ?? none
    }
  }

  /// Stored UIDs that the server does not hold yet, but those it refused
  /// as not activated (``notActivated``).
  public var toAdd: [String] {
    // In sync, the usual case: no set of the list to build.
    let acknowledged = acknowledgedUIDs
    guard acknowledged != uids else { return [] }
    let held = Set(acknowledged).union(notActivated)
    return uids.filter { !held.contains($0) }
  }

  /// UIDs the server holds that are no longer stored.
  public var toRemove: [String] {
    let acknowledged = acknowledgedUIDs
    guard acknowledged != uids else { return [] }
    let stored = Set(uids)
    return acknowledged.filter { !stored.contains($0) }
  }

  /// UIDs are stored but no token: nothing can be sent until one is registered.
  public var waitsForToken: Bool { desired == nil && !uids.isEmpty }

  /// Whether anything is left to send to the server (or to register first).
  public var isPending: Bool {
    desired == nil ? !uids.isEmpty : needsRegistration || !formerPhones.isEmpty || listDiffers
  }

  /// The command that brings the server in line, `nil` when nothing is pending.
  /// Never a token as an argument: other users see a command line, and
  /// shell history keeps it (docs/SECURITY.md).
  public var nextCommand: String? {
    guard isPending else { return nil }
    return desired == nil ? "tpns register --token-file FILE" : "tpns sync"
  }
}
