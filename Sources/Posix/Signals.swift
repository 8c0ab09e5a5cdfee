#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Signal handling without handlers: the signals are blocked in every thread (set
/// before any thread starts, so libmicrohttpd's threads inherit the mask) and the
/// main thread takes them with `sigwaitinfo`. For servers and watchers that
/// run until SIGINT or SIGTERM.
///
///     let signals = Signals(blocking: [SIGINT, SIGTERM])  // before starting threads
///     _ = signals.wait()
public struct Signals: Sendable {
  private var set = sigset_t()

  /// Blocks `signals` in the calling thread and in threads created afterwards, and
  /// ignores SIGPIPE (a client that hangs up must not end the server).
  public init(blocking signals: [Int32]) {
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
    signal(SIGPIPE, SIG_IGN)
  }

  /// Waits for one of the blocked signals; returns it and whether a process sent it
  /// with `kill` (rather than the terminal or the kernel).
  public func wait() -> (signal: Int32, isFromProcess: Bool) {
    var info = siginfo_t()
    var set = set
    while true {
      let signal = sigwaitinfo(&set, &info)
      if signal > 0 { return (signal, info.si_code <= 0) }
    }
  }
}
