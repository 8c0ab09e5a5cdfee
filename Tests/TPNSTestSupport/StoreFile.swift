import Foundation

/// A `tpns` store file as the tests see it: read with Foundation's
/// `PropertyListSerialization`, not with the code under test, in the terms of
/// the store's format (the desired state, and per server what it acknowledged).
///
///     let store = try StoreFile(path: tpns.store)
///     store.acknowledged(at: emulator.server).registration?.token
public struct StoreFile: Sendable, Equatable {
  /// The default application ID (the iOS quickstart's).
  public static let defaultAppID = "com.tutk.cc.samples.tpns.ios"

  /// The application ID `register` sends for `os` without `--appid`.
  public static func defaultAppID(for os: String) -> String {
    os == "ios" ? defaultAppID : "com.tutk.cc.samples.tpns.android"
  }

  /// The `lang` every `cmd=client` sends unless told otherwise (the service's default).
  public static let defaultLanguage = "enUS"

  /// Everything `cmd=client` sends for one phone. `lang` and `dev` are
  /// always sent, so they are always known: the service's defaults (`enUS`,
  /// `0`) unless given, also for a store without `Lang` or `Dev` (one written
  /// before they were always sent).
  public struct Registration: Sendable, Hashable, CustomStringConvertible {
    public var token: String
    public var os: String
    public var appID: String
    public var udid: String
    public var language: String?
    public var dev: Bool?

    /// A registration; `appID` nil is the OS's default, `language` and `dev`
    /// nil the service's.
    public init(
      token: String, os: String = "ios", appID: String? = nil,
      udid: String? = nil, language: String? = nil, dev: Bool? = nil
    ) {
      self.token = token
      self.os = os
      self.appID = appID ?? StoreFile.defaultAppID(for: os)
      self.udid = udid ?? token
      self.language = language ?? StoreFile.defaultLanguage
      self.dev = dev ?? false
    }

    /// The registration in a plist dictionary (`Token`, `OS`, …), nil without a `Token`.
    init?(_ list: [String: Any]) {
      guard let token = list["Token"] as? String else { return nil }
      let os = list["OS"] as? String ?? "ios"
      self.init(
        token: token, os: os, appID: list["AppID"] as? String,
        udid: list["UDID"] as? String ?? token, language: list["Lang"] as? String,
        dev: list["Dev"] as? Bool)
    }

    /// Who the phone is at the server: the same phone, whatever its token.
    public var identity: String { "\(os)/\(appID)/\(udid)" }

    /// Whether `token` is this registration's (an iOS token in any case).
    public func holds(token other: String?) -> Bool {
      guard let other else { return false }
      return os == "ios" ? other.lowercased() == token.lowercased() : other == token
    }

    public var description: String {
      "\(identity) token …\(token.suffix(6))"
        + (language.map { " lang \($0)" } ?? "") + (dev.map { " dev \($0)" } ?? "")
    }
  }

  /// A mapping's settings (`UIDSettings › <UID>`).
  public struct Settings: Sendable, Hashable, CustomStringConvertible {
    public var interval: Int?
    public var format: String?

    public init(interval: Int? = nil, format: String? = nil) {
      self.interval = interval
      self.format = format
    }

    /// The settings in a plist dictionary.
    init(_ list: [String: Any]) {
      self.init(interval: list["interval"] as? Int, format: list["format"] as? String)
    }

    /// `UIDSettings` of a plist dictionary, by UID.
    static func all(in list: [String: Any]) -> [String: Settings] {
      (list["UIDSettings"] as? [String: Any] ?? [:]).mapValues {
        Settings($0 as? [String: Any] ?? [:])
      }
    }

    public var description: String {
      "{\(interval.map(String.init) ?? "-"), \(format ?? "-")}"
    }
  }

  /// What one server acknowledged.
  public struct Acknowledged: Sendable, Equatable {
    /// The registration it accepted; nil if none.
    public var registration: Registration?
    /// The list it accepted; nil if none.
    public var uids: [String]?
    /// The settings it accepted for UIDs of the list (`UIDSettings`).
    public var settings: [String: Settings]
    /// Phones (`os/appid/udid`, see ``Registration/identity``) it accepted
    /// before the current one whose mappings are still to be removed there
    /// (`FormerPhones`).
    public var formerPhones: [String]
    /// Whether the list it holds for the registration's phone is unknown
    /// (`UIDsUnknown`, without `UIDs`): it may hold any.
    public var listIsUnknown: Bool

    public init(
      registration: Registration? = nil, uids: [String]? = nil,
      settings: [String: Settings] = [:], formerPhones: [String] = [], listIsUnknown: Bool = false
    ) {
      self.registration = registration
      self.uids = uids
      self.settings = settings
      self.formerPhones = formerPhones
      self.listIsUnknown = listIsUnknown
    }
  }

  /// The desired UIDs (`UIDs`).
  public var uids: [String]
  /// The desired settings, by UID (`UIDSettings`).
  public var settings: [String: Settings]
  /// The desired registration; nil without a token.
  public var desired: Registration?
  /// What each server acknowledged, by URL (`Servers`).
  public var servers: [String: Acknowledged]

