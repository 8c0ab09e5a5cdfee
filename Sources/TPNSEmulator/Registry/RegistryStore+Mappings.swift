import CSQLite

/// The mappings' queries: a phone's list in order, replaced whole (written as
/// the difference from the stored list), one added, one or all removed.
extension RegistryStore {
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

  private static func mapping(_ row: SQLiteStatement) -> MappingRecord {
    MappingRecord(
      appid: row.text(0) ?? "", udid: row.text(1) ?? "", uid: row.text(2) ?? "",
      interval: row.integer(3), format: row.text(4), extra: row.text(6),
      createdAt: row.integer(5) ?? 0)
  }

  /// Replaces the phone's set with `mappings` (already deduplicated), in that order.
  /// A UID that stays keeps its `interval`, `format` and `extra` unless its entry sets
  /// them, and its creation time.
  ///
  /// The common mapsync, a list that only lost UIDs and gained some at its end, is
  /// written as its difference: the UIDs gone deleted, the new ones appended, the
  /// settings an entry changes updated, and every other row left alone (rewriting a
  /// long list whole is slow). `position` only orders the list, so the gaps left behind
  /// are harmless. When the kept UIDs changed order or a new UID comes before a kept
  /// one, the list is rewritten whole.
  func replaceMappings(appid: String, udid: String, _ mappings: [MappingChange], now: Int64)
    throws
  {
    let stored = try self.mappings(appid: appid, udid: udid)
    let wanted = Set(mappings.map(\.uid))
    var kept = stored.filter { wanted.contains($0.uid) }
    if zip(kept, mappings).allSatisfy({ $0.uid == $1.uid }) {
      for old in stored where !wanted.contains(old.uid) {
        _ = try removeMapping(appid: appid, udid: udid, uid: old.uid)
      }
    } else {
      kept = []
      _ = try removeMappings(appid: appid, udid: udid)
    }
    for (mapping, old) in zip(mappings, kept) {
      try updateSettings(appid: appid, udid: udid, mapping, old: old)
    }
    let old = Dictionary(uniqueKeysWithValues: stored.map { ($0.uid, $0) })
    for mapping in mappings[kept.count...] {
      let old = old[mapping.uid]
      try append(
        appid: appid, udid: udid,
        MappingChange(
          uid: mapping.uid, interval: mapping.interval ?? old?.interval,
          format: mapping.format ?? old?.format, extra: mapping.extra ?? old?.extra),
        createdAt: old?.createdAt ?? now)
    }
  }

  /// Adds `change.uid` at the end of the phone's list, or updates its `interval`,
  /// `format` and `extra` (those set) when already mapped; true when it is new.
  func addMapping(appid: String, udid: String, _ change: MappingChange, now: Int64) throws
    -> Bool
  {
    if let old = try mappings(appid: appid, udid: udid).first(where: { $0.uid == change.uid }) {
      try updateSettings(appid: appid, udid: udid, change, old: old)
      return false
    }
    try append(appid: appid, udid: udid, change, createdAt: now)
    return true
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

  /// Sets the settings `change` gives to the mapping `old`, when they differ.
  private func updateSettings(
    appid: String, udid: String, _ change: MappingChange, old: MappingRecord
  )
    throws
  {
    let interval = change.interval ?? old.interval
    let format = change.format ?? old.format
    let extra = change.extra ?? old.extra
    guard interval != old.interval || format != old.format || extra != old.extra else { return }
    try database.statement(
      """
      UPDATE mappings SET push_interval = ?4, format = ?5, extra = ?6
      WHERE appid = ?1 AND udid = ?2 AND uid = ?3
      """
    ).run([
      .text(appid), .text(udid), .text(change.uid), optional(interval), optional(format),
      optional(extra),
    ])
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
}
