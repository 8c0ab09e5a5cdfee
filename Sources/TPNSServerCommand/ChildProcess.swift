import Glibc

/// A child process started with `posix_spawnp`, with its signals back to defaults.
struct ChildProcess {
  let pid: pid_t

  struct SpawnError: Error {
    var command: String
    var code: Int32
  }

  /// Starts `arguments[0]` (looked up in `PATH`) with the current environment plus
  /// `environment`, an empty signal mask, and default SIGHUP, SIGINT, SIGTERM, SIGPIPE
  /// and SIGCHLD dispositions (the parent blocks or ignores them).
  init(_ arguments: [String], environment: [String: String]) throws(SpawnError) {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var variables: [String] = []
    var index = 0
    while let entry = environ[index] {
      let text = String(cString: entry)
      if environment[String(text.prefix { $0 != "=" })] == nil { variables.append(text) }
      index += 1
    }
    variables += environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = variables.map { strdup($0) } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let code = posix_spawnp(&pid, arguments[0], nil, &attributes, argv, envp)
    guard code == 0 else { throw SpawnError(command: arguments[0], code: code) }
    self.pid = pid
  }

  /// The exit status if the child has ended (reaping it), else nil: its exit code,
  /// or 128 + N when killed by signal N (as a shell reports it).
  func poll() -> Int32? {
    var status: Int32 = 0
    let result = waitpid(pid, &status, WNOHANG)
    guard result == pid else { return result < 0 ? 1 : nil }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  func send(_ signal: Int32) {
    kill(pid, signal)
  }
}
