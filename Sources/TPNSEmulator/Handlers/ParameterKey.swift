import TPNSProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The protocol's parameter names as small integers: a request's names are
/// recognised once, by their length and bytes, and then compared as integers.
///
/// Compared as `String`s, every unequal pair took Swift's slow comparison path, in
/// the search of each name among its command's and in `ParameterRules`' switch over
/// `CommandParameter`s.
///
///     ParameterKey(name: "appid")  // .appid
enum ParameterKey: UInt8, CaseIterable, Sendable {
  case cmd, os, appid, udid, token, lang, dev, bgfetch, map, uid, interval, format
  case eventType, msg, eventTime

  /// The parameter of this name.
  var parameter: CommandParameter {
    switch self {
    case .cmd: return .cmd
    case .os: return .os
    case .appid: return .appid
    case .udid: return .udid
    case .token: return .token
    case .lang: return .lang
    case .dev: return .dev
    case .bgfetch: return .bgfetch
    case .map: return .map
    case .uid: return .uid
    case .interval: return .interval
    case .format: return .format
    case .eventType: return .eventType
    case .msg: return .msg
    case .eventTime: return .eventTime
    }
  }

  /// The key named `name`; nil when no command takes a parameter of that name.
  init?(name: String) {
    guard let key = name.utf8.withContiguousStorageIfAvailable(Self.key(named:)) else {
      // Not contiguous (never for the strings the emulator makes): by comparison.
      guard let key = Self.allCases.first(where: { $0.parameter.name == name }) else {
        return nil
      }
      self = key
      return
    }
    guard let key else { return nil }
    self = key
  }

  /// The key whose name is `bytes`, by length first.
  private static func key(named bytes: UnsafeBufferPointer<UInt8>) -> ParameterKey? {
    func matches(_ name: StaticString) -> Bool {
      memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0
    }
    switch bytes.count {
    case 2: return matches("os") ? .os : nil
    case 3:
      if matches("cmd") { return .cmd }
      if matches("dev") { return .dev }
      if matches("uid") { return .uid }
      if matches("map") { return .map }
      return matches("msg") ? .msg : nil
    case 4:
      if matches("udid") { return .udid }
      return matches("lang") ? .lang : nil
    case 5:
      if matches("appid") { return .appid }
      return matches("token") ? .token : nil
    case 6: return matches("format") ? .format : nil
    case 7: return matches("bgfetch") ? .bgfetch : nil
    case 8: return matches("interval") ? .interval : nil
    case 10:
      if matches("event_type") { return .eventType }
      return matches("event_time") ? .eventTime : nil
    default: return nil
    }
  }
}

extension CommandName {
  /// The keys of ``parameters``, in the same order.
  var parameterKeys: [ParameterKey] {
    switch self {
    case .client: return Self.clientKeys
    case .mapsync: return Self.mapsyncKeys
    case .mapping: return Self.mappingKeys
    case .rmMapping: return Self.rmMappingKeys
    case .unregMapping: return Self.unregMappingKeys
    case .device: return Self.deviceKeys
    case .event: return Self.eventKeys
    case .hello: return []
    }
  }

  // Built once: looked up on every request.
  private static let clientKeys = keys(of: .client)
  private static let mapsyncKeys = keys(of: .mapsync)
  private static let mappingKeys = keys(of: .mapping)
  private static let rmMappingKeys = keys(of: .rmMapping)
  private static let unregMappingKeys = keys(of: .unregMapping)
  private static let deviceKeys = keys(of: .device)
  private static let eventKeys = keys(of: .event)

  private static func keys(of command: CommandName) -> [ParameterKey] {
    command.parameters.map { parameter in
      guard let key = ParameterKey(name: parameter.name) else {
        preconditionFailure("no ParameterKey for '\(parameter.name)'")
      }
      return key
    }
  }
}
