import TPNSProtocol

/// `cmd=mapsync`: replaces the phone's whole set of UIDs with the decoded `map`.
///
/// The payload is decoded leniently (see ``MapPayload/decode(entries:)``): each
/// entry's `interval` and `format` are stored with its mapping, and its other keys in
/// the mapping's `extra`; what a canonical client would not send (line breaks, other
/// keys, a lower-case UID) is a warning, or a 400 in strict mode. Every UID must be 20
/// letters and digits, duplicates are dropped (first occurrence kept), more than
/// ``maximumUIDs`` entries is a 413, and a phone that never registered is refused.
/// UIDs not on the ``Whitelist`` are left out of the set and named in a `422` answer.
struct MapsyncHandler: TransactionalHandler {
  /// Most entries a `map` may hold.
  static let maximumUIDs = 10_000

  let phone: PhoneKey
  let mappings: [MappingChange]

  init(_ request: ValidatedRequest, conformance: inout Conformance) throws(RequestError) {
    phone = PhoneKey(request)
    let decoded: DecodedMapPayload
    do {
      decoded = try MapPayload.decode(entries: request.required(.map))
    } catch {
      throw .badRequest(error.description)
    }
    guard decoded.entries.count <= Self.maximumUIDs else {
      throw RequestError(
        413, "map has \(decoded.entries.count) UIDs, more than the \(Self.maximumUIDs) allowed")
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
    self.mappings = mappings
  }

  func apply(
    to store: RegistryStore, now: Int64, conformance: inout Conformance
  ) throws -> String {
    try phone.requireRegistered(in: store, now: now, conformance: &conformance)
    // The emulator's model (the service's answer is not public): the activated
    // UIDs are mapped, the others named in a `422` answer. Off (the default),
    // nothing is looked up.
    let whitelist = store.whitelist
    let refused = whitelist.isOn ? mappings.map(\.uid).filter { !whitelist.isActivated($0) } : []
    let mapped = refused.isEmpty ? mappings : mappings.filter { whitelist.isActivated($0.uid) }
    try store.replaceMappings(appid: phone.appid, udid: phone.udid, mapped, now: now)
    let count = "\(mapped.count) UID\(mapped.count == 1 ? "" : "s") mapped"
    return refused.isEmpty
      ? "ok: \(count)" : NotActivatedAnswer.text(naming: refused) + " (\(count))"
  }
}
