import TPNSProtocol

/// The rules about what a server holds of this store's registration, which
/// ``ReconcileStep``, the pipeline's steps, ``StoreDifference`` and
/// `tpns status` share: each decided here once.
extension StoreContents {
  /// Whether `server` acknowledged `registration`, all of it (token, phone,
  /// `lang`, `dev`): the rule of "registered there".
  ///
  ///     state.isAcknowledged(state.registration!, at: server)
  public func isAcknowledged(_ registration: PhoneRegistration, at server: String) -> Bool {
    servers[server]?.registration == registration
  }

  /// Whether `server` acknowledged the desired registration (none desired: no).
  public func isRegistered(at server: String) -> Bool {
    registration.map { isAcknowledged($0, at: server) } ?? false
  }

  /// The servers that acknowledged `registration`, sorted.
  public func servers(acknowledging registration: PhoneRegistration) -> [String] {
    servers.keys.filter { isAcknowledged(registration, at: $0) }.sorted()
  }

  /// The servers that acknowledged the desired registration, sorted (none
  /// desired: none).
  public var registeredServers: [String] {
    registration.map(servers(acknowledging:)) ?? []
  }

  /// Whether the registration `server` acknowledged is (still) for `phone` (nil: none):
  /// only then is what it acknowledges for `phone` recorded (a registration of
  /// another phone since has replaced what it holds for this store).
  public func holds(_ phone: Phone?, at server: String) -> Bool {
    servers[server]?.registration?.phone == phone
  }

  /// Whether `registration` is (still) the desired one: nobody stored
  /// another since it was sent.
  public func desires(_ registration: PhoneRegistration) -> Bool {
    self.registration == registration
  }
}
