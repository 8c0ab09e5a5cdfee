import Reactive
import TPNSProtocol

/// The quickstart's ViewModel, the heart of tpns: inputs from a View (the command
/// line, `watch`, a test), outputs it binds to. Every input changes the desired state
/// in the store, then asks for the server to be reconciled, one reconciliation at a
/// time; every failure is an ``Outcome/failed(_:)`` value, and the pipeline goes on.
///
///     let output = SyncViewModel(environment: env).transform(.init(addBatches: .just(["…"])))
///     let outcomes = try output.outcomes.toBlocking(timeout: .seconds(120)).toArray()
public struct SyncViewModel: Sendable {
  /// What a View feeds in. Every input defaults to empty (completed).
  public struct Input: Sendable {
    /// Token text, as typed or received (the quickstart's `rx_deviceToken`).
    public var token: Observable<String>
    /// UID text (the quickstart's text field).
    public var uidText: Observable<String>
    /// Taps of the Bind button: add the UID text of that moment.
    public var addTaps: Observable<Void>
    /// UIDs to add at once (a command line, a file).
    public var addBatches: Observable<[String]>
    /// UIDs to add at once with settings, or sent one `cmd=mapping` each.
    public var additions: Observable<Addition>
    /// Entries to remove at once, by index in the list or by UID.
    public var removals: Observable<[Removal]>
    /// UIDs to remove and send as single-UID requests instead of in a `mapsync`.
    public var unmappings: Observable<Unmapping>
    /// Requests to send the stored list again, changed or not (registering first if needed).
    public var syncRequests: Observable<Void>
    /// The store as changed by anyone (`watch`).
    public var storeChanges: Observable<StoreEvent>
    /// Moments to send what is still pending (`watch --interval`).
    public var periodicChecks: Observable<Void>

    /// Inputs; those not given are empty.
    public init(
      token: Observable<String> = .empty(), uidText: Observable<String> = .empty(),
      addTaps: Observable<Void> = .empty(), addBatches: Observable<[String]> = .empty(),
      additions: Observable<Addition> = .empty(), removals: Observable<[Removal]> = .empty(),
      unmappings: Observable<Unmapping> = .empty(), syncRequests: Observable<Void> = .empty(),
      storeChanges: Observable<StoreEvent> = .empty(), periodicChecks: Observable<Void> = .empty()
    ) {
      self.token = token
      self.uidText = uidText
      self.addTaps = addTaps
      self.addBatches = addBatches
      self.additions = additions
      self.removals = removals
      self.unmappings = unmappings
      self.syncRequests = syncRequests
      self.storeChanges = storeChanges
      self.periodicChecks = periodicChecks
    }
  }

  /// UIDs to add (all or none), with a change of their settings, and how to send them.
  public struct Addition: Sendable, Equatable {
    /// How the added UIDs reach the server.
    public enum Sending: Sendable, Equatable {
      /// In a `mapsync` of the whole list, if it differs (`tpns add`).
      case list
      /// One `cmd=mapping` each, always (`tpns mapping`); then a `mapsync` if the list differs.
      case mapping
    }

    /// The UIDs, as given (one that is not a UID stores none).
    public var uids: [UIDInput]
    /// The change of their settings (a UID already stored keeps what it does not change).
    public var settings: MappingSettingsUpdate
    /// Some UIDs' own change of settings, after ``settings`` (`tpns import`).
    public var settingsByUID: [String: MappingSettingsUpdate] = [:]
    /// How they are sent.
    public var sending: Sending
    /// Whether the list becomes exactly these UIDs, in their order (`tpns import
    /// --replace`): the others are removed in the same change.
    public var replacesList: Bool

    /// An addition; no settings, sent in the list, and added to it by default.
    public init(
      _ uids: [UIDInput], settings: MappingSettingsUpdate = MappingSettingsUpdate(),
      settingsByUID: [String: MappingSettingsUpdate] = [:], sending: Sending = .list,
      replacesList: Bool = false
    ) {
      self.uids = uids
      self.settings = settings
      self.settingsByUID = settingsByUID
      self.sending = sending
      self.replacesList = replacesList
    }

    /// An addition of UIDs as typed.
    public init(
      _ uids: [String], settings: MappingSettingsUpdate = MappingSettingsUpdate(),
      sending: Sending = .list
    ) {
      self.init(uids.map { UIDInput($0) }, settings: settings, sending: sending)
    }
  }

