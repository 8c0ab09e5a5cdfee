import TPNSProtocol

/// `cmd=mapsync`: replaces the phone's whole set of UIDs with the decoded `map`.
///
/// The payload is decoded leniently (see ``MapPayload/decode(_:)``), every UID must be
/// well-formed, duplicates are dropped (first occurrence kept), more than
/// ``maximumUIDs`` entries is a 413, and a phone that never registered is refused.
struct MapsyncCommand: CommandHandler {
  /// Most entries a `map` may hold.
  static let maximumUIDs = 10_000

  let phone: PhoneKey
  let uids: [String]

  init(_ request: CommandRequest) throws(RequestError) {
    phone = PhoneKey(request)
    let entries: [String]
    do {
      entries = try MapPayload.decode(request.required(.map))
    } catch {
      throw .badRequest(error.description)
    }
    guard entries.count <= Self.maximumUIDs else {
      throw RequestError(
        413, "map has \(entries.count) UIDs, more than the \(Self.maximumUIDs) allowed")
    }
    var seen: Set<String> = []
    var unique: [String] = []
    for (index, uid) in entries.enumerated() {
      if let violation = DeviceUIDSyntax.violation(in: uid) {
        throw .badRequest(
          "map entry \(index) '\(Printable(uid, limit: 40))' is not a device UID: \(violation)")
      }
      if seen.insert(uid).inserted { unique.append(uid) }
    }
    uids = unique
  }

  func apply(to store: RegistryStore, now: Int64) throws -> String {
    try phone.requireRegistered(in: store, now: now)
    try store.replaceMappings(appid: phone.appid, udid: phone.udid, uids: uids, now: now)
    return "ok: \(uids.count) UID\(uids.count == 1 ? "" : "s") mapped"
  }
}
