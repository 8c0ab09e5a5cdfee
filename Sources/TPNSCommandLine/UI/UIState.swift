import TPNSKit
import TPNSProtocol
import Terminal

/// What the screen of `tpns ui` shows: the Model of its View. It changes
/// only by ``reduce(_:context:)``, a pure function of the state and a key or
/// a pipeline output, which returns what the pipeline should be told.
struct UIState: Sendable, Equatable {
  enum Focus: Sendable, Equatable, CaseIterable {
    case token, uid, list
  }

  /// How the program ends: `q` (status 0) or Ctrl-C (130, as after SIGINT).
  enum Exit: Sendable, Equatable {
    case quit, interrupted
  }

  /// The line at the bottom: the newest outcome, or a hint.
  struct Status: Sendable, Equatable {
    var text: String
    var style: Palette.Style?
  }

  var focus: Focus
  var tokenField = TextField()
  var uidField = TextField()
  /// The stored token, masked (nil: none stored).
  var token: String?
  /// Whether this server acknowledged the stored registration.
  var isRegistered = false
  /// The token (masked) sent to be registered and not answered yet.
  var registering: String?
  /// The pipeline's `canAdd` and `list`.
  var canAdd = false
  var list: [String] = []
  /// UIDs in the list this server has not acknowledged.
  var pending: Set<String> = []
  /// UIDs in the list this server refused as not activated (`status`'s "refused").
  var notActivated: Set<String> = []
  /// UIDs this server still holds that the list no longer has.
  var pendingRemovals: [String] = []
  var selection = 0
  var status: Status?
  /// Whether `status` says the store is unreadable, deleted or absent: the
  /// next good read of the store clears it.
  var statusIsAboutStore = false
  /// Whether the token field shows what is typed (Ctrl-R; `--show-token`), not bullets.
  var revealsToken = false
  /// The token last handed to the pipeline's `token` input, normalised.
  var submitted: String?
  /// Why the token in the field is not registered, shown under it until it is edited.
  var tokenReason: String?
  /// Whether `tokenReason` is a refusal: Enter with the same token says so
  /// instead of sending it again.
  var tokenRefused = false
  var exit: Exit?

  /// The token field has the focus until a token is stored.
  init(tokenStored: Bool = false) {
    focus = tokenStored ? .uid : .token
  }

  /// The state at start for the store as read; `revealsToken`: `--show-token`.
  static func initial(
    _ stored: StoreContents, context: UIContext, revealsToken: Bool = false
  ) -> UIState {
    var state = UIState(tokenStored: stored.registration != nil)
    state.revealsToken = revealsToken
    _ = state.reduce(.store(stored), context: context)
    _ = state.reduce(.list(Array(stored.uids)), context: context)
    return state
  }
}

/// What the screen's logic reacts to: a key, or an output of the pipeline.
enum UIEvent: Sendable, Equatable {
  case key(Key)
  case canAdd(Bool)
  case list([String])
  case store(StoreContents)
  case outcome(Outcome)
}

/// What the screen tells the pipeline: one of its inputs.
enum UIAction: Sendable, Equatable {
  case token(String)
  case uidText(String)
  case addTap
  case remove(String)
  case sync
}

/// What the reducer needs beyond the state: the server's key in the store,
/// a token as shown, an outcome as the status line says it.
struct UIContext: Sendable {
  var server: String
  var showToken: @Sendable (String) -> String
  var describe: @Sendable (Outcome) -> UIState.Status
}

extension UIState {
  /// Applies `event`; returns what the pipeline should be told, in order.
  mutating func reduce(_ event: UIEvent, context: UIContext) -> [UIAction] {
    switch event {
    case .key(let key): return press(key, context: context)
    case .canAdd(let value): canAdd = value
    case .list(let uids):
      list = uids
      selection = min(selection, max(uids.count - 1, 0))
    case .store(let state):
      read(state, context: context)
      // The store reads again: a line saying it could not be read is stale.
      if statusIsAboutStore {
        status = nil
        statusIsAboutStore = false
      }
    case .outcome(let outcome): conclude(outcome, context: context)
    }
    return []
  }

  /// The status line says `outcome`; a registration's end empties the token
  /// field, or, refused or failed, leaves the token in it with the reason.
  private mutating func conclude(_ outcome: Outcome, context: UIContext) {
    let described = context.describe(outcome)
    status = described
    switch outcome {
    case .failed(.store), .storeDeleted, .storeAbsent: statusIsAboutStore = true
    default: statusIsAboutStore = false
    }
    switch outcome {
    case .registered(let token, _):
      registering = nil
      if TokenHint(tokenField.text).token == token { tokenField.clear() }
      tokenReason = nil
    case .failed(.invalidToken), .failed(.registrationRejected), .failed(.missingUDID):
      registering = nil
      tokenReason = described.text
      tokenRefused = true
    case .failed(.request(.client, _)):
      registering = nil
      tokenReason = described.text
      tokenRefused = false
    default: break
    }
  }

  private mutating func read(_ state: StoreContents, context: UIContext) {
    token = state.registration.map { context.showToken($0.token.rawValue) }
    let difference = state.difference(at: context.server)
    isRegistered = difference.isRegistered
    pending = Set(difference.toAdd + difference.toUpdate)
    pendingRemovals = difference.toRemove
    notActivated = Set(difference.notActivated)
    if registering != nil, isRegistered, registering == token { registering = nil }
  }
}
