import Foundation
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSServerCommand

#if canImport(Glibc)
  import Glibc
#endif

extension ServerCommandTests {
  static let activated = "ABCDEFGHJKLMNPRSTUVW"
  static let other = "0123456789ABCDEFGHJK"

  @Test(
    "--whitelist FILE activates only its UIDs (comments skipped): mapsync answers the others 422")
  func whitelistFile() throws {
    let directory = try TemporaryDirectory()
    let file = directory.file("whitelist.txt")
    try "# the hall\n\(Self.activated)  # door\n\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let (child, port) = try Self.start(
      database: directory.file("registry.sqlite"), in: directory, "server", ["--whitelist", file])
    defer {
      child.send(SIGTERM)
      _ = Self.status(of: child)
    }
    let base = "http://127.0.0.1:\(port)"
    let shown = try Self.curl(["\(base)/_emulator/whitelist"])
    #expect(shown.contains("\"enabled\" : true"))
    #expect(shown.contains(Self.activated))
    let phone = "os=android&appid=com.example.app&udid=phone-1"
    _ = try Self.curl(["-d", "cmd=client&\(phone)&token=fcm-1", "\(base)/tpns"])
    let answer = try Self.curl([
      "-d", "cmd=mapsync&\(phone)", "--data-urlencode",
      "map=\(MapPayload.encode([Self.other, Self.activated]))", "\(base)/tpns",
    ])
    #expect(answer == "422 not activated: \(Self.other) (1 UID mapped)\n")
  }

  @Test(
    "a --whitelist file with a line that is not a UID is exit 65 naming the file and the line; one that cannot be read, 66",
    arguments: [
      ("\(activated)\n# fine\nnot-a-uid\n", 65, ":3: 'not-a-uid' is not a UID"),
      (nil, 66, "cannot read"),
    ]
      as [(String?, Int32, String)])
  func whitelistFileRefused(text: String?, status: Int32, message: String) throws {
    let directory = try TemporaryDirectory()
    let file = directory.file("whitelist.txt")
    if let text { try text.write(toFile: file, atomically: true, encoding: .utf8) }
    let result = try Self.run(["--port", "0", "--quiet", "--whitelist", file])
    #expect(result.status == status)
    #expect(result.stderr.hasPrefix("Error: "))
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }
}

extension ServerCommandTests {
  @Test(
    "exec --whitelist FILE runs the command against an emulator that activates only the file's UIDs"
  )
  func execWhitelist() throws {
    let directory = try TemporaryDirectory()
    let file = directory.file("whitelist.txt")
    try "\(Self.activated)\n".write(toFile: file, atomically: true, encoding: .utf8)
    let script = """
      curl -s "${TPNS_SERVER%/tpns}/_emulator/whitelist" | tr -d ' \\n'; echo
      curl -s -d "cmd=client&os=android&appid=com.example.app&udid=phone-1&token=fcm-1" "$TPNS_SERVER" >/dev/null
      curl -s -d "cmd=mapping&os=android&appid=com.example.app&udid=phone-1&uid=\(Self.other)" "$TPNS_SERVER"
      """
    let result = try Self.run(["exec", "--quiet", "--whitelist", file, "sh", "-c", script])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == "{\"enabled\":true,\"uids\":[\"\(Self.activated)\"]}\n422 not activated: \(Self.other)\n"
    )
  }
}
