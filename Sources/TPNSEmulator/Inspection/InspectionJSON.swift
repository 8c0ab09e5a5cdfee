import FoundationEssentials
import TPNSProtocol

/// The JSON shapes of the `/_emulator/` endpoints. Optional fields are written as
/// `null` rather than left out, so that every object has the same keys; times are
/// ISO 8601 UTC strings; `extra` (what a client sent beyond the protocol) is an
/// object, `{}` when there was nothing.

struct HealthJSON: Encodable {
  /// `ok`, or `database missing` when the file was deleted or replaced.
  var status: String
  /// `:memory:` or the database file.
  var database: String
  /// What is wrong and what to do; null when `ok`.
  var error: String?

  init(database: String, fileError: DatabaseFileError?) {
    status = fileError == nil ? "ok" : "database missing"
    self.database = database
    error = fileError?.description
  }

  private enum Keys: String, CodingKey {
    case status, database, error
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(status, forKey: .status)
    try container.encode(database, forKey: .database)
    try container.encode(error, forKey: .error)
  }
}

struct RegistryJSON: Encodable {
  var clients: [ClientJSON]
  var mappings: [MappingJSON]
  var devices: [DeviceJSON]
}

struct ClientJSON: Encodable {
  let record: ClientRecord

  private enum Keys: String, CodingKey {
    case os, appid, udid, token, lang, dev, bgfetch, extra
    case registeredAt = "registered_at"
    case lastSeen = "last_seen"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(record.os, forKey: .os)
    try container.encode(record.appid, forKey: .appid)
    try container.encode(record.udid, forKey: .udid)
    try container.encode(record.token, forKey: .token)
    try container.encode(record.lang, forKey: .lang)
    try container.encode(record.dev, forKey: .dev)
    try container.encode(record.bgfetch, forKey: .bgfetch)
    try container.encode(ExtraJSON(record.extra), forKey: .extra)
    try container.encode(Clock.iso8601(milliseconds: record.registeredAt), forKey: .registeredAt)
    try container.encode(Clock.iso8601(milliseconds: record.lastSeen), forKey: .lastSeen)
  }
}

struct MappingJSON: Encodable {
  let record: MappingRecord

  private enum Keys: String, CodingKey {
    case appid, udid, uid, interval, format, extra
    case createdAt = "created_at"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(record.appid, forKey: .appid)
    try container.encode(record.udid, forKey: .udid)
    try container.encode(record.uid, forKey: .uid)
    try container.encode(record.interval, forKey: .interval)
    try container.encode(record.format, forKey: .format)
    try container.encode(ExtraJSON(record.extra), forKey: .extra)
    try container.encode(Clock.iso8601(milliseconds: record.createdAt), forKey: .createdAt)
  }
}

struct DeviceJSON: Encodable {
  let record: DeviceRecord

  private enum Keys: String, CodingKey {
    case uid, announcements, extra
    case firstSeen = "first_seen"
    case lastSeen = "last_seen"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(record.uid, forKey: .uid)
    try container.encode(record.announcements, forKey: .announcements)
    try container.encode(ExtraJSON(record.extra), forKey: .extra)
    try container.encode(Clock.iso8601(milliseconds: record.firstSeen), forKey: .firstSeen)
    try container.encode(Clock.iso8601(milliseconds: record.lastSeen), forKey: .lastSeen)
  }
}

struct NotificationsJSON: Encodable {
  var notifications: [NotificationJSON]
}

struct NotificationJSON: Encodable {
  let record: NotificationRecord

  private enum Keys: String, CodingKey {
    case id, appid, udid, os, token, uid, msg, extra
    case eventType = "event_type"
    case eventTime = "event_time"
    case createdAt = "created_at"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(record.id, forKey: .id)
    try container.encode(record.appid, forKey: .appid)
    try container.encode(record.udid, forKey: .udid)
    try container.encode(record.os, forKey: .os)
    try container.encode(record.token, forKey: .token)
    try container.encode(record.uid, forKey: .uid)
    try container.encode(record.eventType, forKey: .eventType)
    try container.encode(record.msg, forKey: .msg)
    try container.encode(record.eventTime, forKey: .eventTime)
    try container.encode(ExtraJSON(record.extra), forKey: .extra)
    try container.encode(Clock.iso8601(milliseconds: record.createdAt), forKey: .createdAt)
  }
}

/// One entry of `GET /_emulator/requests` (the page around them is written by
/// ``RequestLogStream``).
struct RequestJSON: Encodable {
  let entry: RequestLogEntry

  private enum Keys: String, CodingKey {
    case seq, time, method, path, params, raw, status, error, warnings, truncated
    case durationMilliseconds = "duration_ms"
  }

  /// What was cut: `{"bytes": form bytes as received, "values": {name: bytes},
  /// "left_out": parameters not shown}`.
  private struct Truncation: Encodable {
    let truncation: RequestLogEntry.Truncation

    private enum Keys: String, CodingKey {
      case bytes, values
      case leftOut = "left_out"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(truncation.formBytes, forKey: .bytes)
      let values = Dictionary(
        truncation.cutValues.map { ($0.name, $0.bytes) }, uniquingKeysWith: { first, _ in first })
      try container.encode(values, forKey: .values)
      try container.encode(truncation.leftOut, forKey: .leftOut)
    }
  }

  /// The decoded parameters as an object (the first value of a duplicated name).
  private struct Parameters: Encodable {
    let pairs: [FormParameters.Pair]

    private struct Key: CodingKey {
      let stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      var seen: Set<String> = []
      for pair in pairs where seen.insert(pair.name).inserted {
        try container.encode(pair.value, forKey: Key(stringValue: pair.name))
      }
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(entry.sequence, forKey: .seq)
    try container.encode(Clock.iso8601(milliseconds: entry.time), forKey: .time)
    try container.encode(entry.method, forKey: .method)
    try container.encode(entry.path, forKey: .path)
    try container.encode(entry.parameters.map(Parameters.init), forKey: .params)
    try container.encode(entry.raw, forKey: .raw)
    try container.encode(entry.status, forKey: .status)
    try container.encode(entry.error, forKey: .error)
    try container.encode(entry.warnings, forKey: .warnings)
    try container.encode(entry.truncation.map(Truncation.init), forKey: .truncated)
    try container.encodeIfPresent(entry.durationMilliseconds, forKey: .durationMilliseconds)
  }
}

/// A row's `extra` column (a compact JSON object, or NULL) as an object.
struct ExtraJSON: Encodable {
  let text: String?

  init(_ text: String?) { self.text = text }

  func encode(to encoder: any Encoder) throws {
    var value = JSONValue.object([:])
    if let text, let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) {
      value = decoded
    }
    try value.encode(to: encoder)
  }
}

struct FaultJSON: Encodable {
  let fault: FaultInjector.Fault?

  private enum Keys: String, CodingKey {
    case fault
  }

  private enum FaultKeys: String, CodingKey {
    case status, remaining
    case retryAfter = "retry_after"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    guard let fault else {
      try container.encodeNil(forKey: .fault)
      return
    }
    var nested = container.nestedContainer(keyedBy: FaultKeys.self, forKey: .fault)
    try nested.encode(fault.status, forKey: .status)
    try nested.encode(fault.remaining, forKey: .remaining)
    try nested.encode(fault.retryAfter, forKey: .retryAfter)
  }
}

struct ResetJSON: Encodable {
  var reset = true
}

/// `DELETE /_emulator/requests`'s answer.
struct RequestsClearedJSON: Encodable {
  var cleared = true
}

/// `GET /_emulator/requests/count`'s answer.
struct RequestCountJSON: Encodable {
  var count: Int
}
