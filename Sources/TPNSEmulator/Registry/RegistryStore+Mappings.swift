import CSQLite

/// The mappings' queries: a phone's list in order, replaced whole (written as
/// the difference from the stored list), one added, one or all removed.
extension RegistryStore {
  /// A mapping from a row of `appid, udid, uid, push_interval, format, created_at,
  /// extra`.
  private static func mapping(_ row: SQLiteStatement) -> MappingRecord {
    MappingRecord(
      appid: row.text(0) ?? "", udid: row.text(1) ?? "", uid: row.text(2) ?? "",
      interval: row.integer(3), format: row.text(4), extra: row.text(6),
      createdAt: row.integer(5) ?? 0)
  }

  /// The phone's mappings in list order.
  func mappings(appid: String, udid: String) throws -> [MappingRecord] {
    try database.statement(
      """
      SELECT appid, udid, uid, push_interval, format, created_at, extra FROM mappings
      WHERE appid = ?1 AND udid = ?2 ORDER BY position
      """
    ).rows([.text(appid), .text(udid)], Self.mapping)
  }

  /// Every mapping, grouped by phone in registration order, each in list order.
  func mappings() throws -> [MappingRecord] {
    try database.statement(
      """
      SELECT m.appid, m.udid, m.uid, m.push_interval, m.format, m.created_at, m.extra
      FROM mappings m JOIN clients c ON c.appid = m.appid AND c.udid = m.udid
      ORDER BY c.registered_at, c.rowid, m.position
      """
    ).rows([], Self.mapping)
  }

  /// Replaces the phone's set with `mappings` (already deduplicated), in that order.
  /// A UID that stays keeps its `interval`, `format` and `extra` unless its entry sets
  /// them, and its creation time.
  ///
  /// The common mapsync, a list that only lost UIDs and gained some at its end, is
  /// written as its difference: the UIDs gone deleted, the settings an entry changes
  /// updated, the new UIDs inserted after the last position, and every other row left
  /// alone (rewriting a long list whole is slow). `position` only orders the list, so
  /// the gaps left behind are harmless. A list whose kept UIDs changed order, or with
  /// a new UID before a kept one, is written whole.
  func replaceMappings(appid: String, udid: String, _ mappings: [MappingChange], now: Int64)
    throws
  {
    // Not `MappingRecord`s: a list of thousands would make each a copy of the appid and udid.
    let stored = try database.statement(
      """
      SELECT uid, position, push_interval, format, extra, created_at FROM mappings
      WHERE appid = ?1 AND udid = ?2 ORDER BY position
      """
    ).rows([.text(appid), .text(udid)]) { row in
      StoredMapping(
        uid: row.text(0) ?? "", position: row.integer(1) ?? 0, interval: row.integer(2),
        format: row.text(3), extra: row.text(4), createdAt: row.integer(5) ?? 0)
    }
    let wanted = Set(mappings.map(\.uid))
    let kept = stored.filter { wanted.contains($0.uid) }
    let inPlace = zip(kept, mappings).allSatisfy { $0.uid == $1.uid }
    var keptByUID: [String: StoredMapping] = [:]
    if inPlace {
      let delete = try database.statement(
        "DELETE FROM mappings WHERE appid = ?1 AND udid = ?2 AND uid = ?3")
      for old in stored where !wanted.contains(old.uid) {
        try delete.run([.text(appid), .text(udid), .text(old.uid)])
      }
    } else {
      keptByUID = Dictionary(uniqueKeysWithValues: kept.map { ($0.uid, $0) })
      _ = try removeMappings(appid: appid, udid: udid)
    }
    let update = try database.statement(
      """
      UPDATE mappings SET push_interval = ?4, format = ?5, extra = ?6
      WHERE appid = ?1 AND udid = ?2 AND uid = ?3
      """)
    let insert = try database.statement(
      """
      INSERT INTO mappings
        (appid, udid, uid, position, push_interval, format, created_at, extra)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
      """)
    var position = inPlace ? (stored.last?.position ?? -1) + 1 : 0
    for (index, mapping) in mappings.enumerated() {
      let old = inPlace ? (index < kept.count ? kept[index] : nil) : keptByUID[mapping.uid]
      let interval = mapping.interval ?? old?.interval
      let format = mapping.format ?? old?.format
      let extra = mapping.extra ?? old?.extra
      if inPlace, let old {
        guard interval != old.interval || format != old.format || extra != old.extra else {
          continue
        }
        try update.run([
          .text(appid), .text(udid), .text(mapping.uid), optional(interval), optional(format),
          optional(extra),
        ])
      } else {
        try insert.run([
          .text(appid), .text(udid), .text(mapping.uid), .integer(position), optional(interval),
          optional(format), .integer(old?.createdAt ?? now), optional(extra),
        ])
        position += 1
      }
    }
  }

  private struct StoredMapping {
    var uid: String
    var position: Int64
    var interval: Int64?
    var format: String?
    var extra: String?
    var createdAt: Int64
  }

  /// Adds `change.uid` at the end of the phone's list, or updates its `interval`,
  /// `format` and `extra` (those set) when already mapped; true when it is new.
  func addMapping(appid: String, udid: String, _ change: MappingChange, now: Int64) throws
    -> Bool
  {
    let existing = try mappings(appid: appid, udid: udid)
    if let old = existing.first(where: { $0.uid == change.uid }) {
      try database.statement(
        """
        UPDATE mappings SET push_interval = ?4, format = ?5, extra = ?6
        WHERE appid = ?1 AND udid = ?2 AND uid = ?3
        """
      ).run([
        .text(appid), .text(udid), .text(change.uid), optional(change.interval ?? old.interval),
        optional(change.format ?? old.format), optional(change.extra ?? old.extra),
      ])
      return false
    }
    try append(appid: appid, udid: udid, change, createdAt: now)
    return true
  }

  /// Removes one mapping; true when there was one.
  func removeMapping(appid: String, udid: String, uid: String) throws -> Bool {
    try database.statement("DELETE FROM mappings WHERE appid = ?1 AND udid = ?2 AND uid = ?3")
      .run([.text(appid), .text(udid), .text(uid)])
    return database.changes > 0
  }

  /// Removes every mapping of the phone; the number removed.
  func removeMappings(appid: String, udid: String) throws -> Int {
    try database.statement("DELETE FROM mappings WHERE appid = ?1 AND udid = ?2")
      .run([.text(appid), .text(udid)])
    return database.changes
  }

  /// Inserts `change` after the last of the phone's list.
  func append(appid: String, udid: String, _ change: MappingChange, createdAt: Int64) throws {
    try database.statement(
      """
      INSERT INTO mappings
        (appid, udid, uid, position, push_interval, format, created_at, extra)
      VALUES (?1, ?2, ?3,
        (SELECT COALESCE(MAX(position), -1) + 1 FROM mappings WHERE appid = ?1 AND udid = ?2),
        ?4, ?5, ?6, ?7)
      """
    ).run([
      .text(appid), .text(udid), .text(change.uid), optional(change.interval),
      optional(change.format), .integer(createdAt), optional(change.extra),
    ])
  }
}
