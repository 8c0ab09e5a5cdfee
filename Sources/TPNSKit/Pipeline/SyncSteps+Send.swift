import Locking
import Reactive
import TPNSProtocol

extension SyncSteps {
  /// Brings the server in use in line with the store, under the store's send lock
  /// (one at a time across processes), reading the store again before each step.
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

  /// The next step for the store as it is now, then the one after it. The same step
  /// as `previous` again means the store did not record it (edited meanwhile).
  private func step(
    _ demand: Demand, number: Int, limit: Int, previous: ReconcileStep? = nil
  ) -> Observable<Outcome> {
    Observable<Outcome>.deferred {
      let state = try load()
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
        next.withLock {
          $0.forcesList = false
          $0.retriesNotActivated = false
        }
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

  /// Removes every mapping of a former phone; a server that no longer knows it has
  /// none. One the server refuses to unmap (another 4xx) is reported and passed over,
  /// so that it never blocks the new phone, but stays pending for the next run; a
  /// transient failure keeps it too, and ends the reconciliation.
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
      next.withLock { $0.refusedFormerPhones.append(former) }
      return .just(.failed(.formerPhoneNotUnmapped(former, failure)))
    }
  }

  /// Sends the list and records it as acknowledged, if the server still holds
  /// `desired`'s phone, but the UIDs it refused as not activated (reported as a
  /// failure). A server that answers "not registered" forgot the phone: the next
  /// step registers again (once).
  private func sendList(
    _ uids: [DeviceUID], settings: [DeviceUID: MappingSettings], for desired: PhoneRegistration,
    next: LockedState<Demand>
  ) -> Observable<Outcome> {
    let server = server
    return request(.mapsync(desired.phone, uids: uids, settings: settings)) { response in
      let refused = NotActivatedAnswer.refused(in: response.body, of: uids) ?? []
      let refusedSet = Set(refused)
      try update { state in
        guard state.holds(desired.phone, at: server) else { return }
        let sent = Dictionary(uniqueKeysWithValues: settings.map { ($0.key.rawValue, $0.value) })
        let held = refused.isEmpty ? uids : uids.filter { !refusedSet.contains($0) }
        state.servers[server]?.accept(
          list: held.map(\.rawValue), sent: sent, notActivated: refused.map(\.rawValue))
      }
      // A `sync` asked for meanwhile is satisfied: a list that changed since differs, and goes anyway.
      pendingDemand.withLock {
        $0.forcesList = false
        $0.retriesNotActivated = false
      }
      return refused.isEmpty
        ? .synced(uids, response: response.body) : .failed(.notActivated(refused, .mapsync))
    }
    .catch { error in
      try forgetRegistration(after: error, next: next)
      next.withLock { $0.forcesList = true }
      return .just(.registrationLost(server: server))
    }
  }

  /// Sends one single-UID request for `desired`'s phone and records what the server
  /// acknowledged, if it still holds that phone; it leaves the demand once answered.
  /// A phone the server forgot is registered again (once) before the request is
  /// sent again; a `mapping` or `rm_mapping` refused as not activated is a failure.
  private func send(
    _ mappingRequest: MappingRequest, settings: MappingSettings, taking: Int,
    for desired: PhoneRegistration, next: LockedState<Demand>
  ) -> Observable<Outcome> {
    let server = server
    let phone = desired.phone
    let command: TPNSRequest
    switch mappingRequest {
    case .map(let uid):
      command = .mapping(phone, uid: uid, interval: settings.interval, format: settings.format)
    case .removeMapping(let uid):
      command = .removeMapping(phone, uid: uid)
    case .unregister(let uid):
      command = .unregisterMapping(phone, uid: uid)
    }
    return request(command) { response in
      // A failure below ends the reconciliation, and `next` with it.
      next.withLock { $0.mappingRequests.removeFirst(min(taking, $0.mappingRequests.count)) }
      let refused = NotActivatedAnswer.isRefusal(response.body)
      if refused, case .removeMapping(let uid) = mappingRequest {
        // The server removed nothing: what it acknowledged stands, and a UID it
        // holds stays pending removal (`sync` and `watch` send the list without it).
        let held = try load().difference(at: server).acknowledgedUIDs.contains(uid.rawValue)
        next.withLock { _ = $0.refusedRemovals.insert(uid.rawValue) }
        return .failed(.removalNotActivated(uid, stillMapped: held))
      }
      try update { state in
        guard state.holds(phone, at: server) else { return }
        switch mappingRequest {
        // Refused as not activated: the server holds no mapping of it.
        case .map(let uid) where refused: state.servers[server]?.refuse(notActivated: uid.rawValue)
        case .map(let uid): state.servers[server]?.accept(mapping: uid.rawValue, sent: settings)
        case .removeMapping(let uid): state.servers[server]?.accept(unmapping: uid.rawValue)
        case .unregister(let uid): state.servers[server]?.accept(unmapping: uid?.rawValue)
        }
      }
      switch mappingRequest {
      case .map(let uid) where refused: return .failed(.notActivated([uid], .mapping))
      case .map(let uid): return .mapped(uid, settings, response: response.body)
      case .removeMapping(let uid): return .unmapped(uid, .rmMapping, response: response.body)
      case .unregister(let uid): return .unmapped(uid, .unregMapping, response: response.body)
      }
    }
    .catch { error in
      try forgetRegistration(after: error, next: next)
      return .just(.registrationLost(server: server))
    }
  }

  /// After the first "not registered" of a reconciliation, forgets what the server
  /// acknowledged (the next step registers again); rethrows any other `error`.
  private func forgetRegistration(after error: any Error, next: LockedState<Demand>) throws {
    guard Self.isNotRegistered(error), !next.value.registrationLost else { throw error }
    let server = server
    try update { state in state.servers[server] = nil }
    next.withLock { $0.registrationLost = true }
  }

  /// Whether the server refused a phone it does not know (a 4xx "… not registered …").
  static func isNotRegistered(_ error: any Error) -> Bool {
    guard case .request(_, let failure) = error as? PipelineFailure,
      case .status(let status, let body, _) = failure.underlying, (400..<500).contains(status)
    else { return false }
    return body.lowercased().contains("not registered")
  }
}
