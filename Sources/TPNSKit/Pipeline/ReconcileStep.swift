import TPNSProtocol

/// The next request that brings one server closer to the desired state: a pure
/// function of the store and the demand, shared by every sending command, `watch` and
/// the UI. In order: register (unless acknowledged), so that a rejected new token
/// leaves the working phone as it was; unmap former phones not refused in this
/// reconciliation; unmap every UID of a phone whose list there is unknown; drop the
/// mappings whose settings must be cleared (a setting left out is kept); the
/// single-UID requests asked for, while they agree with the list; the list, if it or a
/// setting differs (removals refused as not activated aside), or `sync` or `watch
/// --interval` asks.
enum ReconcileStep: Equatable, Sendable {
  /// `cmd=unreg_mapping` for a former phone: its mappings go before the new one is mapped.
  case unmapFormerPhone(Phone)
  /// `cmd=client` for the desired registration.
  case register(PhoneRegistration)
  /// `cmd=mapsync` of the desired list, with its settings, for the desired phone.
  case sendList(PhoneRegistration, [DeviceUID], [DeviceUID: MappingSettings])
  /// A single-UID request, with the UID's settings (for `mapping`), taking `taking`
  /// requests off the demand.
  case sendMappingRequest(PhoneRegistration, MappingRequest, MappingSettings, taking: Int)
  /// UIDs are stored but there is no token to send them for.
  case waitForToken([DeviceUID])

  /// The step for `server`, or `nil` when nothing is left to do.
  static func next(in state: StoreContents, at server: String, demand: Demand) -> ReconcileStep? {
    let difference = state.difference(at: server)
    // Validated when the store was read; made only for a step that carries them.
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
    if difference.listIsUnknown {
      // What the server holds for the phone is unknown, settings included, and a
      // `mapsync` cannot clear a setting it leaves out: every mapping goes first.
      return .sendMappingRequest(desired, .unregister(nil), MappingSettings(), taking: 0)
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
    // The first request that still agrees with the list; those before it no longer
    // do, and leave the queue with it (the list goes instead).
    let requests = demand.mappingRequests
    if !requests.isEmpty {
      let stored = Set(state.uids)
      if let index = requests.firstIndex(where: { $0.agrees(with: stored) }) {
        var sent = MappingSettings()
        if case .map(let uid) = requests[index] { sent = state.settings(of: uid.rawValue) }
        return .sendMappingRequest(desired, requests[index], sent, taking: index + 1)
      }
    }
    if difference.listDiffers(passingOver: demand.refusedRemovals) || demand.forcesList
      || (demand.retriesNotActivated && !difference.notActivated.isEmpty)
    {
      return .sendList(desired, uids, settings)
    }
    return nil
  }
}
