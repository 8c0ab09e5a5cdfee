import TPNSProtocol

/// The handler of one protocol command (one `cmd` value, a ``CommandName``).
///
/// `init` finishes validating the request (what needs more than one parameter, such
/// as a token against its `os`, or decoding a `map`) without touching the registry,
/// telling `conformance` what a canonical client would not have sent; `apply` then
/// changes the registry, all or nothing, so a refusal at either stage changes nothing.
protocol RequestHandler: Sendable {
  init(_ request: ValidatedRequest, conformance: inout Conformance) throws(RequestError)

  /// Applies the command; returns the one-line text of the 200 answer after its
  /// status (`ok: 2 UIDs mapped`). What only the registry shows to be
  /// irregular is told to `conformance`.
  func apply(
    to registry: Registry, now: Int64, conformance: inout Conformance
  ) throws -> String
}

/// A handler whose command runs in one transaction of the registry.
protocol TransactionalHandler: RequestHandler {
  /// Applies the command within the transaction; the text of the answer.
  /// (A refusal by `conformance` there rolls the transaction back.)
  func apply(
    to store: RegistryStore, now: Int64, conformance: inout Conformance
  ) throws -> String
}

extension TransactionalHandler {
  func apply(
    to registry: Registry, now: Int64, conformance: inout Conformance
  ) throws -> String {
    try registry.write { try apply(to: $0, now: now, conformance: &conformance) }
  }
}

extension CommandName {
  var handler: any RequestHandler.Type {
    switch self {
    case .client: return ClientHandler.self
    case .mapsync: return MapsyncHandler.self
    case .mapping: return MappingHandler.self
    case .rmMapping: return RemoveMappingHandler.self
    case .unregMapping: return UnregisterMappingHandler.self
    case .device: return DeviceHandler.self
    case .event: return EventHandler.self
    case .hello: return HelloHandler.self
    }
  }
}

/// The phone a command from (os, appid, udid) is about: the one registered
/// under (appid, udid), as `cmd=client`'s upsert keys it.
struct PhoneKey: Sendable, Equatable {
  var os: String
  var appid: String
  var udid: String

  init(_ request: ValidatedRequest) {
    os = request.required(.os)
    appid = request.required(.appid)
    udid = request.required(.udid)
  }

  /// Refuses a phone that never sent `cmd=client`; otherwise records that it was
  /// seen. An `os` other than the one it registered with is still this phone
  /// (the upsert keys it by appid and udid, and a registration with another `os`
  /// updates it in place), told to `conformance`: a warning, a 400 in strict mode.
  /// The refusal names the udid masked (on iOS it is the token): it is printed by
  /// clients and logged.
  func requireRegistered(
    in store: RegistryStore, now: Int64, conformance: inout Conformance
  ) throws {
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
