import Locking
import Reactive
import TPNSProtocol

/// The steps of the pipeline, each an observable of outcomes that stores
/// first, then asks the server, and turns every failure into an outcome.
struct Context: Sendable {
  let environment: PipelineEnvironment
  let registration: Registration
  let list: PublishSubject<[String]>
  let syncsChanges: Bool
  let registersFromStore: Bool
  /// A forced sync asked for while another waits: the coalesced trigger that
  /// runs may be a plain change, and must still send.
  let forcedPending = LockedState(false)

  private var store: StoreClient { environment.store }

  /// Stores the token and registers it; on success, triggers a sync of what is pending.
  func register(
    _ result: Result<PushToken, IdentifierError>, triggers: PublishSubject<SyncTrigger>
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
      let server = environment.server.server
      let phone = Phone(os: token.os, appID: registration.appID, udid: udid)
      try update { state in
        let samePhone =
          state.token == token.rawValue && state.server == server && state.phone == phone
        state.token = token.rawValue
        state.os = token.os.rawValue
        state.appID = phone.appID
        state.udid = phone.udid
        state.server = server
        if !samePhone {
          // A new phone identity: the server knows nothing of it yet.
          state.registered = false
          state.syncedUIDs = nil
        }
      }
      let command = Command.client(
        phone, token: token, language: registration.language, sandbox: registration.sandbox)
      return request(command) { response in
        try update { state in
          // Only if the registration it was sent for still holds, phone included.
          if state.token == token.rawValue, state.server == server, state.phone == phone {
            state.registered = true
          }
        }
        return .registered(token, response: response.body)
      }
      // After `registered` is out: now what is pending can be sent.
      .do(onCompleted: { if syncsChanges { triggers.onNext(.changed) } })
    }
    .catchingFailures(.client)
  }

  /// Registers the token the store holds at this server (`watch`).
  private func registerStored(_ token: PushToken, phone: Phone) -> Observable<Outcome> {
    let server = environment.server.server
    return request(
      .client(phone, token: token, language: registration.language, sandbox: registration.sandbox)
    ) { response in
      try update { state in
        guard state.token == token.rawValue, state.phone == phone else { return }
        if state.server != server { state.syncedUIDs = nil }
        state.server = server
        state.registered = true
      }
      return .registered(token, response: response.body)
    }
  }

  /// Validates every UID, then stores the new ones (all or nothing); triggers a sync if any was new.
  func add(_ texts: [String], triggers: PublishSubject<SyncTrigger>) -> Observable<Outcome> {
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
      let changed = outcomes.contains { if case .added = $0 { true } else { false } }
      // The outcomes first, then the sync they cause.
      return Observable.from(outcomes).do(onCompleted: {
        if changed, syncsChanges { triggers.onNext(.changed) }
      })
    }
    .catchingFailures(nil)
  }

  /// Checks every target against the list, then removes them all (or none);
  /// triggers a sync.
  func remove(
    _ removals: [SyncViewModel.Removal], triggers: PublishSubject<SyncTrigger>
  ) -> Observable<Outcome> {
    Observable<Outcome>.deferred {
      var removed: [(index: Int, uid: String)] = []
      try update { state in
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
            guard let index = state.uids.firstIndex(of: uid.rawValue) else {
              throw PipelineFailure.notInList(uid)
            }
            indexes.insert(index)
          }
        }
        removed = indexes.sorted().map { ($0, state.uids[$0]) }
        state.uids = state.uids.enumerated().filter { !indexes.contains($0.offset) }.map(\.element)
      }
      let changed = !removed.isEmpty
      return Observable.from(removed.map { Outcome.removed($0.uid, index: $0.index) })
        .do(onCompleted: { if changed, syncsChanges { triggers.onNext(.changed) } })
    }
    .catchingFailures(nil)
  }

  /// A store change from outside: publishes the list and triggers a sync if
  /// something is pending; reports a store that cannot be read, or is gone.
  func storeChanged(
    _ event: StoreEvent, triggers: PublishSubject<SyncTrigger>
  ) -> Observable<Outcome> {
    switch event {
    case .changed(let state):
      list.onNext(state.uids)
      if syncsChanges, state.hasPendingChanges || needsRegistration(state) {
        triggers.onNext(.changed)
      }
      return .empty()
    case .unreadable(let error):
      return .just(.failed(.store(error)))
    case .deleted:
      return .just(.storeDeleted)
    }
  }

  /// Whether `watch` should register the stored token at this server first.
  private func needsRegistration(_ state: StoreState) -> Bool {
    registersFromStore && state.pushToken != nil && state.phone != nil
      && !(state.registered && state.server == environment.server.server)
  }

  /// Sends a trigger; no outcome of its own.
  func trigger(
    _ trigger: SyncTrigger, on triggers: PublishSubject<SyncTrigger>
  ) -> Observable<Outcome> {
    if trigger == .forced { forcedPending.withLock { $0 = true } }
    triggers.onNext(trigger)
    return .empty()
  }

  /// Reads the newest list from the store and sends it, if there is a
  /// registration to send it for and it is pending (or the sync is forced).
  func sync(_ trigger: SyncTrigger, triggers: PublishSubject<SyncTrigger>) -> Observable<Outcome> {
    // The newest list is read only once the store's send lock is held, and the
    // lock is kept until the answer is recorded.
    Observable<Outcome>.create { observer in
      let held: any Disposable
      do {
        held = try store.lockForSending()
      } catch {
        observer.onError(error)
        return Disposables.create()
      }
      return Disposables.create(send(trigger, triggers: triggers).subscribe(observer), held)
    }
    .catchingFailures(.mapsync)
  }

  /// The sync itself, under the send lock. With `mayRegister`, a stored token
  /// this server has not acknowledged is registered first, then the list is
  /// sent (once: the second pass does not register again).
  private func send(
    _ trigger: SyncTrigger, triggers: PublishSubject<SyncTrigger>, mayRegister: Bool = true
  ) -> Observable<Outcome> {
    Observable<Outcome>.deferred {
      let state = try store.load()
      list.onNext(state.uids)
      let uids = try state.deviceUIDs()
      if mayRegister, needsRegistration(state), let token = state.pushToken,
        let phone = state.phone
      {
        return registerStored(token, phone: phone).catchingFailures(.client)
          .concat(
            Observable.deferred {
              // The list, if the registration took (a failure was just reported).
              guard try !needsRegistration(store.load()) else { return .empty() }
              return send(trigger, triggers: triggers, mayRegister: false)
            })
      }
      let forced = forcedPending.withLock { pending in
        defer { pending = false }
        return pending || trigger == .forced
      }
      guard forced || state.hasPendingChanges else { return .empty() }
      // Registered means acknowledged by this server; another one knows nothing of it.
      guard state.registered, state.server == environment.server.server, let phone = state.phone
      else {
        return .just(.waitingForRegistration(uids))
      }
      return request(.mapsync(phone, uids: uids)) { response in
        try update { stored in
          // Only if the registration it was sent for still holds.
          if stored.token == state.token, stored.server == state.server, stored.phone == phone,
            stored.registered
          {
            stored.syncedUIDs = state.uids
          }
        }
        return .synced(uids, response: response.body)
      }
    }
    .catchingFailures(.mapsync)
  }

  private func request(
    _ command: Command, onSuccess: @escaping @Sendable (HTTPResponse) throws -> Outcome
  ) -> Observable<Outcome> {
    environment.request(command, onSuccess: onSuccess)
  }

  /// Changes the store and publishes the new list. (A ``StoreError`` becomes
  /// a `failed(.store)` outcome in `catchingFailures`.)
  private func update(_ change: (inout StoreState) throws -> Void) throws {
    list.onNext(try store.update(change).uids)
  }
}

extension ObservableType where Element == Outcome {
  /// Turns an error into a `failed` outcome and completes: errors are values here.
  public func catchingFailures(_ command: CommandName?) -> Observable<Outcome> {
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
