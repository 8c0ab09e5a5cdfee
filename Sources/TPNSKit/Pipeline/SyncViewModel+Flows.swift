import Locking
import Reactive
import TPNSProtocol

/// The steps of the pipeline. Each input changes the desired state in the
/// store first, then asks for a reconciliation of the server in use, which
/// runs under the store's send lock and moves the acknowledged state only
/// with what the server acknowledged. Every failure becomes an outcome.
struct Context: Sendable {
  /// Reconciliation steps in one run at most: each acknowledged step moves
  /// the server closer, so more means the store keeps changing under it
  /// (the next trigger picks that up).
  static let maximumSteps = 8

  let environment: PipelineEnvironment
  let registration: Registration
  let list: PublishSubject<[String]>
  let syncsChanges: Bool
  /// What the triggers since the last reconciliation started asked for.
  let demand = LockedState(Demand())

  private var store: StoreClient { environment.store }
  private var server: String { environment.server.server }

  /// Stores the token as the desired registration (with the `lang`, `dev`,
  /// `udid` and `appid` it goes with), then asks for it to be registered.
  func register(
    _ result: Result<PushToken, IdentifierError>, triggers: PublishSubject<Void>
  ) -> Observable<Outcome> {
    Observable<Outcome>.deferred {
      let token: PushToken
      switch result {
      case .success(let valid): token = valid
      case .failure(let error): throw PipelineFailure.invalidToken(error)
      }
      guard let udid = registration.udid ?? (token.os == .ios ? token.rawValue : nil) else {
        throw PipelineFailure.missingUDID
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
      return trigger(Demand(forcesRegistration: true, attempt: attempt), on: triggers)
    }
    .catchingFailures()
  }

  /// Validates every UID, then stores the new ones (all or nothing); then
  /// reconciles, whether or not one was new: re-running a command finishes
  /// what an earlier run left pending.
  func add(_ texts: [String], triggers: PublishSubject<Void>) -> Observable<Outcome> {
    Observable<Outcome>.deferred {
      var uids: [DeviceUID] = []
      for text in texts {
        uids.append(try parseUID(text))
      }
      var outcomes: [Outcome] = []
      try update { state in
        outcomes = []
        var present = Set(state.uids)
        for uid in uids {
          if present.insert(uid.rawValue).inserted {
            state.uids.append(uid.rawValue)
            outcomes.append(.added(uid))
          } else {
            outcomes.append(.alreadyPresent(uid))
          }
        }
      }
      // The outcomes first, then the reconciliation they ask for.
      return Observable.from(outcomes).concat(changed(on: triggers))
    }
    .catchingFailures()
  }

  /// Checks every target against the list, then removes them all (or none);
  /// then reconciles. A UID no longer stored that the server in use still
  /// holds is already removed here, and its removal is what gets sent.
  func remove(
    _ removals: [SyncViewModel.Removal], triggers: PublishSubject<Void>
  ) -> Observable<Outcome> {
    let server = server
    return Observable<Outcome>.deferred {
      var removed: [(index: Int, uid: String)] = []
      var alreadyRemoved: [DeviceUID] = []
      try update { state in
        removed = []
        alreadyRemoved = []
        var indexes = Set<Int>()
        for removal in removals {
          switch removal {
          case .index(let index):
            guard state.uids.indices.contains(index) else {
              throw PipelineFailure.invalidIndex(index, count: state.uids.count)
            }
            indexes.insert(index)
          case .uid(let text):
            let uid = try parseUID(text)
            if let index = state.uids.firstIndex(of: uid.rawValue) {
              indexes.insert(index)
            } else if state.difference(at: server).toRemove.contains(uid.rawValue) {
              alreadyRemoved.append(uid)
            } else {
              throw PipelineFailure.notInList(uid)
            }
          }
        }
        removed = indexes.sorted().map { ($0, state.uids[$0]) }
        state.uids = state.uids.enumerated().filter { !indexes.contains($0.offset) }.map(\.element)
      }
      let outcomes =
        removed.map { Outcome.removed($0.uid, index: $0.index) }
        + alreadyRemoved.map(Outcome.alreadyRemoved)
      return Observable.from(outcomes).concat(changed(on: triggers))
    }
    .catchingFailures()
  }

  /// A store change from outside: publishes the list and reconciles if the
  /// server in use is not in line; reports a store that cannot be read, or is gone.
  func storeChanged(_ event: StoreEvent, triggers: PublishSubject<Void>) -> Observable<Outcome> {
    switch event {
    case .changed(let state):
      list.onNext(state.uids)
      guard syncsChanges, state.difference(at: server).isPending else { return .empty() }
      return trigger(Demand(), on: triggers)
    case .unreadable(let error):
      return .just(.failed(.store(error)))
    case .deleted:
      return .just(.storeDeleted)
    case .absent:
      return .just(.storeAbsent)
    }
  }

  /// Asks for a reconciliation after a change, unless changes are only stored (`--no-sync`).
  func changed(on triggers: PublishSubject<Void>) -> Observable<Outcome> {
    syncsChanges ? trigger(Demand(), on: triggers) : .empty()
  }

  /// Adds `demand` to what the next reconciliation does, and asks for one; no outcome of its own.
  func trigger(_ demand: Demand, on triggers: PublishSubject<Void>) -> Observable<Outcome> {
    Observable.deferred {
      self.demand.withLock { $0 = $0.merged(with: demand) }
      triggers.onNext(())
      return .empty()
    }
  }

  /// Brings the server in use in line with the store, under the store's
  /// send lock (one reconciliation at a time across processes): it reads the
  /// newest desired state once the lock is held, and again after each step.
  func reconcile() -> Observable<Outcome> {
    Observable<Outcome>.create { observer in
      let held: any Disposable
      do {
        held = try store.lockForSending()
      } catch {
        observer.onError(error)
        return Disposables.create()
      }
      let demand = self.demand.withLock { demand in
        defer { demand = Demand() }
        return demand
      }
      return Disposables.create(step(demand, number: 0).subscribe(observer), held)
    }
    .catchingFailures()
  }

  /// The next step for the store as it is now, then the one after it.
  /// `previous` is the step just acknowledged: the same one again means the
  /// store did not record it (edited meanwhile), and is left to the next run.
  private func step(
    _ demand: Demand, number: Int, previous: ReconcileStep? = nil
  ) -> Observable<Outcome> {
    Observable<Outcome>.deferred {
      let state = try store.load()
      list.onNext(state.uids)
      guard number < Self.maximumSteps,
        let step = ReconcileStep.next(in: state, at: server, demand: demand), step != previous
      else { return .empty() }
      // What the step's handler learned decides the demand of the next step.
      let next = LockedState(demand)
      let request: Observable<Outcome>
      switch step {
      case .waitForToken(let uids):
        return .just(.waitingForRegistration(uids))
      case .unmapFormerPhone(let former):
        request = unmap(former, next: next)
      case .register(let desired):
        next.withLock { $0.forcesRegistration = false }
        request = register(desired, demand: demand)
      case .sendList(let desired, let uids):
        next.withLock { $0.forcesList = false }
        request = sendList(uids, for: desired, next: next)
      }
      return request.concat(
        Observable.deferred { self.step(next.value, number: number + 1, previous: step) })
    }
  }

  /// Removes every mapping of a phone the server holds that is no longer
  /// the desired one; a server that no longer knows it has none to remove.
  /// One the server refuses to unmap (another 4xx) is reported and given up,
  /// so that it never blocks the new phone; a transient failure keeps it.
  private func unmap(_ former: Phone, next: LockedState<Demand>) -> Observable<Outcome> {
    let server = server
    let forget: @Sendable () throws -> Void = {
      try update { state in state.servers[server]?.formerPhones.removeAll { $0 == former } }
    }
    return request(.unregisterMapping(former)) { response in
      try forget()
      return .unregistered(former, response: response.body)
    }
    .catch { error in
      if Self.isNotRegistered(error) {
        try forget()
        return .empty()
      }
      guard case .request(_, let failure) = error as? PipelineFailure, failure.isRejection else {
        throw error
      }
      try forget()
      return .just(.failed(.formerPhoneNotUnmapped(former, failure)))
    }
  }

  /// Registers `desired` and records that the server acknowledged exactly
  /// that, whatever the store desires by now (the next step compares). A
  /// rejected `register` puts the previous desired registration back.
  private func register(_ desired: PhoneRegistration, demand attempted: Demand)
    -> Observable<Outcome>
  {
    let server = server
    let demand = demand
    return request(desired.command) { response in
      try update { state in
        var acknowledged = state.acknowledged(at: server)
        acknowledged.accept(desired)
        state.servers[server] = acknowledged
      }
      // A `register` of this very registration asked for since is satisfied.
      demand.withLock { if $0.attempt?.registration == desired { $0.forcesRegistration = false } }
      return .registered(desired.token, response: response.body)
    }
    .catch { error in
      guard case .request(_, let failure) = error as? PipelineFailure, failure.isTokenRejection
      else { throw error }
      // Not adopted: back to the registration `register` replaced, or else the
      // one this server accepted, if any.
      var kept: PhoneRegistration?
      try update { state in
        let fallback =
          attempted.attempt?.registration == desired
          ? attempted.attempt?.previous : state.acknowledged(at: server).registration
        guard state.registration == desired, let fallback, fallback != desired else { return }
        state.registration = fallback
        kept = fallback
      }
      throw PipelineFailure.registrationRejected(desired.token, kept: kept?.token, failure)
    }
  }

  /// Sends the list and records it as acknowledged for `desired`'s phone. A
  /// server that answers "not registered" forgot the phone: it loses its
  /// acknowledged state, and the next step registers again (once).
  private func sendList(
    _ uids: [DeviceUID], for desired: PhoneRegistration, next: LockedState<Demand>
  ) -> Observable<Outcome> {
    let server = server
    return request(.mapsync(desired.phone, uids: uids)) { response in
      try update { state in
        if state.servers[server]?.registration?.phone == desired.phone {
          state.servers[server]?.uids = uids.map(\.rawValue)
        }
      }
      // A `sync` asked for meanwhile is satisfied: a list that changed since differs, and goes anyway.
      demand.withLock { $0.forcesList = false }
      return .synced(uids, response: response.body)
    }
    .catch { error in
      guard Self.isNotRegistered(error), !next.value.registrationLost else { throw error }
      try update { state in state.servers[server] = nil }
      next.withLock {
        $0.registrationLost = true
        $0.forcesList = true
      }
      return .just(.registrationLost(server: server))
    }
  }

  /// Whether the server refused a phone it does not know (the emulator's
  /// and the service's 4xx "… is not registered …").
  static func isNotRegistered(_ error: any Error) -> Bool {
    guard case .request(_, let failure) = error as? PipelineFailure,
      case .status(let status, let body, _) = failure.underlying, (400..<500).contains(status)
    else { return false }
    return body.lowercased().contains("not registered")
  }

  /// Sends `command` with retries; a final failure is a ``PipelineFailure`` naming the command.
  private func request(
    _ command: Command, onSuccess: @escaping @Sendable (HTTPResponse) throws -> Outcome
  ) -> Observable<Outcome> {
    environment.request(command, onSuccess: onSuccess).catch { error in
      guard let failure = error as? RequestFailure else { throw error }
      throw PipelineFailure.request(command.name, failure)
    }
  }

  /// Changes the store and publishes the new list. (A ``StoreError`` becomes
  /// a `failed(.store)` outcome in `catchingFailures`.)
  private func update(_ change: (inout StoreState) throws -> Void) throws {
    list.onNext(try store.update(change).uids)
  }
}

extension RequestFailure {
  /// Whether the server refused the request itself (a 4xx other than 408
  /// and 429): sending it again cannot help.
  var isRejection: Bool {
    guard case .status(let status, _, _) = underlying else { return false }
    return (400..<500).contains(status) && status != 408 && status != 429
  }

