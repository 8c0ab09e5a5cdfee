import ArgumentParsing
import TPNSKit

#if canImport(Glibc)
  import Glibc
#endif

/// The settings a `tpns` command runs with, resolved from the option groups it
/// declares: where the server and the store are, how to talk to it, how to print.
struct GlobalOptions: Sendable {
  var server: String
  var storePath: String
  var json = false
  var quiet = false
  var verbose = false
  var timeout: Duration = .seconds(30)
  var method: HTTPRequest.Method = .post
  var caCertificate: String?
  var showToken = false
  /// `--require-https` or `TPNS_REQUIRE_HTTPS=1`: an http:// server off this machine is refused.
  var requireHTTPS = false
  /// `--allow-token-in-url`: `--method get` may put the token in the URL.
  var allowTokenInURL = false
  /// `--color`.
  var color = ColorChoice.auto
  /// `--legacy` (`event`, `device`): requests in the older form firmware sends.
  var legacy = false

  init(
    server: ServerURL, storePath: String, json: Bool = false, quiet: Bool = false,
    verbose: Bool = false, timeout: Duration = .seconds(30), method: HTTPRequest.Method = .post,
    caCertificate: String? = nil, showToken: Bool = false, requireHTTPS: Bool = false,
    allowTokenInURL: Bool = false, color: ColorChoice = .auto
  ) {
    self.server = server.text
    self.storePath = storePath
    self.json = json
    self.quiet = quiet
    self.verbose = verbose
    self.timeout = timeout
    self.method = method
    self.caCertificate = caCertificate
    self.showToken = showToken
    self.requireHTTPS = requireHTTPS
    self.allowTokenInURL = allowTokenInURL
    self.color = color
  }

  /// The server URL taken apart (``ServerURL``).
  var serverURL: ServerURL { ServerURL(server) }

  /// The server as output shows it: credentials as `***@`, query values as `***`.
  var shownServer: String { serverURL.redacted }

  /// What the store records the server under (``ServerURL/storeKey``).
  var serverKey: String { serverURL.storeKey }

  /// A token as output shows it: masked unless `--show-token`.
  func show(_ token: String) -> String {
    showToken ? token : TokenMask.shown(token)
  }

  /// Why the `--cacert` file cannot be used (`unreadable`, or no PEM
  /// certificate in it), or nil: found before anything is stored or sent.
  func caCertificateProblem() -> (message: String, unreadable: Bool)? {
    guard let path = caCertificate else { return nil }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      return (
        "cannot read the CA certificate file \(path): \(String(cString: strerror(errno)))", true
      )
    }
    defer { close(descriptor) }
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      return ("cannot read the CA certificate file \(path): it is a directory", true)
    }
    // A bundle's first certificate comes early; the rest is libcurl's to read.
    let bytes: [UInt8]
    do {
      bytes = try FileDescriptor.readAll(descriptor, limit: Self.pemPrefixLimit)
    } catch {
      return (
        "cannot read the CA certificate file \(path): \(String(cString: strerror(error.code)))",
        true
      )
    }
    guard String(decoding: bytes, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
      return (
        "the CA certificate file \(path) is not a PEM file: it holds no "
          + "'-----BEGIN CERTIFICATE-----' line", false
      )
    }
    return nil
  }

  /// How much of a `--cacert` file is looked at for its first certificate.
  static let pemPrefixLimit = 1 << 20
}
