import TPNSProtocol

/// Which logged `/tpns` requests `GET /_emulator/requests` (and `requests/count`)
/// answers: those that match every filter given, so that a test can assert on what a
/// client sent ("exactly one mapsync carrying UID X was answered 200").
///
///     RequestFilter(try form(request, allowed: RequestFilter.names))
struct RequestFilter: Sendable, Equatable {
  static let names: Set<String> = ["cmd", "udid", "uid", "status", "path"]

  /// Exactly as sent (a legacy name such as `reg_client` is matched as such).
  var cmd: String?
  /// Compared without regard to case (iOS tokens are hex).
  var udid: String?
  /// A UID sent as `uid`, or carried in a `mapsync`'s `map`.
  var uid: String?
  /// 0: none, the connection was dropped by a fault rule.
  var status: Int?
  var path: String?

  init() {}

  /// The filters of `query`; a value that cannot match anything is a 400 naming the
  /// parameter and what it must be.
  init(_ query: FormParameters) throws(RequestError) {
    for name in Self.names {
      if let value = query[name], value.isEmpty {
        throw .badRequest("parameter '\(name)' must not be empty")
      }
    }
    cmd = query["cmd"]
    udid = query["udid"]
    path = query["path"]
    if let path, !path.hasPrefix("/") {
      throw .badRequest("parameter 'path' must start with '/', not '\(Printable(path))'")
    }
    if let text = query["uid"] {
      guard let uid = try? DeviceUID(text) else {
        throw .badRequest(
          "parameter 'uid' must be a UID (20 of A-Z and 0-9), not '\(Printable(text))'")
      }
      self.uid = uid.rawValue
    }
    if let text = query["status"] {
      guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let status = Int(text),
        status == 0 || (100...599).contains(status)
      else {
        throw .badRequest(
          "parameter 'status' must be an HTTP status from 100 to 599, or 0 (a connection a "
            + "fault rule dropped), not '\(Printable(text))'")
      }
      self.status = status
    }
  }

  func matches(_ entry: RequestLogEntry) -> Bool {
    if let status, entry.status != status { return false }
    if let path, entry.path != path { return false }
    guard cmd != nil || udid != nil || uid != nil else { return true }
    // The first value of a name given twice, as the log shows it.
    var parameters: [String: String] = [:]
    for pair in entry.parameters ?? [] where parameters[pair.name] == nil {
      parameters[pair.name] = pair.value
    }
    if let cmd, parameters["cmd"] != cmd { return false }
    if let udid, parameters["udid"]?.lowercased() != udid.lowercased() { return false }
    if let uid, !Self.carries(parameters, uid) { return false }
    return true
  }

  /// Whether the parameters name `uid`: as `uid`, or in `map` (base64 JSON).
  private static func carries(_ parameters: [String: String], _ uid: String) -> Bool {
    if let sent = parameters["uid"], sent.uppercased() == uid { return true }
    guard let map = parameters["map"], let payload = try? MapPayload.decode(entries: map) else {
      return false
    }
    return payload.entries.contains { $0.uid.uppercased() == uid }
  }
}
