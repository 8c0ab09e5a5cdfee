import TPNSProtocol

/// A `/tpns` request whose parameters have all been judged (``ParameterRules``): a
/// known `cmd`, no duplicate, every required parameter present and usable.
///
/// What a canonical client would not send is accepted with a warning, or refused in
/// strict mode (``Conformance``): a parameter the command does not take (kept in
/// ``others``), an empty optional one or an unusable optional value (taken as not
/// sent), a usable value of the wrong syntax (kept).
///
/// ```swift
/// var conformance = Conformance(isStrict: false)
/// let request = try ValidatedRequest(form, conformance: &conformance)  // throws a 400
/// request[.appid]                          // "com.tutk.cc.samples.tpns.ios"
/// ```
struct ValidatedRequest: Sendable {
  let command: CommandName
  /// The keys of the command's parameters (``CommandName/parameterKeys``), and the
  /// value kept of each at the same index: a handful, so an array beats hashing names.
  private let keys: [ParameterKey]
  private let values: [String?]
  /// The parameters the command does not take, in the order sent.
  let others: [FormParameters.Pair]

  init(_ form: FormParameters, conformance: inout Conformance) throws(RequestError) {
    let pairs = form.pairs
    // Each name's key, found once: duplicates, `cmd` and the command's parameters are
    // then told apart as integers, not compared as strings. Many pairs are checked
    // through a set instead, first (the first duplicate in order is the one named).
    if pairs.count > 16, let duplicate = form.firstDuplicateName {
      throw Self.duplicate(duplicate)
    }
    var pairKeys: [ParameterKey?] = []
    pairKeys.reserveCapacity(pairs.count)
    var seenKeys: UInt32 = 0
    var cmdIndex: Int?
    for index in pairs.indices {
      let key = ParameterKey(name: pairs[index].name)
      if let key {
        guard seenKeys & (1 << key.rawValue) == 0 else {
          throw Self.duplicate(pairs[index].name)
        }
        seenKeys |= 1 << key.rawValue
        if key == .cmd { cmdIndex = index }
      } else if pairs.count <= 16 {
        // Another name can only be the same as another name.
        for earlier in 0..<index where pairKeys[earlier] == nil {
          if pairs[earlier].name == pairs[index].name { throw Self.duplicate(pairs[index].name) }
        }
      }
      pairKeys.append(key)
    }
    guard let cmdIndex else {
      throw .badRequest("missing parameter 'cmd'")
    }
    let name = pairs[cmdIndex].value
    guard let command = CommandName(wireName: name) else {
      let known = CommandName.allCases.map(\.rawValue).joined(separator: ", ")
      let older = CommandName.allCases.compactMap(\.legacyName).joined(separator: ", ")
      throw .badRequest("unknown cmd '\(Printable(name))' (known: \(known); older: \(older))")
    }
    if name != command.rawValue {
      try conformance.tolerate(
        "cmd '\(name)' is the older name of '\(command.rawValue)'",
        "answered as cmd=\(command.rawValue)")
    }
    let parameters = command.parameters
    let keys = command.parameterKeys
    // One pass sorts the pairs: each of the command's parameters (no name is given
    // twice, checked above), or another.
    var sent = [String?](repeating: nil, count: parameters.count)
    var others: [FormParameters.Pair] = []
    for index in pairs.indices where index != cmdIndex {
      if let key = pairKeys[index], let parameter = keys.firstIndex(of: key) {
        sent[parameter] = pairs[index].value
      } else {
        others.append(pairs[index])
      }
    }
    if !others.isEmpty {
      let names = others.map { "'\(Printable($0.name))'" }.joined(separator: ", ")
      let known = parameters.map(\.name).joined(separator: ", ")
      try conformance.tolerate(
        "unknown parameter\(others.count == 1 ? "" : "s") \(names) for cmd=\(name) "
          + "(known: \(known))", "recorded")
    }
    // What is not kept (an empty or unusable optional value) is taken as not sent.
    for (index, parameter) in parameters.enumerated() {
      guard let value = sent[index] else {
        if parameter.isRequired {
          throw .badRequest("missing parameter '\(parameter.name)' for cmd=\(name)")
        }
        continue
      }
      guard !value.isEmpty else {
        if parameter.isRequired { throw .badRequest("parameter '\(parameter.name)' is empty") }
        try conformance.tolerate("parameter '\(parameter.name)' is empty", "taken as not sent")
        sent[index] = nil
        continue
      }
      switch ParameterRules.judge(keys[index], value: value) {
      case .canonical:
        break
      case .tolerated(let reason):
        try conformance.tolerate("parameter '\(parameter.name)' \(reason)")
      case .ignored(let reason) where !parameter.isRequired:
        try conformance.tolerate("parameter '\(parameter.name)' \(reason)", "ignored")
        sent[index] = nil
      case .ignored(let reason), .refused(let reason):
        throw .badRequest("parameter '\(parameter.name)' \(reason)")
      }
    }
    self.command = command
    self.keys = keys
    self.values = sent
    self.others = others
  }

  private static func duplicate(_ name: String) -> RequestError {
    .badRequest("parameter '\(Printable(name))' is given more than once")
  }

  /// The value of the parameter `key`; nil only for an optional one not sent (or not
  /// kept). By key, not by name: no name is looked up again.
  subscript(key: ParameterKey) -> String? {
    keys.firstIndex(of: key).flatMap { values[$0] }
  }

  /// The value of a required parameter (checked present by `init`).
  func required(_ key: ParameterKey) -> String { self[key] ?? "" }

  /// The integer value of the parameter `key`, if kept (its syntax was checked by
  /// `init`).
  func integer(_ key: ParameterKey) -> Int64? {
    self[key].flatMap(ParameterRules.integer)
  }

  /// The parameters the command does not take, as the compact JSON object stored in
  /// a registry row's `extra` (`{"appver":"2.1","model":"Pixel 7"}`); nil when none.
  var extra: String? {
    others.isEmpty
      ? nil
      : JSONValue.object(
        Dictionary(others.map { ($0.name, JSONValue.string($0.value)) }) { first, _ in first }
      ).compactText
  }
}
