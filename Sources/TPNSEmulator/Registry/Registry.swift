import Dispatch
import Locking

/// The emulator's registry: phones, mappings, devices and notifications, in SQLite.
///
/// Thread-safe: one lock serialises every use of the single connection, and each
/// ``write(inTransaction:_:)`` is one transaction, so a command that throws changes
/// nothing.
///
/// In memory (nothing outside this process reads the database), registrations
/// (``register(_:tokenKey:)``, `cmd=client`, the commonest command by far) are
/// answered from an index of the phones and written behind, in batches, on a queue
/// of their own: a phone refreshing its registration again before its last one is
/// written is written once. Every other use of the registry writes the waiting
/// registrations first, so it sees every registration answered before it.
final class Registry: @unchecked Sendable {
  // @unchecked: `store`, `hasWarned`, `isIndexStale` and `indexedKeyChanges` are
  // only touched with `lock` held; `waiting`, `phones`, `claims`,
  // `generation` and `isWriteScheduled` with `queue` held (and `indexedKeyChanges`
  // with both when the index is rebuilt).
  private let lock = Lock()
  private let store: RegistryStore
  private let warning: (@Sendable (String) -> Void)?
  private var hasWarned = false

  /// Whether registrations are written behind (in memory).
  let defersRegistrations: Bool
  /// Guards the waiting registrations and the index; taken alone, or inside `lock`,
  /// never the reverse.
  private let queue = Lock()
  /// Registrations answered and not yet written, in the order they are written.
  private var waiting = WaitingRegistrations()
  /// Every phone registered or waiting, by the fingerprint of (appid, udid): whether
  /// a registration is new, without the database. The value is its entry in
  /// `waiting`, as ``Slot/make(_:generation:)`` makes it (stale once written).
  private var phones: [Fingerprint: Int] = [:]
  /// The slot of the last waiting registration claiming each token (by the
  /// fingerprint of its token key).
  private var claims: [Fingerprint: Int] = [:]
  /// Counts the batches taken from `waiting`: a slot of an earlier one is stale.
  private var generation = 0
  /// Whether a write of the waiting registrations is scheduled on `writer`.
  private var isWriteScheduled = false
  /// The queue the waiting registrations are written on.
  private let writer = DispatchQueue(label: "tpns-server.registrations")
  /// The store's ``RegistryStore/clientKeyChanges`` that `phones` accounts for; any
  /// other value means phones changed behind the index, which is then rebuilt.
  private var indexedKeyChanges = 0
  /// Whether a registration could not be written, so `phones` may hold a phone the
  /// database does not.
  private var isIndexStale = false

  /// How long a registration may wait to be written: what a phone re-registering
  /// within it costs is one write.
  static let writeDelay = DispatchTimeInterval.milliseconds(500)
  /// Registrations waiting when they are written without waiting for the delay: a
  /// bound on their memory.
  static let registrationBatch = 8192
  /// Registrations waiting when the next one writes them itself, rather than leave
  /// them to the queue that is not keeping up.
  static let registrationBacklog = 4 * registrationBatch

  /// Opens the registry in the file at `path` (WAL), or in memory when nil. `warning`,
  /// when given, receives one line the first time the file or its log is found
  /// deleted or replaced (and when a registration answered could not be written).
  init(path: String?, warning: (@Sendable (String) -> Void)? = nil) throws {
    store = try RegistryStore(path: path)
    self.warning = warning
    defersRegistrations = path == nil
  }

  /// Registers the phone `record` describes (see ``RegistryStore/upsert(_:tokenKey:)``);
  /// true when it is new. In memory it is answered now and written behind.
  func register(_ record: ClientRecord, tokenKey: String) throws -> Bool {
    guard defersRegistrations else {
      return try write(inTransaction: false) { try $0.upsert(record, tokenKey: tokenKey) }
    }
    let phone = Fingerprint(record.appid, record.udid)
    let token = Fingerprint(tokenKey)
    let (isNew, count, schedules) = queue.withLock { () -> (Bool, Int, Bool) in
      let known = phones[phone]
      if let known, let index = Slot.index(known, generation: generation),
        claims[token] == known, !waiting.isNew(index),
        waiting.matches(index, appid: record.appid, udid: record.udid, tokenKey: tokenKey)
      {
        // A refresh of a waiting update with the same token, which no later waiting
        // registration claims: writing the latest values in its place is the same.
        waiting.replace(index, with: record, tokenKey: tokenKey)
        return (false, waiting.count, false)
      }
      let slot = Slot.make(waiting.count, generation: generation)
      phones[phone] = slot
      claims[token] = slot
      waiting.append(record, tokenKey: tokenKey, isNew: known == nil)
      let schedules = !isWriteScheduled
      isWriteScheduled = true
      return (known == nil, waiting.count, schedules)
    }
    if count >= Self.registrationBacklog {
      writeBehind()  // here, as `writer` is not keeping up
    } else if schedules {
      writer.asyncAfter(deadline: .now() + Self.writeDelay) { [weak self] in
        self?.writeBehind()
      }
    } else if count == Self.registrationBatch {
      writer.async { [weak self] in self?.writeBehind() }
    }
    return isNew
  }

