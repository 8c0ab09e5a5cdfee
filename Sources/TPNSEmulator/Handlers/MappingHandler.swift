import TPNSProtocol

/// `cmd=mapping`: maps one UID to the phone (appended to its list), or updates the
/// `interval`, `format` and `extra` (the parameters `mapping` does not take, such as
/// `lang` or `customized_payload`) of an existing mapping; what is not sent is kept.
struct MappingHandler: TransactionalHandler {
  let phone: PhoneKey
  let change: MappingChange

  init(_ request: ValidatedRequest, conformance: inout Conformance) throws(RequestError) {
    phone = PhoneKey(request)
    change = MappingChange(
      uid: request.required(.uid), interval: request.integer(.interval),
      format: request[.format], extra: request.extra)
  }

  func apply(
    to store: RegistryStore, now: Int64, conformance: inout Conformance
  ) throws -> String {
    try phone.requireRegistered(in: store, now: now, conformance: &conformance)
    guard store.whitelist.isActivated(change.uid) else {
      return NotActivatedAnswer.text(naming: [change.uid])
    }
    let isNew = try store.addMapping(appid: phone.appid, udid: phone.udid, change, now: now)
    return isNew ? "ok: \(change.uid) mapped" : "ok: \(change.uid) already mapped"
  }
}
