import Foundation

/// The emulator's registry as `/_emulator/registry` shows it, in the fields
/// the tests compare.
public struct RegistrySnapshot: Sendable, Equatable {
  /// A phone registered by `cmd=client`.
  public struct Client: Sendable, Equatable, CustomStringConvertible {
    public var os: String
    public var appID: String
    public var udid: String
    /// Nil once another udid has claimed the token.
    public var token: String?
    public var language: String?
    public var dev: Int?

    public var description: String {
      "\(os)/\(appID)/\(udid) token \(token ?? "none") lang \(language ?? "none") "
        + "dev \(dev.map(String.init) ?? "none")"
    }
  }

  /// A UID mapped to a phone, with the mapping's settings.
  public struct Mapping: Sendable, Hashable, CustomStringConvertible {
    public var appID: String
    public var udid: String
    public var uid: String
    public var interval: Int?
    public var format: String?

    public init(
      appID: String, udid: String, uid: String, interval: Int? = nil, format: String? = nil
    ) {
      self.appID = appID
      self.udid = udid
      self.uid = uid
      self.interval = interval
      self.format = format
    }

    public var description: String {
      "\(appID)/\(udid) → \(uid)"
        + (interval == nil && format == nil
          ? "" : " {\(interval.map(String.init) ?? "-"), \(format ?? "-")}")
    }
  }

  public var clients: [Client]
  public var mappings: [Mapping]

  /// The client row of the phone (`appID`, `udid`), if registered.
  public func client(appID: String, udid: String) -> Client? {
    clients.first { $0.appID == appID && $0.udid == udid }
  }
}

/// A notification `cmd=event` recorded for one phone.
public struct RecordedNotification: Sendable, Equatable {
  public var id: Int
  public var appID: String
  public var udid: String
  public var token: String
  public var uid: String
}

/// One `/tpns` request from the log: its decoded parameters and the status answered.
public struct LoggedRequest: Sendable, Equatable, CustomStringConvertible {
  public var parameters: [String: String]
  public var status: Int

  /// `cmd`, or "" for a request without one.
  public var command: String { parameters["cmd"] ?? "" }

  public var description: String {
    "\(command) \(status) \(parameters.filter { $0.key != "cmd" }.sorted { $0.key < $1.key })"
  }
}

extension RunningEmulator {
  /// The registry's clients and mappings.
  public func registry() throws -> RegistrySnapshot {
    let registry = try inspect("registry")
    let clients = (registry["clients"] as? [[String: Any]] ?? []).map {
      RegistrySnapshot.Client(
        os: $0["os"] as? String ?? "", appID: $0["appid"] as? String ?? "",
        udid: $0["udid"] as? String ?? "", token: $0["token"] as? String,
        language: $0["lang"] as? String, dev: $0["dev"] as? Int)
    }
    let mappings = (registry["mappings"] as? [[String: Any]] ?? []).map {
      RegistrySnapshot.Mapping(
        appID: $0["appid"] as? String ?? "", udid: $0["udid"] as? String ?? "",
        uid: $0["uid"] as? String ?? "", interval: $0["interval"] as? Int,
        format: $0["format"] as? String)
    }
    return RegistrySnapshot(clients: clients, mappings: mappings)
  }

  /// Every notification recorded since start or reset, oldest first.
  public func notifications() throws -> [RecordedNotification] {
    (try inspect("notifications")["notifications"] as? [[String: Any]] ?? []).map {
      RecordedNotification(
        id: $0["id"] as? Int ?? 0, appID: $0["appid"] as? String ?? "",
        udid: $0["udid"] as? String ?? "", token: $0["token"] as? String ?? "",
        uid: $0["uid"] as? String ?? "")
    }
  }

  /// The `/tpns` requests received since start or reset, oldest first, decoded.
  public func requestLog() throws -> [LoggedRequest] {
    try loggedRequests().map {
      LoggedRequest(
        parameters: ($0["params"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String },
        status: $0["status"] as? Int ?? 0)
    }
  }

  /// Arms a fault: the next `count` `/tpns` requests answer `status` (with
  /// `Retry-After: retryAfter` when given) without being run.
  public func armFault(status: Int, count: Int = 1, retryAfter: Int? = nil) throws {
    let wait = retryAfter.map { "&retry_after=\($0)" } ?? ""
    _ = try inspect("faults?status=\(status)&count=\(count)\(wait)", method: .post)
  }

  /// Disarms the armed fault, if any.
  public func disarmFault() throws {
    try armFault(status: 500, count: 0)
  }

  /// Empties the registry, the request log and the faults.
  public func reset() throws {
    _ = try inspect("reset", method: .post)
  }
}
