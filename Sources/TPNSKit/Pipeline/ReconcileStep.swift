/// The next request that brings one server closer to the desired state, as
/// a pure function of the store and the demand: the rule every sending
/// command, `watch` and the UI share.
///
/// In order: unmap a former phone the server still holds (another udid,
/// appid or os), register the desired registration if the server has not
/// acknowledged it (or `register` asks), then send the list if the server's
/// differs (or `sync` asks). `nil` when the server is in line.
enum ReconcileStep: Equatable, Sendable {
  /// `cmd=unreg_mapping` for the former phone: its mappings go first.
  case unmapFormerPhone(PhoneRegistration)
  /// `cmd=client` for the desired registration.
  case register(PhoneRegistration)
  /// `cmd=mapsync` of the desired list for the desired phone.
  case sendList(PhoneRegistration, [DeviceUID])
  /// UIDs are stored but there is no token to send them for.
  case waitForToken([DeviceUID])

  /// The step for `server`, or `nil` when nothing is left to do.
  static func next(in state: StoreState, at server: String, demand: Demand) -> ReconcileStep? {
    let difference = state.difference(at: server)
    // Validated when the store was read: every stored text is a UID.
    let uids = state.uids.compactMap { try? DeviceUID($0) }
    guard let desired = difference.desired else {
      return difference.waitsForToken ? .waitForToken(uids) : nil
    }
    if let former = difference.formerPhone { return .unmapFormerPhone(former) }
    if difference.needsRegistration || demand.forcesRegistration { return .register(desired) }
    if difference.listDiffers || demand.forcesList { return .sendList(desired, uids) }
    return nil
  }
}
