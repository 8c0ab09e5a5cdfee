import TPNSProtocol

/// `cmd=client`: an idempotent upsert of the phone keyed by (appid, udid).
///
/// A token already held by another udid moves to this one. iOS tokens are stored as
/// sent and compared case-insensitively (hex); other tokens are compared exactly.
/// Parameters `client` does not take (`osver`, `appver`, `model`, `ucid`) are kept in
/// the phone's `extra`, replaced at each registration.
struct ClientHandler: RequestHandler {
  let record: ClientRecord

  init(_ request: ValidatedRequest, conformance: inout Conformance) throws(RequestError) {
    let os = request.required(.os)
    let token = request.required(.token)
    switch ParameterRules.judge(token: token, os: os) {
    case .canonical:
      break
    case .tolerated(let reason):
      try conformance.tolerate("parameter 'token' \(reason)")
    case .ignored(let reason), .refused(let reason):
      throw .badRequest("parameter 'token' \(reason)")
    }
    record = ClientRecord(
      os: os, appid: request.required(.appid), udid: request.required(.udid),
      token: token, lang: request[.lang], dev: request.integer(.dev),
      bgfetch: request.integer(.bgfetch), extra: request.extra, registeredAt: 0, lastSeen: 0)
  }

  func apply(
    to registry: Registry, now: Int64, conformance: inout Conformance
  ) throws -> String {
    var record = record
    record.registeredAt = now
    record.lastSeen = now
    let isNew = try registry.write(inTransaction: false) {
      try $0.upsert(record, tokenKey: record.tokenKey ?? "")
    }
    return isNew ? "ok: client registered" : "ok: client updated"
  }
}
