import Foundation
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSServerCommand

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `tpns-server` binary (next to this test bundle in the build
/// directory) and compares stdout, stderr and the exit status.
@Suite("ServerCommand: the tpns-server binary")
struct ServerCommandTests {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static var binary: URL {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return executable.deletingLastPathComponent().appendingPathComponent("tpns-server")
  }

  static func run(_ arguments: [String], executable: URL = binary) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: String(decoding: errors, as: UTF8.self))
  }

  /// Starts the binary as a shell would, with an empty signal mask and default
  /// dispositions (`Process` passes on the mask of the test's thread, which blocks
  /// SIGHUP among others), its stdout going to the file `output`.
  static func spawn(_ arguments: [String], output: String) throws -> ChildProcess {
    try ChildProcess(
      ["sh", "-c", #"out=$1; shift; exec "$@" > "$out""#, "sh", output, binary.path] + arguments,
      environment: [:])
  }

  /// The exit status of `child` (128+N if signal N killed it), polled until a
  /// deadline; nil, and the child killed, if it is still running then.
  static func status(of child: ChildProcess, within seconds: Double = 10) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let status = child.poll() { return status }
      usleep(10_000)
    }
    child.send(SIGKILL)
    while child.poll() == nil { usleep(10_000) }
    return nil
  }

  @Test("the binary is next to the tests")
  func binaryExists() {
    #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path))
  }

  @Test("--help prints the help to stdout and exits 0", arguments: [["--help"], ["-h"]])
  func help(arguments: [String]) throws {
    let result = try Self.run(arguments)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout.hasPrefix(
        "OVERVIEW: A local emulator of the TUTK Push Notification Service (TPNS).\n"))
    #expect(
      result.stdout.contains(
        "USAGE: tpns-server [--host <host>] [--port <port>] [--db <path>] [--port-file <file>] "
          + "[--threads <n>] [--strict] [--quiet] [--allow-browser] [--tls-cert <file>] "
          + "[--tls-key <file>] [--whitelist <file>] [--import <file>] [--export-on-exit <file>] "
          + "[--version]\n"))
    #expect(
      result.stdout.contains("\n  --allow-browser         Run /tpns commands a browser sends"))
    #expect(result.stdout.contains("\n  --port <port>           The port to listen on;"))
    #expect(result.stdout.contains("\nSUBCOMMANDS:\n  exec "))
  }

  @Test(
    "a usage error is three lines on stderr and exit 64",
    arguments: [
      (["--foo"], "Error: Unknown option '--foo'"),
      (
        ["--port", "http"],
        "Error: The value 'http' is invalid for '--port <port>': it must be a whole number "
          + "from 0 to 65535"
      ),
      (
        ["--port", "99999"],
        "Error: The value '99999' is invalid for '--port <port>': it must be a whole number "
          + "from 0 to 65535"
      ),
      (
        ["--threads", "0"],
        "Error: The value '0' is invalid for '--threads <n>': it must be a whole number from 1 "
          + "to 64"
      ),
      (["--port"], "Error: Missing value for '--port <port>'"),
      (["exec"], "Error: Missing expected argument '<command>'"),
    ])
  func usageError(arguments: [String], first: String) throws {
    let result = try Self.run(arguments)
    #expect(result.status == 64)
    #expect(result.stdout == "")
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 4)  // three lines and the final newline
    #expect(lines.first.map(String.init) == first)
    #expect(lines.dropFirst().first?.hasPrefix("Usage: tpns-server") == true)
    #expect(lines.dropFirst(2).first?.hasPrefix("  See 'tpns-server") == true)
  }

  @Test("exec runs the command with TPNS_SERVER set and exits with its status")
  func exec() throws {
    let script = """
      echo "$TPNS_SERVER"
      curl -s -d cmd=device -d uid=ABCDEFGHJKLMNPRSTUVW "$TPNS_SERVER"
      curl -s "${TPNS_SERVER%/tpns}/_emulator/requests" | grep -c '"status" : 200'
      exit 3
      """
    let result = try Self.run(["exec", "--quiet", "--", "sh", "-c", script])
    #expect(result.status == 3)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(
      lines.first?.range(of: #"^http://127\.0\.0\.1:[0-9]+/tpns$"#, options: .regularExpression)
        != nil)
    #expect(lines.dropFirst().first == "200 ok: device ABCDEFGHJKLMNPRSTUVW announced")
    #expect(lines.last == "1")
  }

  @Test(
    "exec --strict refuses what a canonical client would not send; by default, a warning",
    arguments: [false, true])
  func strict(isStrict: Bool) throws {
    let script = """
      curl -s -o /dev/null -w '%{http_code}\\n' "$TPNS_SERVER?cmd=device&uid=ABCDEFGHJKLMNPRSTUVW&debug=1"
      """
    let result = try Self.run(["exec"] + (isStrict ? ["--strict"] : []) + ["sh", "-c", script])
    #expect(result.status == 0)
    #expect(result.stdout == (isStrict ? "400\n" : "200\n"))
    let reason = "unknown parameter 'debug' for cmd=device (known: uid)"
    let line = result.stderr.split(separator: "\n").first { $0.contains(" cmd=device ") }
    #expect(line?.contains(isStrict ? " 400 " : " 200 ") == true, "\(result.stderr)")
    #expect(
      line?.hasSuffix(isStrict ? "ms error: \(reason)" : "ms warning: \(reason) (recorded)")
        == true, "\(result.stderr)")
  }

  @Test("--version prints the version to stdout and exits 0, the one tpns --version starts with")
  func version() throws {
    let result = try Self.run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout == "\(TPNSVersion.current)\n")
    #expect(result.stderr == "")
    let tpns = try Self.run(
      ["--version"],
      executable: Self.binary.deletingLastPathComponent().appendingPathComponent("tpns"))
    #expect(tpns.stdout.hasPrefix("\(TPNSVersion.current) (libcurl "))
  }

  @Test(
    "exec: everything from the command's name on is the command's, with or without --",
    arguments: [
      ["exec", "--quiet", "sh", "-c", #"printf '%s|' "$0" "$@""#, "-zero", "--one"],
      ["exec", "--quiet", "--", "sh", "-c", #"printf '%s|' "$0" "$@""#, "-zero", "--one"],
      [
        "exec", "--db", "REGISTRY", "--quiet", "sh", "-c", #"printf '%s|' "$0" "$@""#, "-zero",
        "--one",
      ],
      ["exec", "--db=REGISTRY", "sh", "-c", #"printf '%s|' "$0" "$@""#, "-zero", "--one"],
    ])
  func execWithoutTerminator(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    let database = directory.file("registry.sqlite")
    let result = try Self.run(
      arguments.map { $0.replacingOccurrences(of: "REGISTRY", with: database) })
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "-zero|--one|")
    #expect(
      FileManager.default.fileExists(atPath: database)
        == arguments.contains { $0.contains("REGISTRY") })
  }

  @Test(
    "exec's command line gets a -- before the command's name when it has none",
    arguments: [
      (["exec", "sh", "-c", "x"], ["exec", "--", "sh", "-c", "x"]),
      (["exec", "--quiet", "sh", "--quiet"], ["exec", "--quiet", "--", "sh", "--quiet"]),
      (["exec", "--db", "r", "sh"], ["exec", "--db", "r", "--", "sh"]),
      (["exec", "--db=r", "sh"], ["exec", "--db=r", "--", "sh"]),
      (["exec", "sh", "--", "x"], ["exec", "--", "sh", "--", "x"]),
      (["exec", "--", "sh", "-c", "x"], ["exec", "--", "sh", "-c", "x"]),
      (["exec", "--quiet"], ["exec", "--quiet"]),
      (["exec", "--help"], ["exec", "--help"]),
      (["exec", "--db", "--quiet", "sh"], ["exec", "--db", "--quiet", "--", "sh"]),
      (["--port", "0"], ["--port", "0"]),
      (["help", "exec"], ["help", "exec"]),
    ] as [([String], [String])])
  func separatingCommand(arguments: [String], expected: [String]) {
    #expect(ServerCommand.Exec.separatingCommand(arguments) == expected)
  }

  @Test("a --db file that is not a database: exit 65 saying so and what to do, file untouched")
  func databaseNotADatabase() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("notes.txt")
    let text = Data("not a database, but someone's notes\n".utf8)
    #expect(FileManager.default.createFile(atPath: path, contents: text))
    let result = try Self.run(["--port", "0", "--db", path])
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "Error: cannot open the registry database '\(path)': it is not a SQLite database\n"
        + "--db takes a registry that tpns-server created, or a path where none exists yet "
        + "(one is created there); this file was left as it is.\n")
    #expect(result.stdout == "")
    #expect(contents(of: path) == text)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
  }

  @Test("another program's SQLite database: exit 65, not a registry, the file untouched")
  func databaseOfAnotherProgram() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("other.db")
    let sqlite = Process()
    sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    sqlite.arguments = [
      "python3", "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table clients(x)'); c.commit()",
      path,
    ]
    try sqlite.run()
    sqlite.waitUntilExit()
    let before = try #require(contents(of: path))
    let result = try Self.run(["--port", "0", "--db", path])
    #expect(result.status == 65)
    #expect(
      result.stderr.hasPrefix(
        "Error: cannot open the registry database '\(path)': it is not a tpns-server registry "
          + "(its 'clients' table is not the registry's ("))
    #expect(contents(of: path) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["other.db"])
  }

  @Test("a --db another process keeps locked: exit 75 after the busy timeout, naming the cause")
  func databaseLocked() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry.sqlite")
    // Holds an exclusive lock until its standard input closes.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    holder.arguments = [
      "python3", "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], isolation_level=None); "
        + "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read()",
      path,
    ]
    let input = Pipe()
    let output = Pipe()
    holder.standardInput = input
    holder.standardOutput = output
    try holder.run()
    defer {
      try? input.fileHandleForWriting.close()
      holder.waitUntilExit()
    }
    // Its line, once the lock is held (read until the line ends, or it exits).
    var said = Data()
    while !said.contains(UInt8(ascii: "\n")) {
      let more = output.fileHandleForReading.availableData
      if more.isEmpty { break }
      said += more
    }
    #expect(String(decoding: said, as: UTF8.self) == "locked\n")
    let result = try Self.run(["--port", "0", "--db", path])
    #expect(result.status == 75)
    #expect(
      result.stderr
        == "Error: cannot open the registry database '\(path)': another process kept it locked "
        + "for 5 s\nAnother process holds the database (a tpns-server, sqlite3): try again once "
        + "it is done.\n")
  }

  @Test("a --db directory: exit 73 naming a file in it to use instead")
  func databaseDirectory() throws {
    let directory = try TemporaryDirectory()
    let result = try Self.run(["exec", "--db", directory.path, "true"])
    #expect(result.status == 73)
    #expect(
      result.stderr
        == "Error: cannot open the registry database '\(directory.path)': it is a directory, "
        + "not a SQLite database\n"
        + "--db takes a file's path: pass one in that directory, such as "
        + "--db \(directory.path)/registry.sqlite.\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
  }

  @Test("exec reports a command that cannot be found with 127")
  func execNotFound() throws {
    let result = try Self.run(["exec", "--quiet", "--", "no-such-command-tpns"])
    #expect(result.status == 127)
    #expect(result.stderr.hasPrefix("Error: cannot run 'no-such-command-tpns'"))
  }

  @Test("exec reports a command killed by signal N as 128+N")
  func execSignal() throws {
    let result = try Self.run(["exec", "--quiet", "--", "sh", "-c", "kill -TERM $$"])
    #expect(result.status == 128 + SIGTERM)
  }

  @Test(
    "exec forwards SIGHUP and SIGTERM to the command and exits with its status",
    arguments: [SIGHUP, SIGTERM])
  func execForwardsSignals(signal: Int32) throws {
    let directory = try TemporaryDirectory()
    let output = directory.file("stdout")
    let child = try Self.spawn(
      [
        "exec", "--quiet", "--", "sh", "-c",
        "trap 'exit 42' HUP TERM; echo ready; while :; do sleep 0.05; done",
      ], output: output)
    // Wait (with a deadline) until the command has set its trap.
    let deadline = Date().addingTimeInterval(10)
    while (try? String(contentsOfFile: output, encoding: .utf8)) != "ready\n" && Date() < deadline {
      usleep(10_000)
    }
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "ready\n")
    child.send(signal)
    #expect(Self.status(of: child) == 42)
  }

  @Test("--version to a full disk exits 74: output that went missing is no success")
  func versionOutputLost() throws {
    let result = try Self.run(
      ["-c", #""$0" --version > /dev/full"#, Self.binary.path],
      executable: URL(fileURLWithPath: "/bin/sh"))
    #expect(result.status == 74)
    #expect(result.stderr.hasPrefix("Error: standard output could not be written: "))
  }

  /// A write that fails (here: a file size limit of 0, as a full disk would) must not
  /// leave an empty port file in place while the server keeps running.
  @Test("a port file that cannot be written is an error and exit 73, not an empty file")
  func portFileWriteFails() throws {
    let directory = try TemporaryDirectory()
    let portFile = directory.file("port")
    // `timeout`: a server that wrongly keeps running is stopped (124), not waited for.
    let script = #"trap '' XFSZ; ulimit -f 0; exec timeout 10 "$0" --port 0 --port-file "$1""#
    let result = try Self.run(
      ["-c", script, Self.binary.path, portFile], executable: URL(fileURLWithPath: "/bin/sh"))
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("Error: cannot write the port file '\(portFile)': "))
    #expect(
      result.stderr.hasSuffix(
        "\nPass a --port-file that names a file in a directory you can write.\n"))
    #expect(result.stdout == "")
    #expect(!FileManager.default.fileExists(atPath: portFile))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(leftovers.isEmpty)
  }

  @Test(
    "SIGHUP, SIGINT and SIGTERM stop the server cleanly: exit 0, port file removed",
    arguments: [SIGHUP, SIGINT, SIGTERM])
  func stopSignal(signal: Int32) throws {
    let directory = try TemporaryDirectory()
    let portFile = directory.file("port")
    let database = directory.file("registry.sqlite")

    let output = directory.file("stdout")
    let child = try Self.spawn(
      ["--port", "0", "--port-file", portFile, "--db", database], output: output)

    let deadline = Date().addingTimeInterval(10)
    var port: String?
    while port == nil && Date() < deadline {
      port = (try? String(contentsOfFile: portFile, encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines)
      if port == nil { usleep(10_000) }
    }
    let chosen = try #require(port)
    let health = Process()
    health.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    health.arguments = ["-fsS", "-o", "/dev/null", "http://127.0.0.1:\(chosen)/_emulator/health"]
    try health.run()
    health.waitUntilExit()
    #expect(health.terminationStatus == 0)

    child.send(signal)
    #expect(Self.status(of: child) == 0)
    let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
      .map(String.init)
    #expect(lines.first == "listening on http://127.0.0.1:\(chosen)/tpns")
    #expect(lines.contains { $0.contains("GET /_emulator/health 200") })
    #expect(lines.last == "stopped")
    #expect(!FileManager.default.fileExists(atPath: portFile))
    #expect(FileManager.default.fileExists(atPath: database))
  }

  @Test("two servers started at the same moment on a new --db both listen: one waits for the other")
  func twoServersOnANewDatabase() throws {
    // The race is in SQLite's setup of a new file: a few rounds make it likely.
    for round in 0..<5 {
      let directory = try TemporaryDirectory()
      let database = directory.file("registry.sqlite")
      let children = try ["a", "b"].map { name in
        (
          name,
          // Its stderr too, to say why it did not start.
          try ChildProcess(
            [
              "sh", "-c", #"out=$1; shift; exec "$@" > "$out" 2>&1"#, "sh",
              directory.file("\(name).out"), Self.binary.path, "--port", "0", "--port-file",
              directory.file("\(name).port"), "--db", database,
            ], environment: [:])
        )
      }
      let deadline = Date().addingTimeInterval(10)
      for (name, child) in children {
        let portFile = directory.file("\(name).port")
        while !FileManager.default.fileExists(atPath: portFile), child.poll() == nil,
          Date() < deadline
        {
          usleep(10_000)
        }
        let output = try? String(contentsOfFile: directory.file("\(name).out"), encoding: .utf8)
        #expect(
          FileManager.default.fileExists(atPath: portFile),
          "round \(round), server \(name): \(output ?? "")")
        child.send(SIGTERM)
        #expect(Self.status(of: child) == 0, "round \(round), server \(name)")
      }
    }
  }

  /// Starts the binary on `database` and returns it with its port, read from its port file.
  static func start(
    database: String, in directory: TemporaryDirectory, _ name: String, _ more: [String] = []
  ) throws -> (ChildProcess, String) {
    let portFile = directory.file("\(name).port")
    let child = try spawn(
      ["--port", "0", "--port-file", portFile, "--db", database, "--quiet"] + more,
      output: directory.file("\(name).out"))
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if let port = (try? String(contentsOfFile: portFile, encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines), !port.isEmpty
      {
        return (child, port)
      }
      usleep(10_000)
    }
    child.send(SIGKILL)
    _ = status(of: child)
    throw CocoaError(.fileNoSuchFile)
  }

  /// curl's stdout for `arguments`.
  static func curl(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-fsS"] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  @Test(
    "a registration answered is in the --db file: killed with SIGKILL, the server restarts with it")
  func registrationSurvivesKill() throws {
    let directory = try TemporaryDirectory()
    let database = directory.file("registry.sqlite")
    let (first, port) = try Self.start(database: database, in: directory, "first")
    let answer = try Self.curl([
      "-d", "cmd=client&os=android&appid=com.example.app&udid=phone-1&token=fcm-1",
      "http://127.0.0.1:\(port)/tpns",
    ])
    #expect(answer.hasPrefix("200 ok: client registered"))
    first.send(SIGKILL)
    #expect(Self.status(of: first) == 128 + SIGKILL)
    let (second, again) = try Self.start(database: database, in: directory, "second")
    defer {
      second.send(SIGTERM)
      _ = Self.status(of: second)
    }
    let registry = try Self.curl(["http://127.0.0.1:\(again)/_emulator/registry"])
    #expect(registry.contains("\"udid\" : \"phone-1\""))
    #expect(registry.contains("\"token\" : \"fcm-1\""))
  }
}
