import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSEmulator

/// `--tls-cert`/`--tls-key` are checked before the emulator listens, each problem
/// naming the file at fault; `exec --tls`'s certificate is one a client can trust.
@Suite("TLSIdentity: certificate and key files, and the self-signed certificate")
struct TLSIdentityTests {
  @Test("a self-signed identity is a PEM certificate with its PEM key, new each time")
  func selfSigned() throws {
    let first = try TLSIdentity.selfSigned()
    let second = try TLSIdentity.selfSigned()
    #expect(first.certificate.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
    #expect(first.key.contains("PRIVATE KEY-----\n"))
    #expect(first.key != second.key)
    #expect(first.certificate != second.certificate)
  }

  @Test("files that belong together load")
  func loads() throws {
    let directory = try TemporaryDirectory()
    let identity = try TLSIdentity.selfSigned()
    try identity.certificate.write(
      toFile: directory.file("c.pem"), atomically: false, encoding: .utf8)
    try identity.key.write(toFile: directory.file("k.pem"), atomically: false, encoding: .utf8)
    let loaded = try TLSIdentity.load(
      certificateFile: directory.file("c.pem"), keyFile: directory.file("k.pem"))
    #expect(loaded == identity)
  }

  @Test("each problem names its file")
  func problems() throws {
    let directory = try TemporaryDirectory()
    let identity = try TLSIdentity.selfSigned()
    let other = try TLSIdentity.selfSigned()
    let certificate = directory.file("c.pem")
    let key = directory.file("k.pem")
    let otherKey = directory.file("other.pem")
    let text = directory.file("text.pem")
    try identity.certificate.write(toFile: certificate, atomically: false, encoding: .utf8)
    try identity.key.write(toFile: key, atomically: false, encoding: .utf8)
    try other.key.write(toFile: otherKey, atomically: false, encoding: .utf8)
    try "hello\n".write(toFile: text, atomically: false, encoding: .utf8)
    let missing = directory.file("missing.pem")

    func failure(_ certificateFile: String, _ keyFile: String) -> TLSIdentityError? {
      do {
        _ = try TLSIdentity.load(certificateFile: certificateFile, keyFile: keyFile)
        return nil
      } catch { return error }
    }
    #expect(
      failure(missing, key)
        == .unreadable(path: missing, reason: "No such file or directory"))
    #expect(
      failure(certificate, directory.path)
        == .unreadable(path: directory.path, reason: "not a regular file"))
    #expect(
      failure(text, key)?.description
        == "'\(text)' holds no PEM certificate (No certificate was found.)")
    #expect(failure(key, key)?.description.hasPrefix("'\(key)' holds no PEM certificate") == true)
    #expect(
      failure(certificate, certificate)?.description.hasPrefix(
        "'\(certificate)' holds no unencrypted PEM private key (") == true)
    #expect(
      failure(certificate, text)?.description.hasPrefix(
        "'\(text)' holds no unencrypted PEM private key (") == true)
    #expect(
      failure(certificate, otherKey)?.description
        == "the key in '\(otherKey)' does not match the certificate in '\(certificate)'")
  }

  @Test("an https emulator's own pages are https:// origins; http:// ones are refused")
  func httpsOrigin() {
    func refusal(scheme: String, origin: String) -> RequestError? {
      let request = IncomingRequest(
        method: "POST", path: "/_emulator/reset", query: nil, contentType: nil, body: [],
        isBodyTooLarge: false, host: "127.0.0.1:7380", origin: origin)
      return AccessPolicy(listeningHost: "127.0.0.1", scheme: scheme).refusal(of: request)
    }
    #expect(refusal(scheme: "https", origin: "https://127.0.0.1:7380") == nil)
    #expect(refusal(scheme: "https", origin: "http://127.0.0.1:7380")?.status == 403)
    #expect(refusal(scheme: "http", origin: "http://127.0.0.1:7380") == nil)
    #expect(refusal(scheme: "http", origin: "https://127.0.0.1:7380")?.status == 403)
  }

  @Test("an emulator started with an identity names an https:// URL")
  func httpsURL() throws {
    let emulator = Emulator()
    try emulator.start(port: 0, tls: try TLSIdentity.selfSigned())
    defer { emulator.stop() }
    #expect(emulator.baseURL == "https://127.0.0.1:\(emulator.port)/tpns")
  }
}
