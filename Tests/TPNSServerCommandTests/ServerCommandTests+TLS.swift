import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSServerCommand

#if canImport(Glibc)
  import Glibc
#endif

/// https: `--tls-cert`/`--tls-key` and `exec --tls`, with the real `tpns` over it.
@Suite("ServerCommand: https")
struct ServerCommandTLSTests {
  static let token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
  static var tpns: String {
    ServerCommandTests.binary.deletingLastPathComponent().appendingPathComponent("tpns").path
  }

  @Test("exec --tls: tpns register and add over https with TPNS_CACERT; refused without it")
  func execTLS() throws {
    let directory = try TemporaryDirectory()
    let script = """
      set -u
      printf '%s\\n' "$TPNS_SERVER"
      stat -c '%a' "$(dirname "$TPNS_CACERT")"
      printf '%s\\n' "$TPNS_CACERT" > "$0/cacert"
      export TPNS_STORE="$0/state.plist" TPNS_TOKEN=\(Self.token)
      "$1" register --quiet; echo "register $?"
      "$1" add --quiet ABCDEFGHJKLMNPRSTUVW; echo "add $?"
      curl -s --cacert "$TPNS_CACERT" "${TPNS_SERVER%/tpns}/_emulator/registry" \\
        | grep -c '"uid" : "ABCDEFGHJKLMNPRSTUVW"'
      TPNS_CACERT= TPNS_STORE="$0/other.plist" "$1" register --quiet 2>/dev/null; echo "empty $?"
      (unset TPNS_CACERT; TPNS_STORE="$0/other.plist" "$1" register --quiet 2>&1; echo "none $?")
      curl -s -o /dev/null "$TPNS_SERVER"; echo "curl $?"
      """
    let result = try ServerCommandTests.run(
      ["exec", "--tls", "--quiet", "sh", "-c", script, directory.path, Self.tpns])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.first?.range(of: #"^https://127\.0\.0\.1:[0-9]+/tpns$"#, options: .regularExpression)
        != nil, "\(result.stdout)")
    #expect(Array(lines.dropFirst().prefix(4)) == ["700", "register 0", "add 0", "1"])
    #expect(lines.contains("empty 64"), "\(result.stdout)")
    #expect(lines.contains("none 69"), "\(result.stdout)")
    #expect(
      lines.contains { $0.hasPrefix("Error: client failed: TLS with https://127.0.0.1:") },
      "\(result.stdout)")
    #expect(lines.last == "curl 60")
    // The certificate and its directory are gone once exec is done.
    let certificate = try String(contentsOfFile: directory.file("cacert"), encoding: .utf8)
      .trimmingCharacters(in: .newlines)
    #expect(certificate.hasSuffix("/ca.pem"))
    #expect(!FileManager.default.fileExists(atPath: certificate))
    #expect(
      !FileManager.default.fileExists(
        atPath: (certificate as NSString).deletingLastPathComponent))
  }

  @Test("--tls-cert and --tls-key serve https; the listening line says so")
  func serves() throws {
    let directory = try TemporaryDirectory()
    let identity = try ServerCommand.ThrowawayCertificate()
    defer { identity.remove() }
    try identity.identity.key.write(
      toFile: directory.file("key.pem"), atomically: false, encoding: .utf8)
    let portFile = directory.file("port")
    let output = directory.file("out")
    let child = try ServerCommandTests.spawn(
      [
        "--port", "0", "--port-file", portFile, "--tls-cert", identity.path, "--tls-key",
        directory.file("key.pem"),
      ], output: output)
    defer {
      child.send(SIGTERM)
      _ = ServerCommandTests.status(of: child)
    }
    // The port file is written once listening.
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: portFile) && Date() < deadline {
      usleep(10_000)
    }
    let port = try String(contentsOfFile: portFile, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let result = try ServerCommandTests.run(
      [
        "exec", "--quiet", "sh", "-c",
        "curl -s --cacert \"$0\" https://localhost:\(port)/_emulator/health | grep -c ok",
        identity.path,
      ])
    #expect(result.stdout == "1\n", "\(result.stderr)")
    child.send(SIGTERM)
    #expect(ServerCommandTests.status(of: child) == 0)
    let printed = try String(contentsOfFile: output, encoding: .utf8)
    #expect(printed.hasPrefix("listening on https://127.0.0.1:\(port)/tpns\n"))
  }

  @Test("bad --tls-cert or --tls-key: an error naming the file, exit 64, nothing served")
  func badFiles() throws {
    let directory = try TemporaryDirectory()
    let identity = try ServerCommand.ThrowawayCertificate()
    defer { identity.remove() }
    let other = try ServerCommand.ThrowawayCertificate()
    defer { other.remove() }
    let key = directory.file("key.pem")
    let otherKey = directory.file("other-key.pem")
    let text = directory.file("text.pem")
    try identity.identity.key.write(toFile: key, atomically: false, encoding: .utf8)
    try other.identity.key.write(toFile: otherKey, atomically: false, encoding: .utf8)
    try "not a certificate\n".write(toFile: text, atomically: false, encoding: .utf8)
    let missing = directory.file("missing.pem")
    let cases: [([String], String)] = [
      (
        ["--tls-cert", missing, "--tls-key", key],
        "Error: cannot read '\(missing)': No such file or directory"
      ),
      (
        ["--tls-cert", text, "--tls-key", key],
        "Error: '\(text)' holds no PEM certificate (No certificate was found.)"
      ),
      (
        ["--tls-cert", identity.path, "--tls-key", text],
        "Error: '\(text)' holds no unencrypted PEM private key ("
      ),
      (
        ["--tls-cert", identity.path, "--tls-key", otherKey],
        "Error: the key in '\(otherKey)' does not match the certificate in '\(identity.path)'"
      ),
      (
        ["--tls-cert", identity.path],
        "Error: --tls-cert and --tls-key go together: give both to serve https, or neither"
      ),
    ]
    for (arguments, first) in cases {
      let result = try ServerCommandTests.run(["--port", "0"] + arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stdout == "")
      #expect(result.stderr.hasPrefix(first), "\(result.stderr)")
    }
  }
}
