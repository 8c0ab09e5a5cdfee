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
  /// UIDs this server still holds that the list no longer has.
  var pendingRemovals: [String] = []
  /// The selected row of the list.
  var selection = 0
  var status: Status?
  /// Set when the program should end.
  var exit: Exit?

  /// The state at start: the token field has the focus until a token is stored.
  init(tokenStored: Bool = false) {
    focus = tokenStored ? .uid : .token
  }

  /// The state at start for the store as read: its token, list and what is pending.
  static func initial(_ stored: StoreState, context: UIContext) -> UIState {
    var state = UIState(tokenStored: stored.registration != nil)
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
  case store(StoreState)
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
    case .store(let state): read(state, context: context)
    case .outcome(let outcome):
      status = context.describe(outcome)
      switch outcome {
      case .registered,
        .failed(.invalidToken), .failed(.registrationRejected), .failed(.missingUDID),
        .failed(.request(.client, _)):
        registering = nil
      default: break
      }
    }
    return []
  }

  private mutating func read(_ state: StoreState, context: UIContext) {
    token = state.registration.map { context.showToken($0.token.rawValue) }
    let difference = state.difference(at: context.server)
    isRegistered = difference.isRegistered
    pending = Set(difference.toAdd + difference.toUpdate)
    pendingRemovals = difference.toRemove
    if registering != nil, isRegistered, registering == token { registering = nil }
  }

  private mutating func press(_ key: Key, context: UIContext) -> [UIAction] {
    switch key {
    case .control("c"):
      exit = .interrupted
      return []
    case .tab: return move(by: 1)
    case .backTab: return move(by: -1)
    case .escape:
      focus = .list
      return []
    default: break
    }
    switch focus {
    case .token: return pressInToken(key, context: context)
    case .uid: return pressInUID(key)
    case .list: return pressInList(key)
    }
  }

  private mutating func move(by offset: Int) -> [UIAction] {
    let all = Focus.allCases
    let index = all.firstIndex(of: focus)!
    focus = all[(index + offset + all.count) % all.count]
    return []
  }

  private mutating func pressInToken(_ key: Key, context: UIContext) -> [UIAction] {
    switch key {
    case .enter:
      let text = tokenField.text.trimmingWhitespace()
      guard !text.isEmpty else {
        status = Status(text: "type a token, then Enter registers it", style: .pending)
        return []
      }
      let shown = context.showToken(text)
      if let older = registering, older != shown {
        // The pipeline's flatMapLatest cancels the older registration.
        status = Status(
          text: "registering \(shown) (cancelled registering \(older))", style: .pending)
      } else {
        status = Status(text: "registering \(shown)", style: .pending)
      }
      registering = shown
      tokenField.clear()
      focus = .uid
      return [.token(text)]
    case .down: focus = .uid
    default: _ = tokenField.apply(key)
    }
    return []
  }

  private mutating func pressInUID(_ key: Key) -> [UIAction] {
    switch key {
    case .enter:
      guard canAdd else {
        let hint = UIDHint(uidField.text)
        status = Status(
          text: hint.isValid ? "register a token first (Tab to the token field)" : hint.text,
          style: .failure)
        return []
      }
      uidField.clear()
      return [.addTap, .uidText("")]
    case .up: focus = .token
    case .down: focus = .list
    default:
      let before = uidField.text
      _ = uidField.apply(key)
      if uidField.text != before { return [.uidText(uidField.text)] }
    }
    return []
  }

  private mutating func pressInList(_ key: Key) -> [UIAction] {
    let page = 10
    switch key {
    case .up:
      if selection == 0 { focus = .uid } else { selection -= 1 }
    case .down: selection = min(selection + 1, max(list.count - 1, 0))
    case .pageUp: selection = max(selection - page, 0)
    case .pageDown: selection = min(selection + page, max(list.count - 1, 0))
    case .home: selection = 0
    case .end: selection = max(list.count - 1, 0)
    case .delete, .backspace:
      guard list.indices.contains(selection) else { return [] }
      return [.remove(list[selection])]
    case .character("s"):
      status = Status(text: "sending the list again", style: .pending)
      return [.sync]
    case .character("q"):
      exit = .quit
    default: break
    }
    return []
  }
}

/// What the UID field says under it as you type: the pipeline's own check
/// (``DeviceUID``), with the CLI's message, and how many characters are
/// missing or too many.
struct UIDHint: Sendable, Equatable {
  let text: String
  let isValid: Bool

  init(_ typed: String) {
    do {
      let uid = try DeviceUID(typed)
      text = "\(uid) is a valid UID"
      isValid = true
    } catch {
      isValid = false
      switch error {
      case .empty:
        text = "type a UID: \(DeviceUIDSyntax.length) letters or digits"
      case .length(_, let actual, let expected) where actual < expected.lowerBound:
        text = "\(error): \(expected.lowerBound - actual) missing"
      case .length(_, let actual, let expected):
        text = "\(error): \(actual - expected.upperBound) too many"
      default:
        text = error.description
      }
    }
  }
}
