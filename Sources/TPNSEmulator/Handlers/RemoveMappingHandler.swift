import TPNSProtocol

/// `cmd=rm_mapping`: removes one mapping of the phone (no error when absent).
struct RemoveMappingHandler: TransactionalHandler {
  let phone: PhoneKey
  let uid: String

  init(_ request: ValidatedRequest, conformance: inout Conformance) throws(RequestError) {
    phone = PhoneKey(request)
    uid = request.required(.uid)
  }

  func apply(
    to store: RegistryStore, now: Int64, conformance: inout Conformance
  ) throws -> String {
    try phone.requireRegistered(in: store, now: now, conformance: &conformance)
    guard store.whitelist.isActivated(uid) else { return NotActivatedAnswer.text(naming: [uid]) }
    let removed = try store.removeMapping(appid: phone.appid, udid: phone.udid, uid: uid)
    return removed ? "ok: \(uid) unmapped" : "ok: \(uid) was not mapped"
  }
}
