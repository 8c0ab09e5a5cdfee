import TPNSProtocol

extension ValidatedRequest {
  /// Most entries a `map` may hold.
  static let maximumMapUIDs = 10_000

  /// Runs the command; returns the one-line text of the 200 answer after its status
  /// (`ok: 2 UIDs mapped`). What needs more than one parameter (a token against its
  /// `os`, a `map` decoded) is checked before the registry is touched, and each command
  /// writes all or nothing, so a refusal at either stage changes nothing. What only the
  /// registry shows to be irregular is told to `conformance`.
  func run(on registry: Registry, now: Int64, conformance: inout Conformance) throws -> String {
    switch command {
    case .hello:
      // Apps send it to each resolved address of the push host and use the first whose
      // body holds `hi`; it changes nothing.
      return "hi"
    case .client:
      // An idempotent upsert (``RegistryStore/upsert(_:tokenKey:)``). The parameters
      // `client` does not take (`osver`, `appver`, `model`, `ucid`) are its `extra`.
      let os = required(.os)
      let token = required(.token)
      switch ParameterRules.judge(token: token, os: os) {
      case .canonical:
        break
      case .tolerated(let reason):
        try conformance.tolerate("parameter 'token' \(reason)")
      case .ignored(let reason), .refused(let reason):
        throw RequestError.badRequest("parameter 'token' \(reason)")
      }
      let record = ClientRecord(
        os: os, appid: required(.appid), udid: required(.udid), token: token, lang: self[.lang],
        dev: integer(.dev), bgfetch: integer(.bgfetch), extra: extra, registeredAt: now,
        lastSeen: now)
      let isNew = try registry.write(inTransaction: false) {
        try $0.upsert(record, tokenKey: record.tokenKey ?? "")
      }
      return isNew ? "ok: client registered" : "ok: client updated"
    case .mapsync:
      // The phone's whole set of UIDs replaced. The emulator's model (the service's
      // answer is not public): the activated UIDs are mapped, the others named in a
      // `422` answer. Off (the default), nothing is looked up.
      let (appid, udid) = (required(.appid), required(.udid))
      let mappings = try mapsyncChanges(conformance: &conformance)
      return try registry.write { store in
        try requireRegistered(in: store, now: now, conformance: &conformance)
        let whitelist = store.whitelist
        let refused =
          whitelist.isOn ? mappings.map(\.uid).filter { !whitelist.isActivated($0) } : []
        let mapped = refused.isEmpty ? mappings : mappings.filter { whitelist.isActivated($0.uid) }
        try store.replaceMappings(appid: appid, udid: udid, mapped, now: now)
        let count = "\(mapped.count) UID\(mapped.count == 1 ? "" : "s") mapped"
        return refused.isEmpty
          ? "ok: \(count)" : NotActivatedAnswer.text(naming: refused) + " (\(count))"
      }
    case .mapping:
      // One UID appended to the phone's list, or the `interval`, `format` and `extra`
      // (the parameters `mapping` does not take, such as `lang`) of its mapping updated;
      // what is not sent is kept.
      let (appid, udid) = (required(.appid), required(.udid))
      let change = MappingChange(
        uid: required(.uid), interval: integer(.interval), format: self[.format], extra: extra)
      return try registry.write { store in
        try requireRegistered(in: store, now: now, conformance: &conformance)
        guard store.whitelist.isActivated(change.uid) else {
          return NotActivatedAnswer.text(naming: [change.uid])
        }
        let isNew = try store.addMapping(appid: appid, udid: udid, change, now: now)
        return isNew ? "ok: \(change.uid) mapped" : "ok: \(change.uid) already mapped"
      }
    case .rmMapping:
      let (appid, udid) = (required(.appid), required(.udid))
      let uid = required(.uid)
      return try registry.write { store in
        try requireRegistered(in: store, now: now, conformance: &conformance)
        guard store.whitelist.isActivated(uid) else {
          return NotActivatedAnswer.text(naming: [uid])
        }
        let removed = try store.removeMapping(appid: appid, udid: udid, uid: uid)
        return removed ? "ok: \(uid) unmapped" : "ok: \(uid) was not mapped"
      }
    case .unregMapping:
      // One mapping (`uid` given) or all the phone's. The answer holds `unregistered
      // successfully.`, as the real service's does (clients search the body for it).
      let (appid, udid) = (required(.appid), required(.udid))
      let uid = self[.uid]
      return try registry.write { store in
        try requireRegistered(in: store, now: now, conformance: &conformance)
        if let uid {
          let removed = try store.removeMapping(appid: appid, udid: udid, uid: uid)
          return "ok: unregistered successfully. \(uid) \(removed ? "unmapped" : "was not mapped")"
        }
        let count = try store.removeMappings(appid: appid, udid: udid)
        return "ok: unregistered successfully. \(count) UID\(count == 1 ? "" : "s") unmapped"
      }
    case .device:
      // Its `extra`: the parameters `device` does not take (`interval`, `debug`).
      let uid = required(.uid)
      try registry.write { try $0.announce(uid: uid, extra: extra, now: now) }
      return "ok: device \(uid) announced"
    case .event:
      // One notification for each phone mapped to the UID that still holds a token, with
      // the parameters `event` does not take (`sound`, `customized_payload`) as `extra`.
      let count = try registry.write {
        try $0.fanOut(
          uid: required(.uid), eventType: integer(.eventType) ?? 0, msg: self[.msg],
          eventTime: integer(.eventTime), extra: extra, now: now)
      }
      return "ok: \(count) notification\(count == 1 ? "" : "s")"
    }
  }

