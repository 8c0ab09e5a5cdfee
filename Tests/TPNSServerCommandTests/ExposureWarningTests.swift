import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSServerCommand

#if canImport(Glibc)
  import Glibc
#endif

/// `--host` decides who can reach the registry and every token in it: one that is not
/// loopback is said so on stderr, even with `--quiet`.
@Suite("ServerCommand: a --host open to the network is warned about")
struct ExposureWarningTests {
  @Test(
    "--host other than loopback warns on stderr that the tokens are open to the network",
    arguments: [
      ("0.0.0.0", true), ("127.0.0.1", false), ("127.0.0.2", false), ("localhost", false),
    ])
  func exposedHost(host: String, warns: Bool) throws {
    let directory = try TemporaryDirectory()
    let portFile = directory.file("port")
    let errors = directory.file("stderr")
    let (child, port) = try PortFileTests.start(
      #"exec "$0" --host "$1" --port 0 --quiet --port-file "$2" 2> "$3""#,
      [host, portFile, errors], portFile: portFile)
    #expect(port != nil)
    child.send(SIGTERM)
    #expect(ServerCommandTests.status(of: child) == 0)
    let stderr = try String(contentsOfFile: errors, encoding: .utf8)
    let warning =
      "warning: --host \(host) is not a loopback address: anyone who can reach it can read "
      + "every push token in the registry (/_emulator/registry, /_emulator/requests), empty "
      + "it, or register tokens of their own\n"
    #expect(stderr == (warns ? warning : ""))
  }
}
