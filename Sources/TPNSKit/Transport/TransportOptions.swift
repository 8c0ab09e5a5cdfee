import TPNSProtocol

/// How the transport talks to the server.
public struct TransportOptions: Sendable, Equatable {
  /// The limit for a whole request (`--timeout`).
  public var timeout: Duration
  /// The limit for establishing the connection.
  public var connectTimeout: Duration
  /// A PEM file of CA certificates to trust instead of the system's (`--cacert`).
  /// TLS verification itself is always on.
  public var caCertificatePath: String?
  /// The largest response body accepted.
  public var maximumResponseSize: Int
  /// The `User-Agent` header.
  public var userAgent: String

  /// Options with the defaults of docs/ARCHITECTURE.md ("The protocol"): 30 s in all, 5 s to connect.
  public init(
    timeout: Duration = .seconds(30),
    connectTimeout: Duration = .seconds(5),
    caCertificatePath: String? = nil,
    maximumResponseSize: Int = 1 << 20,
    userAgent: String = "tpns/\(TPNSVersion.current)"
  ) {
    self.timeout = timeout
    self.connectTimeout = connectTimeout
    self.caCertificatePath = caCertificatePath
    self.maximumResponseSize = maximumResponseSize
    self.userAgent = userAgent
  }
}
