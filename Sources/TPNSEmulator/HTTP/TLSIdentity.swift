import CGnuTLS

/// A certificate (PEM, the server's first, then any chain) and its private key (PEM,
/// unencrypted), with which the emulator serves https.
///
///     let identity = try TLSIdentity.load(certificateFile: "cert.pem", keyFile: "key.pem")
///     try emulator.start(port: 0, tls: identity)   // https://127.0.0.1:PORT/tpns
public struct TLSIdentity: Sendable, Equatable {
  /// The certificate chain, PEM.
  public let certificate: String
  /// The private key, PEM.
  public let key: String

  /// `certificate` and `key` once GnuTLS has read both and found that they belong
  /// together; `certificateFile` and `keyFile` name them in an error.
  public init(
    certificate: String, key: String, certificateFile: String? = nil, keyFile: String? = nil
  ) throws(TLSIdentityError) {
    var reason = [CChar](repeating: 0, count: 256)
    let problem = certificate.withCString { certificateText in
      key.withCString { keyText in
        tpns_tls_check(
          certificateText, certificate.utf8.count, keyText, key.utf8.count, &reason, reason.count)
      }
    }
    let said = String(
      decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    switch problem {
    case .TPNS_TLS_OK:
      break
    case .TPNS_TLS_CERTIFICATE_NOT_PEM:
      throw .certificateNotPEM(path: certificateFile, reason: said)
    case .TPNS_TLS_KEY_NOT_PEM:
      throw .keyNotPEM(path: keyFile, reason: said)
    case .TPNS_TLS_KEY_MISMATCH:
      throw .keyMismatch(certificate: certificateFile, key: keyFile)
    }
    self.certificate = certificate
    self.key = key
  }

  /// The certificate and key read from their files and checked.
  public static func load(certificateFile: String, keyFile: String) throws(TLSIdentityError)
    -> TLSIdentity
  {
    // No certificate chain or key is over 1 MiB; a bigger file (or a device) is not one.
    let certificate: String
    let key: String
    do {
      certificate = String(
        decoding: try InputFile.read(certificateFile, limit: 1 << 20), as: UTF8.self)
      key = String(decoding: try InputFile.read(keyFile, limit: 1 << 20), as: UTF8.self)
    } catch {
      throw .unreadable(path: error.path, reason: error.reason)
    }
    return try TLSIdentity(
      certificate: certificate, key: key, certificateFile: certificateFile, keyFile: keyFile)
  }

  /// A new key and a self-signed certificate for `localhost`, 127.0.0.1 and ::1, valid
  /// for `days` days and marked as a CA, so that a client given the certificate as its
  /// CA file trusts the server (see `tpns_tls_make_self_signed`).
  public static func selfSigned(days: UInt32 = 1) throws(TLSIdentityError) -> TLSIdentity {
    var made = tpns_tls_identity()
    let code = tpns_tls_make_self_signed(days, &made)
    defer { tpns_tls_free_identity(&made) }
    guard code == 0, let certificate = made.certificate, let key = made.key else {
      throw .cannotMake(reason: String(cString: tpns_tls_error_text(code)))
    }
    return try TLSIdentity(certificate: String(cString: certificate), key: String(cString: key))
  }
}

/// Why a certificate or key cannot serve https.
public enum TLSIdentityError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file cannot be opened or read, or is not a regular file.
  case unreadable(path: String, reason: String)
  /// No PEM certificate GnuTLS reads (`reason`: GnuTLS's words).
  case certificateNotPEM(path: String?, reason: String)
  /// No unencrypted PEM private key GnuTLS reads.
  case keyNotPEM(path: String?, reason: String)
  /// The key is not the certificate's.
  case keyMismatch(certificate: String?, key: String?)
  /// A self-signed certificate could not be made.
  case cannotMake(reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "cannot read '\(Printable(path, limit: 4096))': \(reason)"
    case .certificateNotPEM(let path, let reason):
      return "\(Self.name(path, or: "the certificate")) holds no PEM certificate (\(reason))"
    case .keyNotPEM(let path, let reason):
      return "\(Self.name(path, or: "the key")) holds no unencrypted PEM private key (\(reason))"
    case .keyMismatch(let certificate, let key):
      return "the key in \(Self.name(key, or: "the key file")) does not match the certificate in "
        + "\(Self.name(certificate, or: "the certificate file"))"
    case .cannotMake(let reason):
      return "cannot make a self-signed certificate: \(reason)"
    }
  }

  private static func name(_ path: String?, or fallback: String) -> String {
    path.map { "'\(Printable($0, limit: 4096))'" } ?? fallback
  }
}
