import TPNSProtocol

/// `cmd=device`: a device announces itself; recorded in the registry's devices.
struct DeviceCommand: CommandHandler {
  let uid: String

  init(_ request: CommandRequest) throws(RequestError) {
    uid = request.required(.uid)
  }

  func apply(to store: RegistryStore, now: Int64) throws -> String {
    try store.announce(uid: uid, now: now)
    return "ok: device \(uid) announced"
  }
}