  /// The store at `path`; an empty one when the file does not exist.
  public init(path: String) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      uids = []
      settings = [:]
      desired = nil
      servers = [:]
      return
    }
    let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    let list = object as? [String: Any] ?? [:]
    uids = list["UIDs"] as? [String] ?? []
    settings = Settings.all(in: list)
    desired = Registration(list)
    var servers: [String: Acknowledged] = [:]
    for (server, value) in list["Servers"] as? [String: Any] ?? [:] {
      let entry = value as? [String: Any] ?? [:]
      let formerPhones = (entry["FormerPhones"] as? [[String: Any]] ?? []).map {
        let os = $0["OS"] as? String ?? "ios"
        return "\(os)/\($0["AppID"] as? String ?? Self.defaultAppID(for: os))/"
          + "\($0["UDID"] as? String ?? "")"
      }
      servers[server] = Acknowledged(
        registration: (entry["Registration"] as? [String: Any]).flatMap(Registration.init),
        uids: entry["UIDs"] as? [String]
          ?? Self.expand(entry["UIDRuns"], stored: list["UIDs"] as? [String] ?? []),
        settings: Settings.all(in: entry),
        formerPhones: formerPhones,
        listIsUnknown: entry["UIDsUnknown"] as? Bool == true && entry["UIDs"] == nil
          && entry["UIDRuns"] == nil)
    }
    self.servers = servers
  }

  /// An acknowledged list written as runs of the stored list (`UIDRuns`:
  /// items {`From`, `Count`} or a UID), read here on its own, not through
  /// TPNSKit; nil if absent.
  static func expand(_ value: Any?, stored: [String]) -> [String]? {
    guard let items = value as? [Any] else { return nil }
    return items.flatMap { item -> [String] in
      if let uid = item as? String { return [uid] }
      let run = item as? [String: Any] ?? [:]
      let from = run["From"] as? Int ?? 0
      return Array(stored[from..<from + (run["Count"] as? Int ?? 0)])
    }
  }

  /// What `server` acknowledged (nothing if the store does not name it).
  public func acknowledged(at server: String) -> Acknowledged {
    servers[server] ?? Acknowledged()
  }
}

extension RunningEmulator {
  /// How this emulator's registry differs from what `store` says it
  /// acknowledged; empty when it is an exact replica:
  /// - the acknowledged registration is the client row of its phone (os,
  ///   token, lang, dev);
  /// - the registry's mappings are exactly the acknowledged UIDs of that
  ///   phone: none for another phone (an old one), none at all without an
  ///   acknowledged registration; a former phone whose unmapping the store
  ///   says is still to be sent there may hold any, and so may the
  ///   acknowledged phone when the store says its list there is unknown.
  public func replicaMismatches(of store: StoreFile) throws -> [String] {
    let registry = try registry()
    let acknowledged = store.acknowledged(at: server)
    var mismatches: [String] = []
    var expected: Set<RegistrySnapshot.Mapping> = []
    if let registration = acknowledged.registration {
      if let client = registry.client(appID: registration.appID, udid: registration.udid) {
        if client.os != registration.os || !registration.holds(token: client.token)
          || client.language != registration.language
          || (registration.dev == true) != (client.dev == 1)
        {
          mismatches.append("acknowledged \(registration), registry has \(client)")
        }
      } else {
        mismatches.append("acknowledged \(registration), registry has no client row for it")
      }
      expected = Set(
        (acknowledged.uids ?? []).map {
          let settings = acknowledged.settings[$0]
          return RegistrySnapshot.Mapping(
            appID: registration.appID, udid: registration.udid, uid: $0,
            interval: settings?.interval, format: settings?.format)
        })
    }
    let clients = Dictionary(
      registry.clients.map { ("\($0.appID)/\($0.udid)", $0.os) }, uniquingKeysWith: { a, _ in a })
    let actual = Set(
      registry.mappings.filter {
        let identity = "\(clients["\($0.appID)/\($0.udid)"] ?? "?")/\($0.appID)/\($0.udid)"
        let unknown =
          acknowledged.listIsUnknown && acknowledged.registration?.identity == identity
        return !acknowledged.formerPhones.contains(identity) && !unknown
      })
    if actual != expected {
      mismatches.append(
        "acknowledged mappings \(expected.map(\.description).sorted()), registry has "
          + "\(actual.map(\.description).sorted())")
    }
    return mismatches
  }

  /// How this emulator's registry differs from the desired state of `store`:
  /// the desired registration's client row, exactly the desired UIDs mapped to
  /// its phone, and nothing mapped to any other phone.
  public func desiredMismatches(of store: StoreFile) throws -> [String] {
    var acknowledgedEverything = store
    acknowledgedEverything.servers[server] = StoreFile.Acknowledged(
      registration: store.desired, uids: store.desired == nil ? nil : store.uids,
      settings: store.desired == nil ? [:] : store.settings)
    return try replicaMismatches(of: acknowledgedEverything)
  }
}
