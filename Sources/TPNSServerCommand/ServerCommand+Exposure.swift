import Glibc

extension ServerCommand {
  /// The warning for a `--host` that is not a loopback address (the first address it
  /// resolves to, the one listened on, is not 127.0.0.0/8 nor ::1): the registry,
  /// tokens and all, is then open to anyone who can reach it. Nil for a loopback one.
  ///
  ///     ServerCommand.exposureWarning(host: "0.0.0.0")  // "--host 0.0.0.0 is not a ..."
  static func exposureWarning(host: String) -> String? {
    guard !isLoopback(host) else { return nil }
    return "--host \(host) is not a loopback address: anyone who can reach it can read every "
      + "push token in the registry (/_emulator/registry, /_emulator/requests), empty it, or "
      + "register tokens of their own"
  }

  /// Whether `host` resolves, as the emulator resolves it to listen, to a loopback
  /// address first.
  private static func isLoopback(_ host: String) -> Bool {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_PASSIVE
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, nil, &hints, &found) == 0, let first = found else { return false }
    defer { freeaddrinfo(found) }
    guard let address = first.pointee.ai_addr else { return false }
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
      return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127
      }
    case AF_INET6:
      return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
        let bytes = withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
        let isMapped =
          bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF
          && bytes[11] == 0xFF
        return bytes == Array(repeating: 0, count: 15) + [1] || (isMapped && bytes[12] == 127)
      }
    default:
      return false
    }
  }
}
