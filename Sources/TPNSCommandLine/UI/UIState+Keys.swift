import TPNSKit
import TPNSProtocol
import Terminal

extension UIState {
  /// What the UID field says under it: its check against the list as it is.
  var uidHint: UIDHint { UIDHint(uidField.text, list: list) }

  /// Whether Add is enabled: the pipeline's `canAdd`, and the UID not in
  /// the list already.
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
    case .control("c"):
      exit = .interrupted
      return []
    case .control("r"):
      revealsToken.toggle()
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
    case .enter: return enterToken(context: context)
    case .down: focus = .uid
    default:
      let before = tokenField.text
      _ = tokenField.apply(key)
      // Edited: the field's own check replaces the reason of the token before.
      if tokenField.text != before { tokenReason = nil }
    }
    return []
  }

  /// Enter in the token field: a valid token is registered and stays in the
  /// field until the server acknowledges it; anything else is refused here
  /// with the field's reason.
  private mutating func enterToken(context: UIContext) -> [UIAction] {
    let hint = TokenHint(tokenField.text)
    guard let token = hint.token else {
      status = Status(text: hint.text, style: .failure)
      statusIsAboutStore = false
      return []
    }
    let shown = context.showToken(token.rawValue)
    statusIsAboutStore = false
    if registering == nil, token.rawValue == submitted, let reason = tokenReason {
      // The pipeline takes a token once until another is entered; the
      // same one again would send nothing.
      guard !tokenRefused else {
        status = Status(text: "\(reason): type another token", style: .failure)
        return []
      }
      // Stored, its request failed: a sync registers it first.
      status = Status(text: "registering \(shown)", style: .pending)
      registering = shown
      tokenReason = nil
      focus = .uid
      return [.sync]
    }
    if let older = registering, older != shown {
      // The pipeline's flatMapLatest cancels the older registration.
      status = Status(
        text: "registering \(shown) (cancelled registering \(older))", style: .pending)
    } else {
      status = Status(text: "registering \(shown)", style: .pending)
    }
    registering = shown
    submitted = token.rawValue
    tokenReason = nil
    focus = .uid
    return [.token(tokenField.text.trimmingWhitespace())]
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
      _ = uidField.apply(key)
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