  /// Whether the server refused what a `client` request carried (400, 403,
  /// 409, 422 …), not where it went: a 404, 405 or 415 is a wrong `--server`.
  var isTokenRejection: Bool {
    guard isRejection, case .status(let status, _, _) = underlying else { return false }
    return ![404, 405, 406, 410, 413, 414, 415, 431].contains(status)
  }
}

extension ObservableType where Element == Outcome {
  /// Turns an error into a `failed` outcome and completes: errors are values here.
  public func catchingFailures(_ command: CommandName? = nil) -> Observable<Outcome> {
    materialize().compactMap { event -> Outcome? in
      switch event {
      case .next(let outcome): return outcome
      case .error(let error as PipelineFailure): return .failed(error)
      case .error(let error as RequestFailure):
        return .failed(.request(command ?? .client, error))
      case .error(let error as StoreError): return .failed(.store(error))
      case .error(let error):
        return .failed(.request(command ?? .client, .transport(.failed(reason: "\(error)"))))
      case .completed: return nil
      }
    }
  }
}

/// A UID typed by the user, or the failure that names the input.
private func parseUID(_ text: String) throws(PipelineFailure) -> DeviceUID {
  do {
    return try DeviceUID(text)
  } catch {
    throw .invalidUID(text, error)
  }
}
