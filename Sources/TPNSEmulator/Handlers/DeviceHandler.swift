import TPNSProtocol

/// `cmd=device`: a device announces itself; recorded in the registry's devices, with
/// the parameters `device` does not take (`interval`, `debug`) in its `extra`.
struct DeviceHandler: TransactionalHandler {
  let uid: String
  let extra: String?

  init(_ request: ValidatedRequest, conformance: inout Conformance) throws(RequestError) {
    uid = request.required(.uid)
    extra = request.extra
  }

  func apply(
    to store: RegistryStore, now: Int64, conformance: inout Conformance
  ) throws -> String {
    try store.announce(uid: uid, extra: extra, now: now)
    return "ok: device \(uid) announced"
  }
}
