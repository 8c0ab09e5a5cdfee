import Glibc
import Locking
import TPNSProtocol

/// The TPNS emulator: an HTTP server on `/tpns` speaking the TPNS protocol, with an
/// SQLite registry and inspection endpoints under `/_emulator/`.
///
///     let emulator = Emulator()
///     try emulator.start(port: 0)        // a free port on 127.0.0.1, registry in memory
///     print(emulator.baseURL)            // http://127.0.0.1:40123/tpns
///     emulator.stop()
///
/// Requests are served on libmicrohttpd's poll thread (one by default: it is
/// event-driven, so a slow client never holds it), concurrently with the caller.
/// `stop()` waits for requests in progress, then closes the database.
public final class Emulator: @unchecked Sendable {
  // @unchecked: `running` is only touched with `lock` held; the rest is immutable.

  /// Receives one line per request served (time, method, path, cmd, status, duration).
  public typealias Logger = @Sendable (String) -> Void

  private struct Running {
    var server: HTTPServer
    var registry: Registry
    var events: EventHub
    var port: UInt16
    var baseURL: String
  }

  private let lock = Lock()
  private let logger: Logger?
  private let warning: Logger?
  private var running: Running?

  /// An emulator not yet listening: `logger` receives a line per request, `warning` one
  /// when the emulator itself goes wrong (its database file deleted or replaced while it
  /// runs, told once); both escaped for a terminal (`escapingControlCharacters`).
  public init(logger: Logger? = nil, warning: Logger? = nil) {
    self.logger = logger.map { log in { @Sendable line in log(line.escapingControlCharacters) } }
    self.warning = warning.map { log in { @Sendable line in log(line.escapingControlCharacters) } }
  }

  deinit { stop() }

  /// Opens the registry (`database`: a file, in WAL mode; nil: in memory) and listens
  /// on `host`:`port` (0: any free port, see ``port``) with `threads` serving threads.
  ///
  /// By default it accepts what real clients send, as the real service does, and
  /// records what a canonical client would not send as warnings in the request log;
  /// `strict` refuses that with 400 instead (for authors testing their own encoder).
  /// `allowBrowser` serves what a browser sends to `/tpns` by itself (a navigation typed
  /// in the address bar, a link, a form), refused by default (see ``AccessPolicy``).
  /// With `tls` it serves https instead of http. With `whitelist`, only those UIDs
  /// are activated (see ``Whitelist``); without, every one is. With `snapshot`, it
  /// starts from that state, its whitelist too unless `whitelist` is given.
  public func start(
    host: String = "127.0.0.1", port: UInt16 = 0, database: String? = nil, threads: Int = 1,
    strict: Bool = false, allowBrowser: Bool = false, tls: TLSIdentity? = nil,
    whitelist: [DeviceUID]? = nil, snapshot: Snapshot? = nil
  ) throws(EmulatorError) {
    try lock.withLock { () throws(EmulatorError) in
      guard running == nil else { throw EmulatorError.alreadyRunning }
      if let database, let refusal = DatabaseTrust.refusal(path: database) {
        throw EmulatorError.untrustedDatabase(
          path: refusal.path, reason: refusal.reason, fix: refusal.fix)
      }
      let registry: Registry
      do {
        registry = try Registry(path: database, warning: warning)
      } catch {
        throw Self.databaseError(error, path: database)
      }
      if let snapshot {
        do {
          try registry.load(snapshot)
        } catch {
          registry.close()
          throw EmulatorError.snapshot(reason: "\(error)")
        }
      }
      if whitelist != nil || snapshot == nil { registry.whitelist.replace(with: whitelist) }
      let log = RequestLog()
      let faults = FaultInjector()
      let events = EventHub()
      let router = Router(
        registry: registry, log: log, faults: faults,
        inspector: Inspector(
          registry: registry, log: log, faults: faults, counters: Metrics(),
          databaseName: database ?? ":memory:",
          events: events, startedAt: Clock.nowMilliseconds(),
          startedMonotonic: Clock.monotonicNanoseconds()),
        access: AccessPolicy(
          listeningHost: host, allowsBrowser: allowBrowser, scheme: tls == nil ? "http" : "https"),
        events: events,
        logger: logger,
        isStrict: strict)
      let server = HTTPServer(
        handler: { router.handle($0) }, refused: { router.handleUnread(status: $0) })
      let bound: UInt16
      do throws(EmulatorError) {
        bound = try server.start(host: host, port: port, threads: threads, tls: tls)
      } catch {
        registry.close()
        throw error
      }
      events.start()
      let address = host.contains(":") ? "[\(host)]" : host
      running = Running(
        server: server, registry: registry, events: events, port: bound,
        baseURL: "\(tls == nil ? "http" : "https")://\(address):\(bound)\(Router.servicePath)")
    }
  }

  private static func databaseError(_ error: any Error, path: String?) -> EmulatorError {
    guard let path else { return .database(path: ":memory:", reason: "\(error)") }
    var status = stat()
    if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR {
      return .notADatabase(path: path, isDirectory: true)
    }
    if let error = error as? SQLiteError, error.isNotADatabase {
      return .notADatabase(path: path, isDirectory: false)
    }
    if let error = error as? SQLiteError, error.isBusy { return .databaseLocked(path: path) }
    if let error = error as? RegistrySchemaError {
      return .notARegistry(path: path, reason: error.reason)
    }
    return .database(path: path, reason: "\(error)")
  }

  /// Stops listening, waits for the requests in progress and closes the database
  /// (idempotent).
  public func stop() { _ = try? stopTakingSnapshot(false) }

  /// Stops as ``stop()`` does and returns the state (``Snapshot``) as the last request
  /// answered left it: read after the server has stopped, before the database closes
  /// (`--export-on-exit`). Nil when it was not running.
  public func stopTakingSnapshot() throws -> Snapshot? { try stopTakingSnapshot(true) }

  private func stopTakingSnapshot(_ taking: Bool) throws -> Snapshot? {
    guard
      let stopped = lock.withLock({ () -> Running? in
        defer { running = nil }
        return running
      })
    else { return nil }
    stopped.events.stop()  // ends the open streams, so that their connections close
    stopped.server.stop()
    defer { stopped.registry.close() }
    guard taking else { return nil }
    return try stopped.registry.read { try $0.snapshot(whitelist: stopped.registry.whitelist.uids) }
  }

  /// Whether it is listening.
  public var isRunning: Bool { lock.withLock { running != nil } }

  /// The port listened on; 0 when not running.
  public var port: UInt16 { lock.withLock { running?.port ?? 0 } }

  /// The service URL, `http://HOST:PORT/tpns` (`https://` when serving TLS; what
  /// `TPNS_SERVER` is set to); nil when not running. An IPv6 host is written in brackets.
  public var baseURL: String? { lock.withLock { running?.baseURL } }
}