  /// Removals, as ``Removal``s, sent as single-UID requests instead of in a `mapsync`.
  public enum Unmapping: Sendable, Equatable {
    /// Remove this UID and send `cmd=rm_mapping` (`tpns rm-mapping`).
    case removeMapping(String)
    /// Remove these UIDs and send `cmd=unreg_mapping` for each; none: remove every
    /// UID and send one `cmd=unreg_mapping` without a `uid` (`tpns unregister`).
    case unregister([String])
  }

  /// What to remove.
  public enum Removal: Sendable, Equatable {
    /// The entry at this index of the list, as `tpns list` prints it.
    case index(Int)
    /// This UID.
    case uid(String)
  }

  /// What a View binds to.
  public struct Output: Sendable {
    /// Whether the UID text and the token are both valid (the Bind button).
    public var canAdd: Observable<Bool>
    /// The stored list, read from the store after each change.
    public var list: Observable<[String]>
    /// The store as the pipeline last read or wrote it (no read of its own): what a
    /// command reports at the end.
    public var state: Observable<StoreContents>
    /// Every outcome, in order; completes when the inputs have and all work is done.
    public var outcomes: Observable<Outcome>
  }

  private let environment: PipelineEnvironment
  private let registration: Registration
  private let syncsChanges: Bool

  /// A pipeline over `environment`. With `syncsChanges` false, list changes are only
  /// stored (`--no-sync`) until a sync request.
  public init(
    environment: PipelineEnvironment, registration: Registration = Registration(),
    syncsChanges: Bool = true
  ) {
    self.environment = environment
    self.registration = registration
    self.syncsChanges = syncsChanges
  }

  /// Wires `input` to the outputs. Nothing runs until `outcomes` is subscribed.
  public func transform(_ input: Input) -> Output {
    // The store is read only when an output is subscribed.
    let store = environment.store
    let states = PublishSubject<StoreContents>()
    let steps = SyncSteps(
      environment: environment, registration: registration, states: states,
      syncsChanges: syncsChanges)

    let storedTokenValid = Observable<Bool>.deferred {
      .just((try? store.load())?.registration != nil)
    }
    // The same checks as the steps': a View's button agrees with what adding would say.
    let tokenValid = Observable.merge(
      storedTokenValid, input.token.map { (try? steps.token($0).get()) != nil })
    let uidValid = input.uidText.map { (try? UIDInput($0).parsed()) != nil }.startWith(false)
    let canAdd = Observable.combineLatest(uidValid, tokenValid) { $0 && $1 }
      .distinctUntilChanged()

    let outcomes = Observable<Outcome>.deferred {
      // Reconciliations subscribe first, so that no trigger of the changes is missed.
      let triggers = PublishSubject<Void>()
      let tapped = input.addTaps.flatMapLatest { _ in input.uidText.take(1).map { [$0] } }
      let changes = Observable.merge([
        input.token.map { steps.token($0) }.distinctUntilChanged()
          .flatMapLatest { result in steps.register(result, triggers: triggers) },
        Observable.merge(
          Observable.merge(tapped, input.addBatches).map { Addition($0) }, input.additions
        )
        .flatMap { steps.add($0, triggers: triggers) },
        input.removals.flatMap { steps.remove($0, triggers: triggers) },
        input.unmappings.flatMap { steps.unmap($0, triggers: triggers) },
        input.syncRequests.flatMap { _ in steps.trigger(Demand(forcesList: true), on: triggers) },
        input.storeChanges.flatMap { steps.storeChanged($0, triggers: triggers) },
        input.periodicChecks.flatMap { _ in
          steps.trigger(Demand(retriesNotActivated: true), on: triggers)
        },
      ])
      .do(onCompleted: { triggers.onCompleted() })
      let reconciliations = triggers.concatMapLatest { steps.reconcile() }
      return Observable.merge([reconciliations, changes])
    }
    let storedList = Observable<[String]>.deferred {
      .just(Array((try? store.load())?.uids ?? []))
    }
    return Output(
      canAdd: canAdd,
      list: Observable.merge(storedList, states.map { Array($0.uids) }).distinctUntilChanged(),
      state: states.asObservable(), outcomes: outcomes)
  }
}
