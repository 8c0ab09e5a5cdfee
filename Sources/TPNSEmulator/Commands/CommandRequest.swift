import TPNSProtocol

/// A `/tpns` request whose parameters have all been checked: a known `cmd`, no
/// unknown, duplicate, empty or missing parameter, and every value well-formed.
///
/// ```swift
/// let request = try CommandRequest(form)   // throws a 400 with the reason
/// request[.appid]                          // "com.tutk.cc.samples.tpns.ios"
/// ```
struct CommandRequest: Sendable {
  let command: CommandName
  private let form: FormParameters

  init(_ form: FormParameters) throws(RequestError) {
    if let duplicate = form.firstDuplicateName {
      throw .badRequest("parameter '\(Printable(duplicate))' is given more than once")
    }
    guard let name = form[CommandParameter.cmd.name] else {
      throw .badRequest("missing parameter 'cmd'")
    }
    guard let command = CommandName(rawValue: name) else {
      let known = CommandName.allCases.map(\.rawValue).joined(separator: ", ")
      throw .badRequest("unknown cmd '\(Printable(name))' (known: \(known))")
    }
    let parameters = command.parameters
    for pair in form.pairs where pair.name != CommandParameter.cmd.name {
      guard parameters.contains(where: { $0.name == pair.name }) else {
        let known = parameters.map(\.name).joined(separator: ", ")
        throw .badRequest(
          "unknown parameter '\(Printable(pair.name))' for cmd=\(name) (known: \(known))")
      }
    }
    for parameter in parameters {
      guard let value = form[parameter.name] else {
        if parameter.isRequired {
          throw .badRequest("missing parameter '\(parameter.name)' for cmd=\(name)")
        }
        continue
      }
      guard !value.isEmpty else {
        throw .badRequest("parameter '\(parameter.name)' is empty")
      }
      if let violation = ParameterRules.violation(of: parameter, value: value) {
        throw .badRequest("parameter '\(parameter.name)' \(violation)")
      }
    }
    self.command = command
    self.form = form
  }

  /// The value of `parameter`; nil only for an optional one that was not sent.
  subscript(parameter: CommandParameter) -> String? { form[parameter.name] }

  /// The value of a required parameter (checked present by `init`).
  func required(_ parameter: CommandParameter) -> String { form[parameter.name] ?? "" }

  /// The integer value of `parameter`, if sent (its syntax was checked by `init`).
  func integer(_ parameter: CommandParameter) -> Int64? {
    form[parameter.name].map(ParameterRules.integer)
  }
}
