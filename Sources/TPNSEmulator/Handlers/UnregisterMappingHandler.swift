import TPNSProtocol

/// `cmd=unreg_mapping`: removes one mapping (`uid` given) or all of the phone's.
/// Its answer holds `unregistered successfully.`, as the real service's does
/// (clients search the body for it).
struct UnregisterMappingHandler: TransactionalHandler {
  let phone: PhoneKey
  let uid: String?

  init(_ request: ValidatedRequest, conformance: inout Conformance) throws(RequestError) {
    phone = PhoneKey(request)
    uid = request[.uid]
  }

  func apply(
    to store: RegistryStore, now: Int64, conformance: inout Conformance
  ) throws -> String {
    try phone.requireRegistered(in: store, now: now, conformance: &conformance)
    if let uid {
      let removed = try store.removeMapping(appid: phone.appid, udid: phone.udid, uid: uid)
      return "ok: unregistered successfully. \(uid) \(removed ? "unmapped" : "was not mapped")"
    }
    let count = try store.removeMappings(appid: phone.appid, udid: phone.udid)
    return "ok: unregistered successfully. \(count) UID\(count == 1 ? "" : "s") unmapped"
  }
}
