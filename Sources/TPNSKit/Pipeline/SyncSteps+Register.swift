import Reactive
import TPNSProtocol

extension SyncSteps {
  /// The token in `text`, checked against the registration's OS, or why it is not one.
  func token(_ text: String) -> Result<PushToken, IdentifierError> {
    Result { () throws(IdentifierError) in try PushToken(text, os: registration.os) }
  }

  /// Stores the token as the desired registration, then asks for it to be registered;
  /// the retries of a registration of another token stop. A token that is not valid,
  /// or a phone of any OS but iOS without its own ID, stores and sends nothing.
  func register(
    _ result: Result<PushToken, IdentifierError>, triggers: PublishSubject<Void>
  ) -> Observable<Outcome> {
    Observable<Outcome>.deferred {
      let token = try result.mapError(PipelineFailure.invalidToken).get()
      guard let udid = registration.udid ?? (token.os.usesAPNsTokens ? token.rawValue : nil)
      else {
        throw PipelineFailure.missingUDID(token.os)
      }
      let desired = PhoneRegistration(
        token: token, phone: Phone(os: token.os, appID: registration.appID, udid: udid),
        language: registration.language, sandbox: registration.sandbox)
      var previous: PhoneRegistration?
      try update { state in
        previous = state.registration
        state.registration = desired
      }
      let attempt = RegistrationAttempt(registration: desired, previous: previous)
      storedRegistrations.onNext(desired)
      return trigger(Demand(forcesRegistration: true, attempt: attempt), on: triggers)
    }
    .catchingFailures()
  }

  /// Registers `desired` and records that the server acknowledged exactly that,
  /// whatever the store desires by now (the next step compares). A rejected
  /// `register` puts the previous desired registration back.
  func register(_ desired: PhoneRegistration, demand attempted: Demand) -> Observable<Outcome> {
    let server = server
    // A newer token stored meanwhile ends this one's retries.
    let newer = storedRegistrations.filter { $0 != desired }.map { _ in () }
    return request(desired.clientRequest, abandon: newer) { response in
      try update { state in
        var acknowledged = state.acknowledged(at: server)
        acknowledged.accept(desired)
        state.servers[server] = acknowledged
      }
      // A `register` of this very registration asked for since is satisfied.
      pendingDemand.withLock {
        if $0.attempt?.registration == desired { $0.forcesRegistration = false }
      }
      return .registered(desired.token, response: response.body)
    }
    .catch { error in
      guard case .request(_, let failure) = error as? PipelineFailure, failure.isTokenRejection
      else { throw error }
      // Not adopted: back to the registration `register` replaced, or, for a token no
      // server has accepted, to the one this server accepted; one another server took stays.
      var kept: PhoneRegistration?
      var rejected = true
      try update { state in
        let fallback: PhoneRegistration?
        if attempted.attempt?.registration == desired {
          fallback = attempted.attempt?.previous
        } else if !state.servers(acknowledging: desired).isEmpty {
          rejected = false
          return
        } else {
          fallback = state.acknowledged(at: server).registration
        }
        guard state.desires(desired), let fallback, fallback != desired else { return }
        state.registration = fallback
        kept = fallback
      }
      guard rejected else { throw error }
      throw PipelineFailure.registrationRejected(desired.token, kept: kept?.token, failure)
    }
  }
}
