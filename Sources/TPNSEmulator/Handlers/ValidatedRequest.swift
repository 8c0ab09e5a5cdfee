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
  /// The value kept of each of the command's parameters. A command takes at most a
  /// dozen: scanned, not hashed.
  private let values: [FormParameters.Pair]
  /// The parameters the command does not take, in the order sent.
  let others: [FormParameters.Pair]

  init(_ form: FormParameters, conformance: inout Conformance) throws(RequestError) {
    if let duplicate = form.firstDuplicateName {
      throw .badRequest("parameter '\(Printable(duplicate))' is given more than once")
    }
    guard let name = form[CommandParameter.cmd.name] else {
      throw .badRequest("missing parameter 'cmd'")
    }
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
    var sent: [FormParameters.Pair] = []
    sent.reserveCapacity(form.pairs.count)
    var others: [FormParameters.Pair] = []
    for pair in form.pairs where pair.name != CommandParameter.cmd.name {
      if parameters.contains(where: { $0.name == pair.name }) {
        sent.append(pair)
      } else {
        others.append(pair)
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
    for parameter in parameters {
      guard let index = sent.firstIndex(where: { $0.name == parameter.name }) else {
        if parameter.isRequired {
          throw .badRequest("missing parameter '\(parameter.name)' for cmd=\(name)")
        }
        continue
      }
      let value = sent[index].value
      guard !value.isEmpty else {
        if parameter.isRequired { throw .badRequest("parameter '\(parameter.name)' is empty") }
        try conformance.tolerate("parameter '\(parameter.name)' is empty", "taken as not sent")
        sent.remove(at: index)
        continue
      }
      switch ParameterRules.judge(parameter, value: value) {
      case .canonical:
        break
      case .tolerated(let reason):
        try conformance.tolerate("parameter '\(parameter.name)' \(reason)")
      case .ignored(let reason) where !parameter.isRequired:
        try conformance.tolerate("parameter '\(parameter.name)' \(reason)", "ignored")
        sent.remove(at: index)
      case .ignored(let reason), .refused(let reason):
        throw .badRequest("parameter '\(parameter.name)' \(reason)")
      }
    }
    self.command = command
    self.values = sent
    self.others = others
  }

  /// The value of `parameter`; nil only for an optional one not sent (or not kept).
  subscript(parameter: CommandParameter) -> String? {
    values.first { $0.name == parameter.name }?.value
  }

  /// The value of a required parameter (checked present by `init`).
  func required(_ parameter: CommandParameter) -> String { self[parameter] ?? "" }

  /// The integer value of `parameter`, if kept (its syntax was checked by `init`).
  func integer(_ parameter: CommandParameter) -> Int64? {
    self[parameter].flatMap(ParameterRules.integer)
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
