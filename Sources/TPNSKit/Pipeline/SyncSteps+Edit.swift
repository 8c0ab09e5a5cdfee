import Reactive
import TPNSProtocol

extension SyncSteps {
  /// Checks every UID, then stores the new ones (all or nothing) and updates the
  /// settings of all, then reconciles, whether or not one was new: re-running a
  /// command finishes what an earlier run left pending.
  func add(_ addition: SyncViewModel.Addition, triggers: PublishSubject<Void>)
    -> Observable<Outcome>
  {
    Observable<Outcome>.deferred {
      // All checked before anything is stored (all or nothing).
      let uids = try addition.uids.map { try $0.parsed() }
      var outcomes: [Outcome] = []
      try update { state in
        outcomes = []
        if addition.replacesList {
          let given = Set(uids.map(\.rawValue))
          let gone = Set(state.uids.indices.filter { !given.contains(state.uids[$0]) })
          outcomes += gone.sorted().map { Outcome.removed(state.uids[$0], index: $0) }
          state.removeUIDs(at: gone)
        }
        // A few UIDs (a `tpns add`) are looked up in the list; many (an
        // import) in a set of it, which costs more than adding a few.
        var present = uids.count > 8 ? Set(state.uids) : []
        func isNew(_ uid: String) -> Bool {
          uids.count > 8 ? present.insert(uid).inserted : !state.uids.contains(uid)
        }
        for uid in uids {
          let old = state.settings(of: uid.rawValue)
          var new = old.updated(by: addition.settings)
          if let own = addition.settingsByUID[uid.rawValue] { new = new.updated(by: own) }
          if isNew(uid.rawValue) {
            state.uids.append(uid.rawValue)
            outcomes.append(.added(uid, settings: new))
          } else if new != old {
            outcomes.append(.settingsChanged(uid, new))
          } else {
            outcomes.append(.alreadyPresent(uid))
          }
          state.settings[uid.rawValue] = new.isEmpty ? nil : new
        }
        if addition.replacesList {
          var seen = Set<String>()
          state.uids = uids.map(\.rawValue).filter { seen.insert($0).inserted }
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

  /// Removes as ``remove(_:all:requests:triggers:)`` does, and sends each removal as a single-UID
  /// request instead of in a `mapsync`.
  func unmap(_ unmapping: SyncViewModel.Unmapping, triggers: PublishSubject<Void>)
    -> Observable<Outcome>
  {
    let texts: [String]
    let requests: @Sendable ([DeviceUID]) -> [MappingRequest]
    switch unmapping {
    case .removeMapping(let text):
      texts = [text]
      requests = { $0.map(MappingRequest.removeMapping) }
    case .unregister(let given) where given.isEmpty:
      return remove([], all: true, requests: { _ in [.unregister(nil)] }, triggers: triggers)
    case .unregister(let given):
      texts = given
      requests = { $0.map(MappingRequest.unregister) }
    }
    // Every UID is checked before the store is read (as `add` does).
    return Observable<[DeviceUID]>.deferred {
      .just(try texts.map { try UIDInput($0).parsed() })
    }
    .flatMap { uids in
      remove(uids.map { .uid($0.rawValue) }, requests: requests, triggers: triggers)
    }
    .catchingFailures()
  }

  /// Checks every target against the list, then removes them all (or none, or with
  /// `all` every stored UID), then reconciles with the single-UID `requests` made of
  /// the UIDs removed. A UID no longer stored that the server still holds is already
  /// removed, and its removal is what gets sent.
  func remove(
    _ removals: [SyncViewModel.Removal], all: Bool = false,
    requests: @escaping @Sendable ([DeviceUID]) -> [MappingRequest] = { _ in [] },
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
            let uid = try UIDInput(text).parsed()
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

  /// A store change from outside: publishes it, and reconciles if the server is not in line.
  func storeChanged(_ event: StoreEvent, triggers: PublishSubject<Void>) -> Observable<Outcome> {
    switch event {
    case .changed(let state):
      states.onNext(state)
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
}
