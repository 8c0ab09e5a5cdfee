import FoundationEssentials
import TPNSProtocol

/// The JSON shapes of the `/_emulator/` endpoints. Optional fields are written as
/// `null` rather than left out, so that every object has the same keys; times are
/// ISO 8601 UTC strings; `extra` (what a client sent beyond the protocol) is an
/// object, `{}` when there was nothing.

/// An object written member by member, in order, a nil value as `null`.
struct JSONObject: Encodable, Sendable {
  var members: [(key: String, value: (any Encodable & Sendable)?)]

  init(_ members: [(key: String, value: (any Encodable & Sendable)?)]) {
    self.members = members
  }

  struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for (key, value) in members {
      if let value {
        try container.encode(value, forKey: Key(stringValue: key))
      } else {
        try container.encodeNil(forKey: Key(stringValue: key))
      }
    }
  }
}

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

  func encode(to encoder: any Encoder) throws {
    try JSONObject([("status", status), ("database", database), ("error", error)])
      .encode(to: encoder)
  }
}

struct RegistryJSON: Encodable {
  var clients: [ClientJSON]
  var mappings: [MappingJSON]
  var devices: [DeviceJSON]
}

struct ClientJSON: Encodable {
  let record: ClientRecord

  func encode(to encoder: any Encoder) throws {
    try JSONObject([
      ("os", record.os), ("appid", record.appid), ("udid", record.udid),
      ("token", record.token), ("lang", record.lang), ("dev", record.dev),
      ("bgfetch", record.bgfetch), ("extra", ExtraJSON(record.extra)),
      ("registered_at", Clock.iso8601(milliseconds: record.registeredAt)),
      ("last_seen", Clock.iso8601(milliseconds: record.lastSeen)),
    ]).encode(to: encoder)
  }
}

struct MappingJSON: Encodable {
  let record: MappingRecord

  func encode(to encoder: any Encoder) throws {
    try JSONObject([
      ("appid", record.appid), ("udid", record.udid), ("uid", record.uid),
      ("interval", record.interval), ("format", record.format),
      ("extra", ExtraJSON(record.extra)),
      ("created_at", Clock.iso8601(milliseconds: record.createdAt)),
    ]).encode(to: encoder)
  }
}

struct DeviceJSON: Encodable {
  let record: DeviceRecord

  func encode(to encoder: any Encoder) throws {
    try JSONObject([
      ("uid", record.uid), ("announcements", record.announcements),
      ("extra", ExtraJSON(record.extra)),
      ("first_seen", Clock.iso8601(milliseconds: record.firstSeen)),
      ("last_seen", Clock.iso8601(milliseconds: record.lastSeen)),
    ]).encode(to: encoder)
  }
}

struct NotificationsJSON: Encodable {
  var notifications: [NotificationJSON]
}

struct NotificationJSON: Encodable {
  let record: NotificationRecord

  func encode(to encoder: any Encoder) throws {
    try JSONObject([
      ("id", record.id), ("appid", record.appid), ("udid", record.udid), ("os", record.os),
      ("token", record.token), ("uid", record.uid), ("event_type", record.eventType),
      ("msg", record.msg), ("event_time", record.eventTime), ("extra", ExtraJSON(record.extra)),
      ("created_at", Clock.iso8601(milliseconds: record.createdAt)),
    ]).encode(to: encoder)
  }
}

/// One entry of `GET /_emulator/requests` (the page around them is written by
/// ``RequestLogStream``).
struct RequestJSON: Encodable, Sendable {
  let entry: RequestLogEntry

  func encode(to encoder: any Encoder) throws {
    var members: [(key: String, value: (any Encodable & Sendable)?)] = [
      ("seq", entry.sequence), ("time", Clock.iso8601(milliseconds: entry.time)),
      ("method", entry.method), ("path", entry.path),
      ("params", entry.parameters.map(Self.parameters)), ("raw", entry.raw),
      ("status", entry.status), ("error", entry.error), ("warnings", entry.warnings),
      ("truncated", entry.truncation.map(Self.truncation)),
      ("fault_rule", entry.faultRule),
    ]
    if let duration = entry.durationMilliseconds { members.append(("duration_ms", duration)) }
    try JSONObject(members).encode(to: encoder)
  }

  /// The decoded parameters as an object (the first value of a duplicated name).
  private static func parameters(_ pairs: [FormParameters.Pair]) -> JSONObject {
    var seen: Set<String> = []
    return JSONObject(
      pairs.filter { seen.insert($0.name).inserted }.map { ($0.name, $0.value) })
  }

  /// What was cut: `{"bytes": form bytes as received, "values": {name: bytes},
  /// "left_out": parameters not shown}`.
  private static func truncation(_ truncation: RequestLogEntry.Truncation) -> JSONObject {
    let values = Dictionary(
      truncation.cutValues.map { ($0.name, $0.bytes) }, uniquingKeysWith: { first, _ in first })
    return JSONObject([
      ("bytes", truncation.formBytes), ("values", values), ("left_out", truncation.leftOut),
    ])
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

/// The armed chaos rules, in the order they are matched; `fault` is the first in the
/// shape a single fault had (status, remaining, retry_after), for older clients.
struct FaultJSON: Encodable {
  let rules: [FaultRule]

  func encode(to encoder: any Encoder) throws {
    let fault = rules.first.map {
      JSONObject([
        ("status", $0.status), ("remaining", $0.remaining), ("retry_after", $0.retryAfter),
      ])
    }
    let listed = rules.map { rule in
      JSONObject([
        ("id", rule.id), ("status", rule.status), ("remaining", rule.remaining),
        ("cmd", rule.command), ("probability", rule.probability),
        ("seed", rule.probability == nil ? nil : rule.seed),
        ("delay_ms", rule.delayMilliseconds), ("drop", rule.drops),
        ("retry_after", rule.retryAfter), ("hits", rule.hits),
      ])
    }
    try JSONObject([("fault", fault), ("rules", listed)]).encode(to: encoder)
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
