import FoundationEssentials
import TPNSProtocol

extension RegistryStore {
  /// The registry and the notifications as a ``Snapshot``, with `whitelist`.
  func snapshot(whitelist: [String]?) throws -> Snapshot {
    func time(_ milliseconds: Int64) -> String { Clock.iso8601(milliseconds: milliseconds) }
    return Snapshot(
      version: Snapshot.currentVersion,
      clients: try clients().map { client in
        Snapshot.Client(
          os: client.os, appid: client.appid, udid: client.udid, token: client.token,
          lang: client.lang, dev: client.dev, bgfetch: client.bgfetch,
          extra: Self.value(client.extra), registeredAt: time(client.registeredAt),
          lastSeen: time(client.lastSeen))
      },
      mappings: try mappings().map { mapping in
        Snapshot.Mapping(
          appid: mapping.appid, udid: mapping.udid, uid: mapping.uid, interval: mapping.interval,
          format: mapping.format, extra: Self.value(mapping.extra),
          createdAt: time(mapping.createdAt))
      },
      devices: try devices().map { device in
        Snapshot.Device(
          uid: device.uid, announcements: device.announcements, extra: Self.value(device.extra),
          firstSeen: time(device.firstSeen), lastSeen: time(device.lastSeen))
      },
      notifications: try notifications(udid: nil, appid: nil).map { notification in
        Snapshot.Notification(
          id: notification.id, appid: notification.appid, udid: notification.udid,
          os: notification.os, token: notification.token, uid: notification.uid,
          eventType: notification.eventType, msg: notification.msg,
          eventTime: notification.eventTime, extra: Self.value(notification.extra),
          createdAt: time(notification.createdAt))
      },
      whitelist: whitelist)
  }

  /// Replaces everything with `snapshot` (checked when it was read), each phone's
  /// mappings in the document's order. Run it in a transaction: a failure leaves the
  /// registry as it was.
  func load(_ snapshot: Snapshot) throws {
    try reset()
    let client = try database.statement(
      """
      INSERT INTO clients (os, appid, udid, token, token_key, lang, dev, bgfetch,
        registered_at, last_seen, extra)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
      """)
    for entry in snapshot.clients {
      try client.run([
        .text(entry.os), .text(entry.appid), .text(entry.udid), optional(entry.token),
        optional(entry.token.map { Snapshot.tokenKey($0, os: entry.os) }), optional(entry.lang),
        optional(entry.dev), optional(entry.bgfetch),
        .integer(try Snapshot.milliseconds(entry.registeredAt, "registered_at")),
        .integer(try Snapshot.milliseconds(entry.lastSeen, "last_seen")),
        optional(Self.text(entry.extra)),
      ])
    }
    let mapping = try database.statement(
      """
      INSERT INTO mappings (appid, udid, uid, position, push_interval, format, created_at, extra)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
      """)
    var positions: [[String]: Int64] = [:]
    for entry in snapshot.mappings {
      let position = positions[[entry.appid, entry.udid], default: 0]
      positions[[entry.appid, entry.udid]] = position + 1
      try mapping.run([
        .text(entry.appid), .text(entry.udid), .text(entry.uid), .integer(position),
        optional(entry.interval), optional(entry.format),
        .integer(try Snapshot.milliseconds(entry.createdAt, "created_at")),
        optional(Self.text(entry.extra)),
      ])
    }
    let device = try database.statement(
      """
      INSERT INTO devices (uid, first_seen, last_seen, announcements, extra)
      VALUES (?1, ?2, ?3, ?4, ?5)
      """)
    for entry in snapshot.devices {
      try device.run([
        .text(entry.uid), .integer(try Snapshot.milliseconds(entry.firstSeen, "first_seen")),
        .integer(try Snapshot.milliseconds(entry.lastSeen, "last_seen")),
        .integer(entry.announcements), optional(Self.text(entry.extra)),
      ])
    }
    let notification = try database.statement(
      """
      INSERT INTO notifications (id, appid, udid, os, token, uid, event_type, msg, event_time,
        created_at, extra)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
      """)
    for entry in snapshot.notifications {
      try notification.run([
        .integer(entry.id), .text(entry.appid), .text(entry.udid), .text(entry.os),
        .text(entry.token), .text(entry.uid), .integer(entry.eventType), optional(entry.msg),
        optional(entry.eventTime),
        .integer(try Snapshot.milliseconds(entry.createdAt, "created_at")),
        optional(Self.text(entry.extra)),
      ])
    }
  }

  /// A stored `extra` (JSON text) as a value; nil when there is none.
  private static func value(_ text: String?) -> JSONValue? {
    guard let text else { return nil }
    return try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  /// An `extra` value as the text the registry stores.
  private static func text(_ value: JSONValue?) -> String? {
    guard let value else { return nil }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
  }
}
