import TPNSProtocol

/// `cmd=mapping`: maps one UID to the phone (appended to its list), or updates the
/// `interval`/`format` of an existing mapping.
struct MappingCommand: CommandHandler {
  let phone: PhoneKey
  let uid: String
  let interval: Int64?
  let format: String?

  init(_ request: CommandRequest) throws(RequestError) {
    phone = PhoneKey(request)
    uid = request.required(.uid)
    interval = request.integer(.interval)
    format = request[.format]
  }

  func apply(to store: RegistryStore, now: Int64) throws -> String {
    try phone.requireRegistered(in: store, now: now)
    let isNew = try store.addMapping(
      appid: phone.appid, udid: phone.udid, uid: uid, interval: interval, format: format,
      now: now)
    return isNew ? "ok: \(uid) mapped" : "ok: \(uid) already mapped"
  }
}
