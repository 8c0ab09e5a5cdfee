import Foundation
import TPNSTestSupport
import Testing

/// A token file is the secret itself, and whoever wrote it chooses the phone
/// the cameras push to: `register --token-file` holds it to what ssh asks of a
/// private key. A regular file must be this user's (or root's) and private
/// (none of the `077` bits); a pipe is the process's own. A store others may
/// read (it holds the token) is warned about.
@Suite struct TokenFileTrustTests {
  static let token = EndToEnd.token
  /// A server nothing listens on: a refused file fails before any request.
  static let server = "http://127.0.0.1:1/tpns"

  /// `token` in a new file at `path`, with `mode`.
  static func write(_ path: String, mode: mode_t) throws {
    try "\(token)\n".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(chmod(path, mode) == 0)
  }

  @Test(
    "a token file the group or others may read or write is refused: exit 73 naming it and chmod 600; nothing stored",
    arguments: [0o644, 0o640, 0o604, 0o620, 0o660] as [mode_t])
  func exposedFile(mode: mode_t) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    let file = directory.file("token.txt")
    try Self.write(file, mode: mode)
    let octal = "0" + String(mode, radix: 8)
    let result = try tpns.run(["register", "--token-file", file])
    #expect(result.status == 73)
    #expect(
      result.stderr
        == "Error: the token file \(file) may be read or written by group or others (mode "
        + "\(octal)); refusing to read it, as ssh refuses such a private key\n"
        + "Run 'chmod 600 \(file)' (write token files under 'umask 077'), or pass the token on "
        + "standard input (--token-file -).\n")
    // The same file as standard input is the same file.
    let redirected = try tpns.run(viaShell: "exec \"$0\" register --token-file - < '\(file)'")
    #expect(redirected.status == 73)
    #expect(redirected.stderr.hasPrefix("Error: the token file <stdin> may be read"))
    #expect(contents(of: tpns.store) == nil)
  }

  @Test("a named pipe another user owns is refused before it is opened, not waited on")
  func otherOwnersPipe() throws {
    guard getuid() == 0, let nobody = getpwnam("nobody") else { return }
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    let pipe = directory.file("token.fifo")
    #expect(mkfifo(pipe, 0o666) == 0)
    #expect(chown(pipe, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0)
    // No writer: opening the pipe would wait until the test's limit.
    let result = try tpns.run(["register", "--token-file", pipe], timeout: .seconds(20))
    #expect(result.status == 73)
    #expect(
      result.stderr.hasPrefix("Error: the token file \(pipe) belongs to another user (nobody,"))
    #expect(contents(of: tpns.store) == nil)
  }

  @Test("a token file another user owns is refused: exit 73 naming its owner and the fix")
  func otherOwner() throws {
    guard getuid() == 0, let nobody = getpwnam("nobody") else { return }
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    let file = directory.file("token.txt")
    try Self.write(file, mode: 0o600)
    #expect(chown(file, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0)
    let result = try tpns.run(["register", "--token-file", file, "--json"])
    #expect(result.status == 73)
    #expect(
      result.stderr
        == "Error: the token file \(file) belongs to another user (nobody, uid "
        + "\(nobody.pointee.pw_uid)), who could have put their own phone's token in it; "
        + "refusing to read it\n"
        + "Write the token to a file of your own with '(umask 077; printf '%s' TOKEN > "
        + "token.txt)', or pass it on standard input (--token-file -).\n")
    let document = try JSONDocumentTests.document(result.stdout)
    #expect(document["exit_code"] as? Int == 73)
    #expect(contents(of: tpns.store) == nil)
  }

  @Test(
    "a private token file, a pipe on standard input, /dev/stdin and <(...) all register the token",
    arguments: [
      "exec \"$0\" register --token-file \"$TOKEN_FILE\"",
      "printf '%s\\n' \"$TOKEN\" | exec \"$0\" register --token-file -",
      "printf '%s\\n' \"$TOKEN\" | exec \"$0\" register --token-file /dev/stdin",
      "exec \"$0\" register --token-file <(printf '%s\\n' \"$TOKEN\")",
      "exec \"$0\" register --token-file - < \"$TOKEN_FILE\"",
    ])
  func privateSources(script: String) throws {
    let e2e = try EndToEnd()
    let file = e2e.directory.file("token.txt")
    try Self.write(file, mode: 0o600)
    let result = try e2e.tpns.run(
      ["-c", script, TPNSProcess.binary],
      environment: ["TOKEN": Self.token, "TOKEN_FILE": file], executable: "/bin/bash")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(try TokenSourceTests.registered(e2e))
  }

  @Test("a store the group or others may read is warned about, naming it and chmod 600")
  func exposedStore() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    #expect(try tpns.run(["add", "--no-sync", "ABCDEFGHJKLMNPRSTUVW"]).stderr == "")
    #expect(chmod(tpns.store, 0o644) == 0)
    let warning =
      "Warning: the store \(tpns.store) is readable by group or others (mode 0644), and tpns "
      + "keeps the push token there; run 'chmod 600 \(tpns.store)'\n"
    let list = try tpns.run(["list"])
    #expect(list.status == 0)
    #expect(list.stderr == warning)
    let added = try tpns.run(["add", "--no-sync", "0123456789ABCDEFGHJK", "--json"])
    #expect(added.stderr == warning)
    let document = try JSONDocumentTests.document(added.stdout)
    #expect(document["warnings"] as? [String] == [String(warning.dropFirst(9).dropLast())])
    #expect(chmod(tpns.store, 0o600) == 0)
    #expect(try tpns.run(["list"]).stderr == "")
  }
}
