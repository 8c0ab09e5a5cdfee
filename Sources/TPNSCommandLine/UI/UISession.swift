import Locking
import Reactive
import TPNSKit
import Terminal

/// The View of `tpns ui` bound to the pipeline, without a terminal: keys in,
/// states out. Keys and the pipeline's outputs go through
/// ``UIState/reduce(_:context:)``, whose actions feed the pipeline's inputs,
/// one at a time: an output an action causes is handled after it, never inside it.
///
///     let states = UISession(viewModel: viewModel, context: context, initial: state)
///       .states(keys: keys, storeChanges: events)
struct UISession: Sendable {
  let viewModel: SyncViewModel
  let context: UIContext
  let initial: UIState

  /// The state after each event, starting with `initial`; the pipeline runs
  /// while it is subscribed. `checks` send what is still pending (as `watch --interval`).
  func states(
    keys: Observable<Key>, storeChanges: Observable<StoreEvent> = .empty(),
    checks: Observable<Void> = .empty()
  ) -> Observable<UIState> {
    let viewModel = viewModel
    let context = context
    let initial = initial
    return Observable.create { observer in
      let token = PublishSubject<String>()
      // A behaviour subject: an add tap takes the text of that moment.
      let uidText = BehaviorSubject<String>(value: "")
      let taps = PublishSubject<Void>()
      let removals = PublishSubject<[SyncViewModel.Removal]>()
      let syncs = PublishSubject<Void>()
      let output = viewModel.transform(
        .init(
          token: token.asObservable(), uidText: uidText.asObservable(),
          addTaps: taps.asObservable(), removals: removals.asObservable(),
          syncRequests: syncs.asObservable(), storeChanges: storeChanges, periodicChecks: checks))
      // A subject handles one event at a time: one that an action causes
      // comes after the event that caused it.
      let events = PublishSubject<UIEvent>()
      let state = LockedState(initial)
      let reductions = events.subscribe(onNext: { event in
        let (next, actions) = state.withLock { state in
          let actions = state.reduce(event, context: context)
          return (state, actions)
        }
        observer.onNext(next)
        for action in actions {
          switch action {
          case .token(let text): token.onNext(text)
          case .uidText(let text): uidText.onNext(text)
          case .addTap: taps.onNext(())
          case .remove(let uid): removals.onNext([.uid(uid)])
          case .sync: syncs.onNext(())
          }
        }
      })
      observer.onNext(initial)
      let inputs = Observable.merge([
        output.state.map { UIEvent.store($0) },
        output.list.map { UIEvent.list($0) },
        output.canAdd.map { UIEvent.canAdd($0) },
        output.outcomes.map { UIEvent.outcome($0) },
        keys.map { UIEvent.key($0) },
      ])
      .subscribe(onNext: { events.onNext($0) })
      return Disposables.create(reductions, inputs)
    }
  }
}
