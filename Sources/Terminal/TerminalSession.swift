import CTerminal
import Glibc
import Posix

/// The terminal of a full-screen program, from ``enter()`` to
/// ``restore()``: raw mode, the alternate screen, the cursor hidden. It is
/// put back as it was on every way out: ``restore()``, `exit`, a fatal
/// signal on any thread, and SIGINT, SIGTERM, SIGHUP or SIGQUIT, which arrive
/// as ``Event/signal(_:)`` for the program to end by (``end(with:)``).
///
///     let terminal = try TerminalSession.enter()
///     defer { terminal.restore() }
///     for event in terminal.wait(wake: pipe) { … }
public final class TerminalSession: Sendable {
  /// What ``wait(wake:)`` saw: bytes typed or pasted, a resize (SIGWINCH),
  /// SIGINT, SIGTERM, SIGHUP or SIGQUIT, the end of the input (the terminal
  /// is gone), or a byte on the wake descriptor.
  public enum Event: Sendable, Equatable {
    case input([UInt8])
    case resized
    case signal(Int32)
    case hangUp, woken
  }

  /// Why the terminal could not be set up.
  public struct SetupError: Error, CustomStringConvertible {
    public let errno: Int32
    public var description: String {
      "cannot set up the terminal: \(String(cString: strerror(errno)))"
    }
  }

  private let signalRead: Int32

  private init(signalRead: Int32) {
    self.signalRead = signalRead
  }

  /// Whether standard input and output are terminals (a full-screen program needs both).
  public static func isTerminal() -> Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }

  /// Takes over the terminal: raw mode on standard input, the alternate
  /// screen on standard output, the signal handlers installed.
  public static func enter() throws -> TerminalSession {
    let signals = try WakePipe()
    let enter = ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.clearScreen
    let leave =
      ANSI.resetAttributes + ANSI.clearScreen + ANSI.leaveAlternateScreen
      + ANSI.showCursor
    guard tpns_terminal_enter(STDIN_FILENO, enter, leave, signals.writeEnd) == 0 else {
      let error = errno
      close(signals.readEnd)
      close(signals.writeEnd)
      throw SetupError(errno: error)
    }
    return TerminalSession(signalRead: signals.readEnd)
  }

  /// The size in cells (80×24 when the terminal does not say).
  public var size: (columns: Int, rows: Int) {
    var columns: Int32 = 0
    var rows: Int32 = 0
    tpns_terminal_size(STDOUT_FILENO, &columns, &rows)
    return columns > 0 && rows > 0 ? (Int(columns), Int(rows)) : (80, 24)
  }

  /// Writes `text` whole.
  public func write(_ text: String) {
    Console.write(text, to: STDOUT_FILENO)
  }

  /// Waits for input, a signal, or a byte on `wake`, and returns what
  /// happened. Reads never block: a slow pipeline never holds up a key.
  public func wait(wake: Int32) -> [Event] {
    var descriptors = [
      pollfd(fd: signalRead, events: Int16(POLLIN), revents: 0),
      pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
    ]
    let ready = poll(&descriptors, 3, -1)
    guard ready > 0 else { return [] }
    var events: [Event] = []
    if descriptors[0].revents & Int16(POLLIN) != 0 {
      for byte in Self.drain(signalRead) {
        events.append(byte == UInt8(SIGWINCH) ? .resized : .signal(Int32(byte)))
      }
    }
    if descriptors[1].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(STDIN_FILENO, &buffer, buffer.count)
      if count > 0 {
        events.append(.input(Array(buffer[0..<count])))
      } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
        events.append(.hangUp)
      }
    }
    if descriptors[2].revents & Int16(POLLIN) != 0 {
      _ = Self.drain(wake)
      events.append(.woken)
    }
    return events
  }

  private static func drain(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { return bytes }
      bytes += buffer[0..<count]
    }
  }

  /// Puts the terminal back as it was (once; later calls do nothing).
  public func restore() {
    tpns_terminal_restore()
  }

  /// Puts the terminal back, then ends the process by `signal` (its default
  /// action): how a program that caught SIGTERM to clean up should end.
  public func end(with signal: Int32) -> Never {
    tpns_terminal_restore()
    Signals.endBy(signal)
  }
}

/// A pipe another thread writes a byte to, to wake ``TerminalSession/wait(wake:)``.
public struct WakePipe: Sendable {
  /// The end to wait on.
  public let readEnd: Int32
  let writeEnd: Int32

  /// A new non-blocking pipe.
  public init() throws {
    var descriptors: [Int32] = [0, 0]
    guard tpns_terminal_pipe(&descriptors) == 0 else {
      throw TerminalSession.SetupError(errno: errno)
    }
    readEnd = descriptors[0]
    writeEnd = descriptors[1]
  }

  /// Wakes the waiter (a full pipe already will).
  public func wake() {
    var byte: UInt8 = 1
    _ = Glibc.write(writeEnd, &byte, 1)
  }
}
