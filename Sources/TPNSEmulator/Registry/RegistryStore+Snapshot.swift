extension RegistryStore {
  /// The registry and the notifications as a ``Snapshot``, with `whitelist`.
  func snapshot(whitelist: [String]?) throws -> Snapshot {
    Snapshot(
      version: Snapshot.currentVersion, clients: try clients(), mappings: try mappings(),
      devices: try devices(), notifications: try notifications(udid: nil, appid: nil),
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
        optional(entry.tokenKey), optional(entry.lang),
        optional(entry.dev), optional(entry.bgfetch),
        .integer(entry.registeredAt), .integer(entry.lastSeen), optional(entry.extra),
      ])
    }
    for entry in snapshot.mappings {
      try append(
        appid: entry.appid, udid: entry.udid,
        MappingChange(
          uid: entry.uid, interval: entry.interval, format: entry.format, extra: entry.extra),
        createdAt: entry.createdAt)
    }
    let device = try database.statement(
      """
      INSERT INTO devices (uid, first_seen, last_seen, announcements, extra)
      VALUES (?1, ?2, ?3, ?4, ?5)
      """)
    for entry in snapshot.devices {
      try device.run([
        .text(entry.uid), .integer(entry.firstSeen), .integer(entry.lastSeen),
        .integer(entry.announcements), optional(entry.extra),
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
        optional(entry.eventTime), .integer(entry.createdAt), optional(entry.extra),
      ])
    }
  }
}
