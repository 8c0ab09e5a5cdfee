import ArgumentParsing
import TPNSKit
import TPNSProtocol

/// `--interval`, `--format` and their `--no-` forms, which `add` and
/// `mapping` share: the change of the UIDs' settings.
struct MappingSettingsOptions: Equatable {
  /// The options, for a command's configuration.
  static let options: [Option] = [
    .option(
      "interval", valueName: "seconds",
      help:
        "Push the device's events at most every N seconds (the mapping's interval), a whole "
        + "number from \(MappingSettingsSyntax.intervals.lowerBound) to "
        + "\(MappingSettingsSyntax.intervals.upperBound).",
      validate: { Int($0).map(MappingSettingsSyntax.intervals.contains) ?? false }),
    .option(
      "format", valueName: "template",
      help:
        "The push message template (the mapping's format): 1 to "
        + "\(MappingSettingsSyntax.formatLengths.upperBound) characters, no control "
        + "characters; taken as is even if it starts with '-'.",
      parsing: .unconditional),
    .flag("no-interval", help: "Clear the interval (the service's default)."),
    .flag("no-format", help: "Clear the format (the service's default)."),
  ]

  var interval: MappingSettingsUpdate.Field<Int> = .keep
  var format: MappingSettingsUpdate.Field<String> = .keep

  /// The settings options given; one with its `--no-` form is a usage error.
  init(_ values: ParsedValues) throws {
    for name in ["interval", "format"] where values.value(name) != nil && values.flag("no-\(name)")
    {
      throw ValidationError("--\(name) and --no-\(name) cannot be used together")
    }
    if let interval = values.value("interval", as: Int.self) {
      self.interval = .set(interval)
    } else if values.flag("no-interval") {
      interval = .clear
    }
    if let format = values.value("format") {
      self.format = .set(format)
    } else if values.flag("no-format") {
      format = .clear
    }
  }

  /// The change, checked: a bad format is bad data (65), found before
  /// anything is stored or sent. (A bad interval is a usage error, found
  /// by the parser.)
  func update(runner: Runner) throws -> MappingSettingsUpdate {
    do {
      return try MappingSettingsUpdate(interval: interval, format: format)
    } catch {
      let message: String
      switch error {
      case .format(let violation): message = "invalid format: it \(violation)"
      case .interval: message = "invalid interval: \(error)"
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
