import Dispatch
import Glibc

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

  /// Waits, on a thread of its own, for the first of the blocked signals,
  /// and runs `handler` with it there.
  public func handleOnce(_ handler: @escaping @Sendable (Int32) -> Void) {
    // A queue of its own: no other work waits behind this wait, which may last for good.
    DispatchQueue(label: "tpns.signals").async { handler(self.wait().signal) }
  }

  /// Ends the process by `signal` as if it had never been taken (its
  /// default action, unblocked): what a shell expects of a command that a
  /// Ctrl-C stopped, after it said what it had to say.
  public static func endBy(_ number: Int32) -> Never {
    signal(number, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, number)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(number)
    // A signal whose default action does not end the process.
    exit(128 + number)
  }

  /// The signals that mean the process crashed.
  public static let fatal = [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS]

  /// Gives each of ``fatal`` its default action back, unblocked, so that a crash ends the
  /// process at once, its reason (`Fatal error: …`) printed first. The Swift runtime's
  /// backtracer, kept with `SWIFT_BACKTRACE`, waits forever for threads that block every
  /// signal (libdispatch's): a crashed `tpns watch` would never end to be restarted.
  public static func endOnFatalSignals() {
    guard getenv("SWIFT_BACKTRACE") == nil else { return }
    var set = sigset_t()
    sigemptyset(&set)
    for number in fatal {
      signal(number, SIG_DFL)
      sigaddset(&set, number)
    }
    // A parent's mask is inherited: one that blocks them would keep them pending.
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }
}
