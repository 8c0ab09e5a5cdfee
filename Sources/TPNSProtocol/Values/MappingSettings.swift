/// The settings of one mapping, sent in its `mapsync` entry and with `cmd=mapping`:
/// `interval` and `format`. A setting not set is the service's default, and not sent.
///
///     let settings = try MappingSettings(interval: 30, format: "motion")
///     settings.entry(for: uid)  // MapEntry(uid: "…", interval: 30, format: "motion")
public struct MappingSettings: Hashable, Sendable {
  /// Seconds between two pushes of the device's events (`interval`), if set.
  public private(set) var interval: Int?
  /// The push message template (`format`), if set.
  public private(set) var format: String?

  /// No settings: the service's defaults.
  public init() {}

  /// Settings, each checked against ``MappingSettingsSyntax``.
  public init(interval: Int? = nil, format: String? = nil) throws(MappingSettingsError) {
    if let interval, !MappingSettingsSyntax.intervals.contains(interval) {
      throw .interval(interval)
    }
    if let format, let violation = MappingSettingsSyntax.formatViolation(in: format) {
      throw .format(violation)
    }
    self.interval = interval
    self.format = format
  }

  /// Whether nothing is set.
  public var isEmpty: Bool { interval == nil && format == nil }

  /// The `mapsync` entry of `uid` with these settings.
  public func entry(for uid: DeviceUID) -> MapEntry {
    MapEntry(uid: uid.rawValue, interval: interval, format: format)
  }

  /// These settings with `update` applied.
  public func updated(by update: MappingSettingsUpdate) -> MappingSettings {
    var settings = self
    settings.interval = update.interval.applied(to: interval)
    settings.format = update.format.applied(to: format)
    return settings
  }

  /// Whether sending these settings can turn `held` into them: every setting `held`
  /// has, these have too (leaving one out keeps it).
  public func covers(_ held: MappingSettings) -> Bool {
    (held.interval == nil || interval != nil) && (held.format == nil || format != nil)
  }

  /// These settings after a `mapping` or `mapsync` entry of `sent`: the fields it
  /// carries replace, those it leaves out are kept.
  public func merged(sending sent: MappingSettings) -> MappingSettings {
    var settings = self
    if let interval = sent.interval { settings.interval = interval }
    if let format = sent.format { settings.format = format }
    return settings
  }
}

/// A change of a mapping's settings (`tpns add --interval 30 --no-format`):
/// per field, keep it, set it, or clear it. Its values are checked when made.
public struct MappingSettingsUpdate: Sendable, Equatable {
  /// What happens to one setting.
  public enum Field<Value: Sendable & Equatable>: Sendable, Equatable {
    /// Left as it is.
    case keep
    /// Set to this value.
    case set(Value)
    /// Cleared: the service's default.
    case clear

    /// What a setting that is `value` becomes.
    func applied(to value: Value?) -> Value? {
      switch self {
      case .keep: value
      case .set(let new): new
      case .clear: nil
      }
    }
  }

  /// What happens to `interval`.
  public private(set) var interval: Field<Int> = .keep
  /// What happens to `format`.
  public private(set) var format: Field<String> = .keep

  /// No change.
  public init() {}

  /// A change; a value set is checked as ``MappingSettings`` checks it.
  public init(interval: Field<Int> = .keep, format: Field<String> = .keep)
    throws(MappingSettingsError)
  {
    if case .set(let value) = interval { _ = try MappingSettings(interval: value) }
    if case .set(let value) = format { _ = try MappingSettings(format: value) }
    self.interval = interval
    self.format = format
  }

  /// Whether it changes nothing.
  public var isEmpty: Bool { interval == .keep && format == .keep }

  /// The change that makes a mapping's settings `settings`: each one set
  /// there set, each other one kept, or with `clearing`, cleared.
  public init(toMatch settings: MappingSettings, clearing: Bool) {
    interval = settings.interval.map { .set($0) } ?? (clearing ? .clear : .keep)
    format = settings.format.map { .set($0) } ?? (clearing ? .clear : .keep)
  }
}

/// Why a mapping setting is not valid.
public enum MappingSettingsError: Error, Equatable, CustomStringConvertible {
  /// The interval is not a positive number of seconds a server can hold.
  case interval(Int)
  /// The format breaks its syntax.
  case format(SyntaxViolation)

  public var description: String {
    switch self {
    case .interval(let value):
      "the interval \(value) is not a whole number of seconds from "
        + "\(MappingSettingsSyntax.intervals.lowerBound) to "
        + "\(MappingSettingsSyntax.intervals.upperBound)"
    case .format(let violation) where violation.isLength:
      "the format \(violation)"
    case .format(let violation):
      "the format \(violation) (1 to \(MappingSettingsSyntax.formatLengths.upperBound) "
        + "characters, no control characters)"
    }
  }
}