  /// `mapsync`'s `map`, decoded leniently (see ``MapPayload/decode(entries:)``): each
  /// entry's `interval` and `format`, and its other keys as `extra`. What a canonical
  /// client would not send (line breaks, other keys, a lower-case UID) is told to
  /// `conformance`; a UID that is not 20 letters and digits is a 400, more than
  /// ``maximumMapUIDs`` entries a 413; duplicates are dropped (the first kept).
  private func mapsyncChanges(conformance: inout Conformance) throws(RequestError)
    -> [MappingChange]
  {
    let decoded: DecodedMapPayload
    do {
      decoded = try MapPayload.decode(entries: required(.map))
    } catch {
      throw .badRequest(error.description)
    }
    guard decoded.entries.count <= Self.maximumMapUIDs else {
      throw RequestError(
        413, "map has \(decoded.entries.count) UIDs, more than the \(Self.maximumMapUIDs) allowed")
    }
    for irregularity in decoded.irregularities {
      // Quotes the client's keys: made printable for the one-line reason.
      try conformance.tolerate("\(Printable(irregularity.description, limit: 400))")
    }
    var seen = Set<String>()
    var mappings: [MappingChange] = []
    for (index, entry) in decoded.entries.enumerated() {
      let uid = entry.uid
      let reason = { (violation: String) in
        "map entry \(index) '\(Printable(uid, limit: 40))' is not a device UID: \(violation)"
      }
      switch ParameterRules.judge(uid: uid) {
      case .canonical: break
      case .tolerated(let violation): try conformance.tolerate(reason(violation))
      case .ignored(let violation), .refused(let violation): throw .badRequest(reason(violation))
      }
      if let format = entry.format,
        let violation = MappingSettingsSyntax.formatViolation(in: format)
      {
        try conformance.tolerate("map entry \(index) has a format that \(violation)")
      }
      guard seen.insert(uid).inserted else { continue }
      let others = decoded.otherKeys[index]
      mappings.append(
        MappingChange(
          uid: uid, interval: entry.interval.map(Int64.init), format: entry.format,
          extra: others.isEmpty ? nil : JSONValue.object(others).compactText))
    }
    return mappings
  }

  /// Refuses a phone (appid, udid) that never sent `cmd=client`; otherwise records that
  /// it was seen. An `os` other than the one it registered with is still this phone
  /// (the upsert keys it by appid and udid, and a registration with another `os`
  /// updates it in place), told to `conformance`: a warning, a 400 in strict mode.
  /// The refusal names the udid masked (on iOS it is the token): it is printed by
  /// clients and logged.
  private func requireRegistered(
    in store: RegistryStore, now: Int64, conformance: inout Conformance
  ) throws {
    let (os, appid, udid) = (required(.os), required(.appid), required(.udid))
    guard let client = try store.client(appid: appid, udid: udid) else {
      throw RequestError.badRequest(
        "udid '\(MaskedSecret(udid))' is not registered for appid '\(appid)' "
          + "(send cmd=client first)")
    }
    if client.os != os {
      try conformance.tolerate(
        "os '\(os)' does not match the registration of this udid (os '\(client.os)')",
        "taken as that phone")
    }
    try store.touch(appid: appid, udid: udid, now: now)
  }
}
