import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSServerCommand

#if canImport(Glibc)
  import Glibc
#endif

/// `--port-file` in a directory others can write to (`/tmp`): a symbolic link planted
/// where tpns-server writes must not make it overwrite the link's target, and the
/// file it leaves must be its own.
@Suite("PortFile: written safely, removed only when still the server's own")
struct PortFileTests {
  /// Runs `script` under `sh -c` with `$0` the binary and `$1...` `arguments`, and
  /// waits (with a deadline) until `portFile` holds a port (a number and a newline);
  /// returns the child and the port.
  static func start(_ script: String, _ arguments: [String], portFile: String) throws -> (
    ChildProcess, port: String?
  ) {
    let child = try ChildProcess(
      ["sh", "-c", script, ServerCommandTests.binary.path] + arguments, environment: [:])
    let deadline = Date().addingTimeInterval(10)
    var port: String?
    while port == nil && Date() < deadline {
      port = (try? String(contentsOfFile: portFile, encoding: .utf8))
        .flatMap { $0.hasSuffix("\n") ? String($0.dropLast()) : nil }
        .flatMap { UInt16($0) != nil ? $0 : nil }
      if port == nil { usleep(10_000) }
    }
    return (child, port)
  }

  /// What `lstat` says `path` is, without following a link.
  static func kind(of path: String) -> mode_t {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
  }

  @Test("links planted at the port file and at its temporary name are not followed")
  func plantedLinks() throws {
    let directory = try TemporaryDirectory()
    let portFile = directory.file("port")
    let victim = directory.file("victim")
    try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
    // `$$` is the shell's pid, which `exec` hands to tpns-server: the link is where the
    // server wrote its temporary file, `<file>.<pid>.tmp`.
    let script = #"""
      umask 022; ln -s "$2" "$1.$$.tmp"; ln -s "$2" "$1"
      exec "$0" --port 0 --quiet --port-file "$1"
      """#
    let (child, port) = try Self.start(script, [portFile, victim], portFile: portFile)
    #expect(port != nil)
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    #expect(Self.kind(of: portFile) == S_IFREG)
    #expect(permissions(of: portFile) == 0o644)

    child.send(SIGTERM)
    #expect(ServerCommandTests.status(of: child) == 0)
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    #expect(Self.kind(of: portFile) == 0)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(left.filter { !$0.hasSuffix(".tmp") }.sorted() == ["victim"])
  }

  @Test("on exit, a port file another server wrote since is left in place")
  func replacedPortFile() throws {
    let directory = try TemporaryDirectory()
    let portFile = directory.file("port")
    let (child, port) = try Self.start(
      #"exec "$0" --port 0 --quiet --port-file "$1""#, [portFile], portFile: portFile)
    #expect(port != nil)
    // Another server's port file, renamed into place as tpns-server writes its own.
    let other = directory.file("other")
    try "12345\n".write(toFile: other, atomically: false, encoding: .utf8)
    #expect(rename(other, portFile) == 0)

    child.send(SIGTERM)
    #expect(ServerCommandTests.status(of: child) == 0)
    #expect(try String(contentsOfFile: portFile, encoding: .utf8) == "12345\n")
  }
}
