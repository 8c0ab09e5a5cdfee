import Locking
import TPNSKit

/// A command's warnings: each printed once, as it comes, and kept for `--json`.
final class Warnings: Sendable {
  private let messages = LockedState<[String]>([])
  private let print: @Sendable (String) -> Void

  init(print: @escaping @Sendable (String) -> Void) {
    self.print = print
  }

  func add(_ message: String) {
    let isNew = messages.withLock { messages in
      guard !messages.contains(message) else { return false }
      messages.append(message)
      return true
    }
    if isNew { print(message) }
  }

  var all: [String] { messages.value }
}

extension Warnings {
  static let tokenOnCommandLine =
    "the token was given on the command line, where every local user can read it "
    + "(ps, /proc/PID/cmdline) and shell history keeps it; pass it with --token-file FILE, "
    + "--token-file - (standard input) or TPNS_TOKEN instead"

  static func notActivated(_ uid: String) -> String {
    "\(uid) was refused by this server as not activated: activate it in your TPNS console, "
      + "then tpns sync"
  }

  /// The warning for the token sent to `server`, an http:// server off this
  /// machine, naming the proxy libcurl sends it through, if any.
  static func cleartext(to server: ServerURL, environment: [String: String]) -> String {
    let host = server.host ?? server.redacted
    var message =
      "the push token goes unencrypted (http://) to \(host), where anyone on the network path "
      + "can read it"
    if let (name, proxy) = proxy(for: server, environment: environment) {
      message += ", and so does the proxy in \(name) (\(ServerURL(proxy).redacted))"
    }
    return message + "; use an https:// server (--require-https refuses http://)"
  }

  /// The proxy variable libcurl uses for an http:// `server`, and its value:
  /// `http_proxy` (not `HTTP_PROXY`), else `all_proxy` or `ALL_PROXY`; none
  /// when `no_proxy` (or `NO_PROXY`) is `*` or names the host or a domain of it.
  static func proxy(
    for server: ServerURL, environment: [String: String]
  ) -> (name: String, value: String)? {
    let exemptions = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
    let host = server.host ?? ""
    let exempt = exemptions.split(separator: ",").contains { entry in
      var name = entry.trimmingWhitespace().lowercased()
      if name.hasPrefix(".") { name.removeFirst() }
      return name == "*" || (!name.isEmpty && (host == name || host.hasSuffix("." + name)))
    }
    guard !exempt else { return nil }
    for name in ["http_proxy", "all_proxy", "ALL_PROXY"] {
      if let value = environment[name], !value.isEmpty { return (name, value) }
    }
    return nil
  }
}
