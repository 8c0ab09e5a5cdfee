import FoundationEssentials
import TPNSProtocol

/// The JSON shapes of the `/_emulator/` endpoints. Optional fields are written as
/// `null` rather than left out, so that every object has the same keys; times are
/// ISO 8601 UTC strings; `extra` (what a client sent beyond the protocol) is an
/// object, `{}` when there was nothing.

/// An object written member by member, in order, a nil value as `null`.
struct JSONObject: Encodable, Sendable {
  typealias Members = [(key: String, value: (any Encodable & Sendable)?)]

  var members: Members

  init(_ members: Members) {
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

extension JSONValue {
  /// A record of the registry (``RegistryRecord``) as shown: its ``Snapshot`` keys and
  /// values, in the shapes above.
  init<Record: RegistryRecord>(record: Record) {
    var members: [String: JSONValue] = [:]
    let encoded = (try? JSONEncoder().encode(record)).flatMap {
      try? JSONDecoder().decode([String: JSONValue].self, from: $0)
    }
    for key in Record.CodingKeys.allCases.map(\.stringValue) {
      members[key] = encoded?[key] ?? .null
    }
    for key in ["registered_at", "last_seen", "first_seen", "created_at"] {
      if case .integer(let milliseconds)? = members[key] {
        members[key] = .string(Clock.iso8601(milliseconds: milliseconds))
      }
    }
    var extra = JSONValue.object([:])
    if case .string(let text)? = members["extra"],
      let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    {
      extra = decoded
    }
    members["extra"] = extra
    self = .object(members)
  }
}

extension JSONObject {
  /// One entry of `GET /_emulator/requests` (the page around them is written by
  /// ``RequestLogStream``).
  init(request entry: RequestLogEntry) {
    self.init([
      ("seq", entry.sequence), ("time", Clock.iso8601(milliseconds: entry.time)),
      ("method", entry.method), ("path", entry.path),
      ("params", entry.parameters.map(Self.parameters)), ("raw", entry.raw),
      ("status", entry.status), ("error", entry.error), ("warnings", entry.warnings),
      ("truncated", entry.truncation.map(Self.truncation)),
      ("fault_rule", entry.faultRule),
    ])
    if let duration = entry.durationMilliseconds { members.append(("duration_ms", duration)) }
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

  /// The armed chaos rules, in the order they are matched; `fault` is the first in the
  /// shape a single fault had (status, remaining, retry_after), for older clients.
  init(faults rules: [FaultRule]) {
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
    self.init([("fault", fault), ("rules", listed)])
  }
}
