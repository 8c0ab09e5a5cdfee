import TPNSProtocol

/// `cmd=event`: fans out to every phone mapped to the UID that still holds a token,
/// recording one notification each (see `/_emulator/notifications`), with the
/// parameters `event` does not take (`sound`, `customized_payload`) in its `extra`.
struct EventHandler: TransactionalHandler {
  let event: EventRecord

  init(_ request: ValidatedRequest, conformance: inout Conformance) throws(RequestError) {
    event = EventRecord(
      uid: request.required(.uid), eventType: request.integer(.eventType) ?? 0,
      msg: request[.msg], eventTime: request.integer(.eventTime), extra: request.extra)
  }

  func apply(
    to store: RegistryStore, now: Int64, conformance: inout Conformance
  ) throws -> String {
    let count = try store.fanOut(event, now: now)
    return "ok: \(count) notification\(count == 1 ? "" : "s")"
  }
}
