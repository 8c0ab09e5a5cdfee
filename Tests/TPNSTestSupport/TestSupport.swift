import Foundation
import TPNSEmulator
import TPNSKit

/// A fresh directory under the system's temp directory, removed when the test is done.
public final class TemporaryDirectory {
  public let path: String

  public init() throws {
    var template = Array("\(NSTemporaryDirectory())/tpns-test-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
    path = String(cString: created)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  public func file(_ name: String) -> String {
    "\(path)/\(name)"
  }
}

/// The mode bits of a file.
public func permissions(of path: String) -> mode_t {
  var status = stat()
  return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
}

/// The bytes of a file, or nil.
public func contents(of path: String) -> Data? {
  FileManager.default.contents(atPath: path)
}

/// An inspection request the emulator did not answer 2xx (the test fails
/// with it). TPNSTestSupport does not import Testing, so that every target
/// builds in release with `--static-swift-stdlib`.
public struct InspectionFailure: Error, CustomStringConvertible {
  public let description: String
}

/// An emulator on a free port for one test, and a way to read its inspection JSON.
///
/// It runs strict (`tpns-server --strict`) unless told otherwise: tpns is a canonical
/// client, so anything it sends that the protocol does not define fails its tests
/// with a 400.
public final class RunningEmulator {
  public let emulator = Emulator()
  public let transport: CurlTransport
  /// The `/tpns` URL, which stays the same across `emulator.stop()` and `restart()`.
  public let server: String
  private let port: UInt16
  private let database: String?
  private let strict: Bool

  /// An emulator whose registry is in memory, or in the file `database`
  /// (so that it survives a ``restart()``); `strict: false` runs it as
  /// `tpns-server` does by default.
  public init(database: String? = nil, strict: Bool = true) throws {
    try emulator.start(port: 0, database: database, strict: strict)
    self.database = database
    self.strict = strict
    port = emulator.port
    server = emulator.baseURL ?? ""
    transport = try CurlTransport(options: TransportOptions(timeout: .seconds(10)))
  }

  deinit {
    emulator.stop()
  }

  /// Starts the stopped emulator again on the same port and database: a
  /// server back from an outage.
  public func restart() throws {
    try startAgain(database: database)
  }

  /// Starts on the same port again. While it was stopped, the port may have
  /// been taken as the local port of a connection another test made (the
  /// kernel hands out ephemeral ports from the range port 0 listens in): it
  /// is tried until that connection is gone, for at most 10 s.
  private func startAgain(database: String?) throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while true {
      do {
        return try emulator.start(port: port, database: database, strict: strict)
      } catch EmulatorError.cannotListen where ContinuousClock.now < deadline {
        usleep(20_000)
      }
    }
  }

  /// Stops the emulator and starts it again on the same port with an empty
  /// registry in memory, whatever its database: a server that lost its data.
  public func restartForgettingEverything() throws {
    emulator.stop()
    try startAgain(database: nil)
  }

  /// `http://127.0.0.1:PORT/_emulator/<path>` answered as JSON.
  public func inspect(_ path: String, method: HTTPRequest.Method = .get) throws -> [String: Any] {
    let url = server.replacingOccurrences(of: "/tpns", with: "/_emulator/\(path)")
    let response = try transport.perform(HTTPRequest(method: method, url: url))
    guard response.isSuccess else {
      throw InspectionFailure(description: "\(url): \(response.status) \(response.body)")
    }
    let object = try JSONSerialization.jsonObject(with: Data(response.body.utf8))
    return object as? [String: Any] ?? [:]
  }

  /// Every entry of the request log, oldest first, read page by page
  /// (`/_emulator/requests` answers the newest 100 unless asked for others).
  public func loggedRequests() throws -> [[String: Any]] {
    var entries: [[String: Any]] = []
    var since: Int? = 0
    while let after = since {
      let page = try inspect("requests?since=\(after)&limit=1000")
      entries += page["requests"] as? [[String: Any]] ?? []
      since = page["next"] as? Int
    }
    return entries
  }

  /// The `/tpns` requests the emulator received: method, raw form text, status.
  public func requests() throws -> [(method: String, raw: String, status: Int)] {
    try loggedRequests().map {
      ($0["method"] as? String ?? "", $0["raw"] as? String ?? "", $0["status"] as? Int ?? 0)
    }
  }

  /// The UIDs mapped to `udid`, in registry order.
  public func mappedUIDs(udid: String) throws -> [String] {
    let mappings = try inspect("registry")["mappings"] as? [[String: Any]] ?? []
    return mappings.filter { $0["udid"] as? String == udid }.compactMap { $0["uid"] as? String }
  }
}

/// A TCP socket on 127.0.0.1 that listens and never accepts or answers: the
/// kernel completes connections into its backlog, so clients wait forever.
public final class SilentListener {
  public let descriptor: Int32
  public let port: Int

  /// A socket bound to a free port; `listening` false keeps the port taken
  /// but refuses connections (a "closed port" no other test can reuse).
  public init(listening: Bool = true) throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, !listening || listen(descriptor, 16) == 0 else {
      close(descriptor)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    self.descriptor = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether a client's connection waits in the backlog: it is never
  /// accepted, so a client that connected waits until it gives up.
  public var hasWaitingConnection: Bool {
    var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&waiting, 1, 0) == 1
  }

  deinit {
    close(descriptor)
  }
}
