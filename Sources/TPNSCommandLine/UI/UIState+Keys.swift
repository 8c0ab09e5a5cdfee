import TPNSKit
import TPNSProtocol
import Terminal

extension UIState {
  /// What the UID field says under it: its check against the list as it is.
  var uidHint: UIDHint { UIDHint(uidField.text, list: list) }

  /// Whether Add is enabled: the pipeline's `canAdd`, and the UID not listed.
  var addEnabled: Bool { canAdd && uidHint.isValid }

  /// The text the token field shows: a bullet for each character unless revealed.
  var shownTokenField: TextField {
    revealsToken
      ? tokenField
      : TextField(
        text: String(repeating: "•", count: tokenField.text.count), cursor: tokenField.cursor)
  }

  mutating func press(_ key: Key, context: UIContext) -> [UIAction] {
    switch key {
    case .control("c"): exit = .interrupted
    case .control("r"): revealsToken.toggle()
    case .tab, .backTab:
      let all = Focus.allCases
      focus = all[(all.firstIndex(of: focus)! + (key == .tab ? 1 : all.count - 1)) % all.count]
    case .escape: focus = .list
    default:
      switch focus {
      case .token: return pressInToken(key, context: context)
      case .uid: return pressInUID(key)
      case .list: return pressInList(key)
      }
    }
    return []
  }

  private mutating func pressInToken(_ key: Key, context: UIContext) -> [UIAction] {
    switch key {
    case .enter: return enterToken(context: context)
    case .down: focus = .uid
    default:
      let before = tokenField.text
      tokenField.apply(key)
      // Edited: the field's own check replaces the reason of the token before.
      if tokenField.text != before { tokenReason = nil }
    }
    return []
  }

  /// Enter in the token field: a valid token is registered, and stays in the
  /// field until acknowledged; anything else is refused with the field's reason.
  private mutating func enterToken(context: UIContext) -> [UIAction] {
    let hint = TokenHint(tokenField.text)
    guard let token = hint.token else {
      status = Status(text: hint.text, style: .failure)
      statusIsAboutStore = false
      return []
    }
    let shown = context.showToken(token.rawValue)
    statusIsAboutStore = false
    // The pipeline takes a token once until another is entered: the same one
    // again would send nothing. Refused, it is refused again; stored but its
    // request failed, a sync registers it.
    let again = registering == nil && token.rawValue == submitted && tokenReason != nil
    if again, tokenRefused, let reason = tokenReason {
      status = Status(text: "\(reason): type another token", style: .failure)
      return []
    }
    // The pipeline's flatMapLatest cancels the older registration.
    let cancelled = registering.map { $0 != shown ? " (cancelled registering \($0))" : "" } ?? ""
    status = Status(text: "registering \(shown)\(cancelled)", style: .pending)
    registering = shown
    submitted = token.rawValue
    tokenReason = nil
    focus = .uid
    return again ? [.sync] : [.token(tokenField.text.trimmingWhitespace())]
  }

  private mutating func pressInUID(_ key: Key) -> [UIAction] {
    switch key {
    case .enter:
      guard addEnabled else {
        let hint = uidHint
        status = Status(
          text: hint.isValid ? "register a token first: Up to the token field" : hint.text,
          style: .failure)
        statusIsAboutStore = false
        return []
      }
      uidField.clear()
      return [.addTap, .uidText("")]
    case .up: focus = .token
    case .down: focus = .list
    default:
      let before = uidField.text
      uidField.apply(key)
      if uidField.text != before { return [.uidText(uidField.text)] }
    }
    return []
  }

  private mutating func pressInList(_ key: Key) -> [UIAction] {
    let page = 10
    switch key {
    // Row 0 is the top of the list: Up stays there (Tab and Esc move the focus).
    case .up: selection = max(selection - 1, 0)
    case .down: selection = min(selection + 1, max(list.count - 1, 0))
    case .pageUp: selection = max(selection - page, 0)
    case .pageDown: selection = min(selection + page, max(list.count - 1, 0))
    case .home: selection = 0
    case .end: selection = max(list.count - 1, 0)
    case .delete, .backspace:
      guard list.indices.contains(selection) else { return [] }
      return [.remove(list[selection])]
    case .character("s"):
      statusIsAboutStore = false
      guard token != nil || registering != nil else {
        // Nothing can be sent without a token: say where it goes.
        status = Status(
          text: "no token yet: Tab to the token field, type the phone's token and press Enter; "
            + "then s sends the list",
          style: .failure)
        return []
      }
      status = Status(text: "sending the list again", style: .pending)
      return [.sync]
    case .character("q"):
      exit = .quit
    default: break
    }
    return []
  }
}