  /// Writes the registrations waiting (on `writer`, or by a registration that finds
  /// too many waiting).
  private func writeBehind() {
    lock.withLock {
      writeWaitingRegistrations()
      checkIndex()
    }
  }

  /// Runs `body` with the lock held, in one transaction (or outside any when
  /// `inTransaction` is false: a write atomic by itself), once the database file is
  /// checked to be still at its path; throws ``DatabaseFileError`` (changing nothing)
  /// when it is not.
  func write<T>(inTransaction: Bool = true, _ body: (RegistryStore) throws -> T) throws -> T {
    do {
      return try lock.withLock { () throws -> T in
        writeWaitingRegistrations()
        defer { checkIndex() }
        try store.checkFile()
        return try inTransaction
          ? store.transaction { try body(store) } : store.write { try body(store) }
      }
    } catch let error as DatabaseFileError {
      warnOnce(error)
      throw error
    }
  }

  /// Runs `body` with the lock held, outside any transaction: reads only, which still
  /// answer from the open database when its file is gone.
  func read<T>(_ body: (RegistryStore) throws -> T) throws -> T {
    try lock.withLock { () throws -> T in
      writeWaitingRegistrations()
      return try body(store)
    }
  }

  /// Why the database file or its log is no longer usable (deleted or replaced), or
  /// nil while both are (and always in memory). Two `stat(2)`s.
  var fileError: DatabaseFileError? {
    let error = lock.withLock { () -> DatabaseFileError? in
      do throws(DatabaseFileError) {
        try store.checkFile()
        return nil
      } catch {
        return error
      }
    }
    if let error { warnOnce(error) }
    return error
  }

  /// Closes the database, once the waiting registrations are written; later uses
  /// fail with an SQLite error (idempotent).
  func close() {
    lock.withLock {
      writeWaitingRegistrations()
      store.close()
    }
  }

  /// With `lock` held: writes the registrations waiting, in order. One that cannot be
  /// written (out of memory) is told to `warning`, and the index is marked for
  /// rebuilding so that it answers truly again.
  private func writeWaitingRegistrations() {
    guard defersRegistrations else { return }
    var batch = WaitingRegistrations()
    queue.withLock {
      swap(&batch, &waiting)
      claims.removeAll(keepingCapacity: true)
      generation &+= 1
      isWriteScheduled = false
    }
    guard !batch.isEmpty else { return }
    var failures = 0
    var firstFailure: (any Error)?
    for index in 0..<batch.count {
      let registration = batch[index]
      do {
        _ = try store.write {
          try store.upsert(registration.record, tokenKey: registration.tokenKey)
        }
        if registration.isNew { indexedKeyChanges &+= 1 }
      } catch {
        failures += 1
        if firstFailure == nil { firstFailure = error }
        isIndexStale = true
      }
    }
    if let firstFailure, let warning {
      warning(
        "\(failures) registration\(failures == 1 ? "" : "s") answered could not be stored: "
          + "\(firstFailure)")
    }
  }

  /// With `lock` held: rebuilds the index of phones from the database when phones
  /// were added or removed other than by ``register(_:tokenKey:)`` (a reset), or a
  /// registration could not be written.
  private func checkIndex() {
    guard defersRegistrations,
      isIndexStale || store.clientKeyChanges != indexedKeyChanges
    else { return }
    writeWaitingRegistrations()
    // `queue` held throughout, so that no registration is answered from the index
    // between the query and the new index.
    queue.withLock {
      guard let keys = try? store.clientKeys() else { return }
      phones = Dictionary(
        keys.map { (Fingerprint($0.appid, $0.udid), -1) }, uniquingKeysWith: { a, _ in a })
      // Answered since the batch above, against the old index (racing a reset):
      // still to be written.
      for index in 0..<waiting.count {
        let record = waiting[index].record
        phones[Fingerprint(record.appid, record.udid)] = Slot.make(index, generation: generation)
      }
      indexedKeyChanges = store.clientKeyChanges
      isIndexStale = false
    }
  }

  /// Sends `error` to the warning line the first time a file problem is found.
  private func warnOnce(_ error: DatabaseFileError) {
    let isFirst = lock.withLock { () -> Bool in
      defer { hasWarned = true }
      return !hasWarned
    }
    if isFirst, let warning { warning(error.description) }
  }
}

/// An entry of the waiting registrations of one batch, as one integer: stale once
/// the batch is taken to be written.
private enum Slot {
  /// The slot naming entry `index` of the waiting registrations of batch
  /// `generation`; -1 names none.
  static func make(_ index: Int, generation: Int) -> Int {
    (generation & 0x7fff_ffff) << 32 | index
  }

  /// The index in the waiting registrations that `slot` names, if it is of batch
  /// `generation`.
  static func index(_ slot: Int, generation: Int) -> Int? {
    slot >= 0 && slot >> 32 == generation & 0x7fff_ffff ? slot & 0xffff_ffff : nil
  }
}
