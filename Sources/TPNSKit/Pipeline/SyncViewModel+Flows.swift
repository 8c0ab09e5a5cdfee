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
  let pendingDemand = LockedState(Demand())

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
      return trigger(Demand(forcesRegistration: true, attempt: attempt), on: triggers)
    }
    .catchingFailures()
  }

  /// Validates every UID, then stores the new ones (all or nothing), with
  /// `addition`'s settings; a UID already stored gets its settings updated.
  /// Then reconciles, whether or not one was new: re-running a command
  /// finishes what an earlier run left pending. With `sending` `.mapping`,
  /// each UID goes as one `cmd=mapping` instead of in a `mapsync`.
  func add(_ addition: SyncViewModel.Addition, triggers: PublishSubject<Void>)
    -> Observable<Outcome>
  {
    Observable<Outcome>.deferred {
      var uids: [DeviceUID] = []
      for text in addition.uids {
        uids.append(try parseUID(text))
      }
      var outcomes: [Outcome] = []
      try update { state in
        outcomes = []
        var present = Set(state.uids)
        for uid in uids {
          let old = state.settings(of: uid.rawValue)
          let new = old.updated(by: addition.settings)
          if present.insert(uid.rawValue).inserted {
            state.uids.append(uid.rawValue)
            outcomes.append(.added(uid, settings: new))
          } else if new != old {
            outcomes.append(.settingsChanged(uid, new))
          } else {
            outcomes.append(.alreadyPresent(uid))
          }
          state.settings[uid.rawValue] = new.isEmpty ? nil : new
        }
      }
      // The outcomes first, then the reconciliation they ask for.
      var demand = Demand()
      if addition.sending == .mapping {
        for uid in uids where !demand.mappingRequests.contains(.map(uid)) {
          demand.mappingRequests.append(.map(uid))
        }
      }
      return Observable.from(outcomes).concat(changed(demand, on: triggers))
    }
    .catchingFailures()
  }

  /// Checks every target against the list, then removes them all (or none),
  /// with their settings; then reconciles. A UID no longer stored that the
  /// server in use still holds is already removed here, and its removal is
  /// what gets sent.
  func remove(
    _ removals: [SyncViewModel.Removal], triggers: PublishSubject<Void>
  ) -> Observable<Outcome> {
    remove(removals, all: false, requests: { _ in [] }, triggers: triggers)
  }

  /// Removes as ``remove(_:triggers:)`` does, then sends each removal as a
  /// single-UID request (`rm_mapping`, `unreg_mapping`) instead of in a
  /// `mapsync`; `unregister` of no UID removes them all, and sends one
  /// `unreg_mapping` without a `uid`.
  func unmap(_ unmapping: SyncViewModel.Unmapping, triggers: PublishSubject<Void>)
    -> Observable<Outcome>
  {
    switch unmapping {
    case .removeMapping(let text):
      return remove(
        [.uid(text)], all: false, requests: { $0.map(MappingRequest.removeMapping) },
        triggers: triggers)
    case .unregister(let texts) where texts.isEmpty:
      return remove([], all: true, requests: { _ in [.unregister(nil)] }, triggers: triggers)
    case .unregister(let texts):
      return remove(
        texts.map(SyncViewModel.Removal.uid), all: false,
        requests: { $0.map(MappingRequest.unregister) }, triggers: triggers)
    }
  }

  /// Removes `removals` (or, with `all`, every stored UID), then reconciles
  /// with the single-UID `requests` made of the UIDs removed.
  private func remove(
    _ removals: [SyncViewModel.Removal], all: Bool,
    requests: @escaping @Sendable ([DeviceUID]) -> [MappingRequest],
    triggers: PublishSubject<Void>
  ) -> Observable<Outcome> {
    let server = server
    return Observable<Outcome>.deferred {
      var removed: [(index: Int, uid: String)] = []
      var alreadyRemoved: [DeviceUID] = []
      try update { state in
        removed = []
        alreadyRemoved = []
        var indexes = all ? Set(state.uids.indices) : Set<Int>()
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
              if !alreadyRemoved.contains(uid) { alreadyRemoved.append(uid) }
            } else {
              throw PipelineFailure.notInList(uid)
            }
          }
        }
        removed = indexes.sorted().map { ($0, state.uids[$0]) }
        state.removeUIDs(at: indexes)
      }
      let outcomes =
        removed.map { Outcome.removed($0.uid, index: $0.index) }
        + alreadyRemoved.map(Outcome.alreadyRemoved)
      // Stored UIDs are valid: they were checked when the store was read.
      let targets = removed.compactMap { try? DeviceUID($0.uid) } + alreadyRemoved
      let demand = Demand(mappingRequests: requests(targets))
      return Observable.from(outcomes).concat(changed(demand, on: triggers))
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

  /// Asks for a reconciliation after a change (with what `demand` asks
  /// for), unless changes are only stored (`--no-sync`).
  func changed(_ demand: Demand = Demand(), on triggers: PublishSubject<Void>)
    -> Observable<Outcome>
  {
    syncsChanges ? trigger(demand, on: triggers) : .empty()
  }

  /// Adds `demand` to what the next reconciliation does, and asks for one; no outcome of its own.
  func trigger(_ demand: Demand, on triggers: PublishSubject<Void>) -> Observable<Outcome> {
    Observable.deferred {
      self.pendingDemand.withLock { $0 = $0.merged(with: demand) }
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
      let demand = self.pendingDemand.withLock { demand in
        defer { demand = Demand() }
        return demand
      }
      // Each single-UID request is a step of its own.
      let limit = Self.maximumSteps + demand.mappingRequests.count
      return Disposables.create(
        step(demand, number: 0, limit: limit).subscribe(observer), held)
    }
    .catchingFailures()
  }

  /// The next step for the store as it is now, then the one after it.
  /// `previous` is the step just acknowledged: the same one again means the
  /// store did not record it (edited meanwhile), and is left to the next run.
  private func step(
    _ demand: Demand, number: Int, limit: Int, previous: ReconcileStep? = nil
  ) -> Observable<Outcome> {
    Observable<Outcome>.deferred {
      let state = try store.load()
      list.onNext(state.uids)
      guard number < limit,
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
      case .sendList(let desired, let uids, let settings):
        next.withLock { $0.forcesList = false }
        request = sendList(uids, settings: settings, for: desired, next: next)
      case .sendMappingRequest(let desired, let mappingRequest, let settings, let taking):
        request = send(
          mappingRequest, settings: settings, taking: taking, for: desired, next: next)
      }
      return request.concat(
        Observable.deferred {
          self.step(next.value, number: number + 1, limit: limit, previous: step)
        })
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
    return request(desired.clientRequest) { response in
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
      // Not adopted: back to the registration `register` replaced; or, for a
      // token no server has accepted (one stored by a `register` that failed
      // with a 5xx, say), back to the one this server accepted, if any. A
      // token another server accepted stays: this server's answer alone does
      // not undo it there.
      var kept: PhoneRegistration?
      var rejected = true
      try update { state in
        let fallback: PhoneRegistration?
        if attempted.attempt?.registration == desired {
          fallback = attempted.attempt?.previous
        } else if state.servers.values.contains(where: { $0.registration == desired }) {
          rejected = false
          return
        } else {
          fallback = state.acknowledged(at: server).registration
        }
        guard state.registration == desired, let fallback, fallback != desired else { return }
        state.registration = fallback
        kept = fallback
      }
      guard rejected else { throw error }
      throw PipelineFailure.registrationRejected(desired.token, kept: kept?.token, failure)
    }
  }

  /// Sends the list and records it as acknowledged for `desired`'s phone. A
  /// server that answers "not registered" forgot the phone: it loses its
  /// acknowledged state, and the next step registers again (once).
  private func sendList(
    _ uids: [DeviceUID], settings: [DeviceUID: MappingSettings], for desired: PhoneRegistration,
    next: LockedState<Demand>
  ) -> Observable<Outcome> {
    let server = server
    return request(.mapsync(desired.phone, uids: uids, settings: settings)) { response in
      try update { state in
        if state.servers[server]?.registration?.phone == desired.phone {
          var sent: [String: MappingSettings] = [:]
          for (uid, value) in settings { sent[uid.rawValue] = value }
          state.servers[server]?.accept(list: uids.map(\.rawValue), sent: sent)
        }
      }
      // A `sync` asked for meanwhile is satisfied: a list that changed since differs, and goes anyway.
      pendingDemand.withLock { $0.forcesList = false }
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

  /// Sends one single-UID request for `desired`'s phone and records what
  /// the server acknowledged: a UID mapped with `settings` (`mapping`),
  /// one mapping removed (`rm_mapping`, `unreg_mapping` with `uid`), or all
  /// of them (`unreg_mapping`). It leaves the demand once acknowledged; a
  /// server that answers "not registered" forgot the phone, which is
  /// registered again (once) before the request is sent again.
  private func send(
    _ mappingRequest: MappingRequest, settings: MappingSettings, taking: Int,
    for desired: PhoneRegistration, next: LockedState<Demand>
  ) -> Observable<Outcome> {
    let server = server
    let phone = desired.phone
    let request: TPNSRequest
    switch mappingRequest {
    case .map(let uid):
      request = .mapping(phone, uid: uid, interval: settings.interval, format: settings.format)
    case .removeMapping(let uid):
      request = .removeMapping(phone, uid: uid)
    case .unregister(let uid):
      request = .unregisterMapping(phone, uid: uid)
    }
    return self.request(request) { response in
      try update { state in
        guard state.servers[server]?.registration?.phone == phone else { return }
        switch mappingRequest {
        case .map(let uid):
          state.servers[server]?.accept(mapping: uid.rawValue, sent: settings)
        case .removeMapping(let uid):
          state.servers[server]?.accept(unmapping: uid.rawValue)
        case .unregister(let uid):
          state.servers[server]?.accept(unmapping: uid?.rawValue)
        }
      }
      next.withLock { $0.mappingRequests.removeFirst(min(taking, $0.mappingRequests.count)) }
      switch mappingRequest {
      case .map(let uid):
        return .mapped(uid, settings, response: response.body)
      case .removeMapping(let uid):
        return .unmapped(uid, .rmMapping, response: response.body)
      case .unregister(let uid):
        return .unmapped(uid, .unregMapping, response: response.body)
      }
    }
    .catch { error in
      guard Self.isNotRegistered(error), !next.value.registrationLost else { throw error }
      try update { state in state.servers[server] = nil }
      next.withLock { $0.registrationLost = true }
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

  /// Sends `request` with retries; a final failure is a ``PipelineFailure`` naming its `cmd`.
  private func request(
    _ request: TPNSRequest, onSuccess: @escaping @Sendable (HTTPResponse) throws -> Outcome
  ) -> Observable<Outcome> {
    environment.request(request, onSuccess: onSuccess).catch { error in
      guard let failure = error as? RequestFailure else { throw error }
      throw PipelineFailure.request(request.name, failure)
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
