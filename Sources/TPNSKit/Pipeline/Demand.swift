/// What the commands so far asked of the next reconciliation beyond "make
/// the server match the store". Demands made while one reconciliation runs
/// add up, and the next one takes them all (the fetch limiter coalesces
/// the triggers, never what they asked for).
struct Demand: Sendable, Equatable {
  /// Send `cmd=client` even if the server acknowledged the registration (`register`).
  var forcesRegistration = false
  /// Send the list even if the server acknowledged it (`sync`).
  var forcesList = false
  /// The registration a `register` just stored, and the one it replaced:
  /// if the server rejects the new one, the previous one is put back.
  var attempt: RegistrationAttempt?
  /// The server already answered "not registered" once in this
  /// reconciliation: a second time is a failure, not a loop.
  var registrationLost = false

  /// Both demands at once.
  func merged(with other: Demand) -> Demand {
    Demand(
      forcesRegistration: forcesRegistration || other.forcesRegistration,
      forcesList: forcesList || other.forcesList, attempt: other.attempt ?? attempt,
      registrationLost: registrationLost || other.registrationLost)
  }
}

/// A registration `register` stored, with the one it replaced.
struct RegistrationAttempt: Sendable, Equatable {
  /// What was stored as desired.
  var registration: PhoneRegistration
  /// The desired registration before, put back if the server rejects this one.
  var previous: PhoneRegistration?
}
