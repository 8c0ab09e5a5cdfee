import ArgumentParsing
import TPNSKit
import TPNSProtocol

/// `--interval`, `--format` and their `--no-` forms, of `add` and `mapping`.
struct MappingSettingsOptions: ParsableArguments {
  @Option(
    name: .customLong("interval"),
    help: ArgumentHelp(
      "Push the device's events at most every N seconds (the mapping's interval), a whole "
        + "number from \(MappingSettingsSyntax.intervals.lowerBound) to "
        + "\(MappingSettingsSyntax.intervals.upperBound).", valueName: "seconds"),
    validate: { MappingSettingsSyntax.intervals.contains($0) },
    expectation: "a whole number from \(MappingSettingsSyntax.intervals.lowerBound) to "
      + "\(MappingSettingsSyntax.intervals.upperBound)")
  var givenInterval: Int?
  @Option(
    name: .customLong("format"), parsing: .unconditional,
    help: ArgumentHelp(
      "The push message template (the mapping's format): 1 to "
        + "\(MappingSettingsSyntax.formatLengths.upperBound) characters, no control "
        + "characters; taken as is even if it starts with '-'.", valueName: "template"))
  var givenFormat: String?
  @Flag(name: .customLong("no-interval"), help: "Clear the interval (the service's default).")
  var clearsInterval = false
  @Flag(name: .customLong("no-format"), help: "Clear the format (the service's default).")
  var clearsFormat = false

  /// A setting with its `--no-` form is a usage error.
  func validate() throws {
    if givenInterval != nil, clearsInterval {
      throw ValidationError("--interval and --no-interval cannot be used together")
    }
    if givenFormat != nil, clearsFormat {
      throw ValidationError("--format and --no-format cannot be used together")
    }
  }

  var interval: MappingSettingsUpdate.Field<Int> {
    givenInterval.map { .set($0) } ?? (clearsInterval ? .clear : .keep)
  }

  var format: MappingSettingsUpdate.Field<String> {
    givenFormat.map { .set($0) } ?? (clearsFormat ? .clear : .keep)
  }

  /// The change, checked: a bad format is bad data (65), before anything is
  /// stored or sent (a bad interval is the parser's usage error).
  func update(runner: Runner) throws -> MappingSettingsUpdate {
    do {
      return try MappingSettingsUpdate(interval: interval, format: format)
    } catch {
      let message =
        switch error {
        case .format(let violation): "invalid format: it \(violation)"
        case .interval: "invalid interval: \(error)"
        }
      throw runner.fail(
        message,
        hint:
          "Give a format of 1 to \(MappingSettingsSyntax.formatLengths.upperBound) characters "
          + "without control characters (newlines, tabs, escapes).",
        code: ExitStatus.dataError)
    }
  }
}
