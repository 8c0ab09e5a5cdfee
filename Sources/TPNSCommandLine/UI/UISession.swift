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
      let loop = UIEventLoop(state: initial, context: context) { state, commands in
        observer.onNext(state)
        for command in commands {
          switch command {
          case .token(let text): token.onNext(text)
          case .uidText(let text): uidText.onNext(text)
          case .addTap: taps.onNext(())
          case .remove(let uid): removals.onNext([.uid(uid)])
          case .sync: syncs.onNext(())
          }
        }
      }
      observer.onNext(initial)
      let events = Observable.merge([
        output.state.map { UIEvent.store($0) },
        output.list.map { UIEvent.list($0) },
        output.canAdd.map { UIEvent.canAdd($0) },
        output.outcomes.map { UIEvent.outcome($0) },
        keys.map { UIEvent.key($0) },
      ])
      return events.subscribe(onNext: { loop.submit($0) })
    }
  }
}

/// Handles events one at a time: the reducer under the lock, then the state
/// and commands go out without it; an event submitted meanwhile waits its turn.
private final class UIEventLoop: @unchecked Sendable {
  // @unchecked: `state`, `queue` and `isDraining` are guarded by `lock`;
  // `emit` runs on one thread at a time.
  private let lock = Lock()
  private var state: UIState
  private var queue: [UIEvent] = []
  private var isDraining = false
  private let context: UIContext
  private let emit: @Sendable (UIState, [UIAction]) -> Void

  init(
    state: UIState, context: UIContext, emit: @escaping @Sendable (UIState, [UIAction]) -> Void
  ) {
    self.state = state
    self.context = context
    self.emit = emit
  }

  func submit(_ event: UIEvent) {
    let drains = lock.withLock {
      queue.append(event)
      if isDraining { return false }
      isDraining = true
      return true
    }
    guard drains else { return }
    while let (next, commands) = step() { emit(next, commands) }
  }

  /// The next event reduced, or nil (and no longer draining) when none is left.
  private func step() -> (UIState, [UIAction])? {
    lock.withLock {
      guard !queue.isEmpty else {
        isDraining = false
        return nil
      }
      let event = queue.removeFirst()
      let commands = state.reduce(event, context: context)
      return (state, commands)
    }
  }
}
