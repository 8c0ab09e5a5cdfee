import TPNSProtocol

/// The next request that brings one server closer to the desired state, as
/// a pure function of the store and the demand: the rule every sending
/// command, `watch` and the UI share.
///
/// In order: register the desired registration if the server has not
/// acknowledged it (or `register` asks), then unmap every former phone the
/// server still holds for this store (another udid or appid), but those it
/// refused to unmap in this reconciliation (they stay pending), then
/// remove the mappings whose settings must be cleared (a `mapsync` without
/// them: leaving a setting out keeps it at the service), then the
/// single-UID requests a command asked for (`mapping`, `rm_mapping`,
/// `unreg_mapping`) while they agree with the desired list, then send the
/// list if the server's (or a UID's settings) still differs, but for the
/// removals refused as not activated in this reconciliation (or `sync`
/// asks, or `watch`'s interval asks again for UIDs refused as not
/// activated). `nil` when the server is in line. Registering first means a
/// new token the server rejects leaves the working phone and its mappings
/// as they were.
enum ReconcileStep: Equatable, Sendable {
  /// `cmd=unreg_mapping` for a former phone: its mappings go before the new one is mapped.
  case unmapFormerPhone(Phone)
  /// `cmd=client` for the desired registration.
  case register(PhoneRegistration)
  /// `cmd=mapsync` of the desired list, with its settings, for the desired phone.
  case sendList(PhoneRegistration, [DeviceUID], [DeviceUID: MappingSettings])
  /// A single-UID request for the desired phone, the UID's desired settings
  /// with it (for `mapping`), taking `taking` requests off the demand.
  case sendMappingRequest(PhoneRegistration, MappingRequest, MappingSettings, taking: Int)
  /// UIDs are stored but there is no token to send them for.
  case waitForToken([DeviceUID])

  /// The step for `server`, or `nil` when nothing is left to do.
  static func next(in state: StoreContents, at server: String, demand: Demand) -> ReconcileStep? {
    let difference = state.difference(at: server)
    // Validated when the store was read: every stored text is a UID. Made
    // only for a step that carries them (a store in line asks every time).
    var uids: [DeviceUID] { state.uids.compactMap { try? DeviceUID($0) } }
    guard let desired = difference.desired else {
      return difference.waitsForToken ? .waitForToken(uids) : nil
    }
    if difference.needsRegistration || demand.forcesRegistration { return .register(desired) }
    if let former = difference.formerPhones.first(where: {
      !demand.refusedFormerPhones.contains($0)
    }) {
      return .unmapFormerPhone(former)
    }
    let stored = state.settings.compactMap { uid, value -> (DeviceUID, MappingSettings)? in
      (try? DeviceUID(uid)).map { ($0, value) }
    }
    let settings = Dictionary(stored, uniquingKeysWith: { first, _ in first })
    let reset = difference.toReset
    if !reset.isEmpty {
      // A setting to clear: the mapping goes, and comes back (the list, next).
      let cleared = Set(reset)
      return .sendList(desired, uids.filter { !cleared.contains($0.rawValue) }, settings)
    }
    if !demand.mappingRequests.isEmpty,
      let next = demand.nextMappingRequest(for: Set(state.uids))
    {
      var sent = MappingSettings()
      if case .map(let uid) = next.request { sent = state.settings(of: uid.rawValue) }
      return .sendMappingRequest(desired, next.request, sent, taking: next.taking)
    }
    if difference.listDiffers(passingOver: demand.refusedRemovals) || demand.forcesList
      || (demand.retriesNotActivated && !difference.notActivated.isEmpty)
    {
      return .sendList(desired, uids, settings)
    }
    return nil
  }
}
