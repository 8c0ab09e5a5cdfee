import TPNSProtocol

/// `cmd=mapping`: maps one UID to the phone (appended to its list), or updates the
/// `interval`, `format` and `extra` (the parameters `mapping` does not take, such as
/// `lang` or `customized_payload`) of an existing mapping; what is not sent is kept.
struct MappingCommand: CommandHandler {
  let phone: PhoneKey
  let settings: MappingSettings

  init(_ request: CommandRequest, conformance: inout Conformance) throws(RequestError) {
    phone = PhoneKey(request)
    settings = MappingSettings(
      uid: request.required(.uid), interval: request.integer(.interval),
      format: request[.format], extra: request.extra)
  }

  func apply(to store: RegistryStore, now: Int64) throws -> String {
    try phone.requireRegistered(in: store, now: now)
    let isNew = try store.addMapping(appid: phone.appid, udid: phone.udid, settings, now: now)
    return isNew ? "ok: \(settings.uid) mapped" : "ok: \(settings.uid) already mapped"
  }
}
