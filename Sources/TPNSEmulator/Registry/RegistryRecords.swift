import TPNSProtocol

/// A row of the registry, with its keys in a ``Snapshot``. Its `extra` is what the
/// client sent beyond the command's parameters, as a compact JSON object (nil for none).
protocol RegistryRecord: Codable, Equatable, Sendable {
  associatedtype CodingKeys: CodingKey, CaseIterable
}

/// A phone registered by `cmd=client`, keyed by (appid, udid).
struct ClientRecord: RegistryRecord {
  var os: String
  var appid: String
  var udid: String
  /// Nil once another udid has claimed the token.
  var token: String?
  var lang: String?
  var dev: Int64?
  var bgfetch: Int64?
  /// The last `cmd=client`'s.
  var extra: String?
  /// Milliseconds since 1970.
  var registeredAt: Int64
  var lastSeen: Int64

  /// The token as compared for uniqueness: iOS tokens (hex) in lower case.
  var tokenKey: String? { os == OperatingSystem.ios.rawValue ? token?.lowercased() : token }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case os, appid, udid, token, lang, dev, bgfetch, extra
    case registeredAt = "registered_at"
    case lastSeen = "last_seen"
  }
}

/// A device UID mapped to a phone, in the phone's list order.
struct MappingRecord: RegistryRecord {
  var appid: String
  var udid: String
  var uid: String
  var interval: Int64?
  var format: String?
  /// A `map` entry's other keys, or `mapping`'s unknown parameters.
  var extra: String?
  var createdAt: Int64

  enum CodingKeys: String, CodingKey, CaseIterable {
    case appid, udid, uid, interval, format, extra
    case createdAt = "created_at"
  }
}

/// What a `mapsync` entry or a `mapping` sets for one UID; nil fields leave a
/// mapping's current value alone.
struct MappingChange: Equatable, Sendable {
  var uid: String
  var interval: Int64?
  var format: String?
  var extra: String?
}

/// A device that announced itself with `cmd=device`.
struct DeviceRecord: RegistryRecord {
  var uid: String
  var firstSeen: Int64
  var lastSeen: Int64
  var announcements: Int64
  /// The last `cmd=device`'s.
  var extra: String?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case uid, announcements, extra
    case firstSeen = "first_seen"
    case lastSeen = "last_seen"
  }
}

/// What would have been pushed to one phone for one `cmd=event`.
struct NotificationRecord: RegistryRecord {
  var id: Int64
  var appid: String
  var udid: String
  var os: String
  var token: String
  var uid: String
  var eventType: Int64
  var msg: String?
  var eventTime: Int64?
  var extra: String?
  var createdAt: Int64

  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, appid, udid, os, token, uid, msg, extra
    case eventType = "event_type"
    case eventTime = "event_time"
    case createdAt = "created_at"
  }
}
