import TPNSProtocol

/// `cmd=client`: an idempotent upsert of the phone keyed by (appid, udid).
///
/// A token already held by another udid moves to this one. iOS tokens are stored as
/// sent and compared case-insensitively (hex); Android tokens are compared exactly.
struct ClientCommand: CommandHandler {
  let record: ClientRecord
  let tokenKey: String

  init(_ request: CommandRequest) throws(RequestError) {
    let os = OperatingSystem(rawValue: request.required(.os)) ?? .ios
    let token = request.required(.token)
    if let violation = os.tokenViolation(token) {
      let rule =
        os == .ios
        ? "an iOS token must be 64 hex characters"
        : "an Android token must be 1 to 4096 characters of A-Z, a-z, 0-9, _ : . -"
      throw .badRequest("parameter 'token' \(violation) (\(rule))")
    }
    record = ClientRecord(
      os: os.rawValue, appid: request.required(.appid), udid: request.required(.udid),
      token: token, lang: request[.lang], dev: request.integer(.dev),
      bgfetch: request.integer(.bgfetch), registeredAt: 0, lastSeen: 0)
    tokenKey = os == .ios ? token.lowercased() : token
  }

  /// ``RegistryStore/upsert(_:tokenKey:)`` is atomic by itself.
  var isAtomic: Bool { true }

  func apply(to store: RegistryStore, now: Int64) throws -> String {
    var record = record
    record.registeredAt = now
    record.lastSeen = now
    let isNew = try store.upsert(record, tokenKey: tokenKey)
    return isNew ? "ok: client registered" : "ok: client updated"
  }
}
