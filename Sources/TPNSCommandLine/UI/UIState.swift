import TPNSKit
import TPNSProtocol
import Terminal

/// What the screen of `tpns ui` shows, as a value: the Model of its View.
/// It changes only by ``reduce(_:context:)``, a pure function of the state,
/// a key or one of the pipeline's outputs; what the pipeline should be told
/// comes back as ``UIAction``s.
struct UIState: Sendable, Equatable {
  /// Where keys go.
  enum Focus: Sendable, Equatable, CaseIterable {
    case token, uid, list
  }

  /// How the program ends.
  enum Exit: Sendable, Equatable {
    /// `q`: exit status 0.
    case quit
    /// Ctrl-C: exit status 130, as after SIGINT.
    case interrupted
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
  /// The pipeline's `canAdd`: the Add button is enabled.
  var canAdd = false
  /// The pipeline's `list`.
  var list: [String] = []
  /// UIDs in the list this server has not acknowledged.
  var pending: Set<String> = []
  /// UIDs in the list this server refused as not activated: neither
  /// pending nor held (`status`'s "refused").
  var notActivated: Set<String> = []
  /// UIDs this server still holds that the list no longer has.
  var pendingRemovals: [String] = []
  /// The selected row of the list.
  var selection = 0
  var status: Status?
  /// Whether `status` tells of the store being unreadable, deleted or
  /// absent: the next good read of the store clears it.
  var statusIsAboutStore = false
  /// Whether the token field shows what is typed (Ctrl-R; `--show-token`)
  /// rather than a bullet for each character.
  var revealsToken = false
  /// The token last handed to the pipeline's `token` input, normalised.
  var submitted: String?
  /// Why the token in the field is not registered (the server refused it,
  /// or its request failed), shown under the field until it is edited.
  var tokenReason: String?
  /// Whether `tokenReason` is a refusal: entering the same token again is
  /// refused again, so Enter says so instead of sending it.
  var tokenRefused = false
  /// Set when the program should end.
  var exit: Exit?

  /// The state at start: the token field has the focus until a token is stored.
  init(tokenStored: Bool = false) {
    focus = tokenStored ? .uid : .token
  }

  /// The state at start for the store as read: its token, list and what is
  /// pending; the token field revealed with `revealsToken` (`--show-token`).
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
  /// The `token` input: register this token.
  case token(String)
  /// The `uidText` input: the UID field's text now.
  case uidText(String)
  /// The `addTaps` input: the Add button pressed.
  case addTap
  /// The `removals` input: remove this UID.
  case remove(String)
  /// The `syncRequests` input: send the list again.
  case sync
}

/// What the reducer needs to know beyond the state: the server in use (as
/// the store records it), how tokens and outcomes read.
struct UIContext: Sendable {
  /// The server's key in the store (``GlobalOptions/serverKey``).
  var server: String
  /// A token as shown: masked unless `--show-token`.
  var showToken: @Sendable (String) -> String
  /// An outcome as the status line says it.
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

  /// The status line says `outcome`; the end of a registration updates the
  /// token field: registered, it is emptied; refused or failed, the token
  /// stays in it with the reason.
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
