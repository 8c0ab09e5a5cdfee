import TPNSProtocol

/// What the commands so far asked of the next reconciliation beyond "make
/// the server match the store"; demands made while one runs add up.
struct Demand: Sendable, Equatable {
  /// Send `cmd=client` even if the server acknowledged the registration (`register`).
  var forcesRegistration = false
  /// Send the list even if the server acknowledged it (`sync`).
  var forcesList = false
  /// Send the list if the server refused stored UIDs as not activated
  /// (`watch --interval`): only asking again tells whether they are now.
  var retriesNotActivated = false
  /// The registration a `register` just stored, and the one it replaced.
  var attempt: RegistrationAttempt?
  /// The server answered "not registered" once: a second time is a failure, not a loop.
  var registrationLost = false
  /// Single-UID requests to send in place of a `mapsync` (`tpns mapping`,
  /// `rm-mapping`, `unregister`), in order, each once.
  var mappingRequests: [MappingRequest] = []
  /// Former phones the server refused to unmap (a 4xx): passed over in this
  /// reconciliation, so that they never block the new phone, and asked again next.
  var refusedFormerPhones: [Phone] = []
  /// UIDs whose `rm_mapping` the server refused as not activated: the list is not
  /// sent only to remove them (the command asked for `rm_mapping` alone).
  var refusedRemovals: Set<String> = []

  /// Both demands at once (a request asked for twice is sent once).
  func merged(with other: Demand) -> Demand {
    Demand(
      forcesRegistration: forcesRegistration || other.forcesRegistration,
      forcesList: forcesList || other.forcesList,
      retriesNotActivated: retriesNotActivated || other.retriesNotActivated,
      attempt: other.attempt ?? attempt,
      registrationLost: registrationLost || other.registrationLost,
      mappingRequests: mappingRequests
        + other.mappingRequests.filter { !mappingRequests.contains($0) },
      refusedFormerPhones: refusedFormerPhones
        + other.refusedFormerPhones.filter { !refusedFormerPhones.contains($0) },
      refusedRemovals: refusedRemovals.union(other.refusedRemovals))
  }
}

/// A single-UID request a command asked for in place of a `mapsync`: the
/// store still says what the server should hold; these say how to send it.
enum MappingRequest: Sendable, Equatable, Hashable {
  /// `cmd=mapping` of a stored UID, with its stored settings.
  case map(DeviceUID)
  /// `cmd=rm_mapping` of a UID no longer stored.
  case removeMapping(DeviceUID)
  /// `cmd=unreg_mapping` of a UID no longer stored, or (nil) of every mapping.
  case unregister(DeviceUID?)

  /// Whether sending it moves the server towards the desired list `uids`.
  func agrees(with uids: Set<String>) -> Bool {
    switch self {
    case .map(let uid): uids.contains(uid.rawValue)
    case .removeMapping(let uid), .unregister(let uid?): !uids.contains(uid.rawValue)
    case .unregister(nil): uids.isEmpty
    }
  }
}

/// A registration `register` stored, with the one it replaced.
struct RegistrationAttempt: Sendable, Equatable {
  var registration: PhoneRegistration
  /// Put back if the server rejects `registration`.
  var previous: PhoneRegistration?
}
