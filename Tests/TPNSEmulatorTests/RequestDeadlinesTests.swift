import Locking
import Testing

@testable import TPNSEmulator

/// The deadlines on their own, on a clock the test turns (sockets are -1: nothing is
/// really shut down, the counts show what was closed).
@Suite("RequestDeadlines: slow requests closed")
struct RequestDeadlinesTests {
  static let second: UInt64 = 1_000_000_000

  /// Deadlines of 10 s for at most `maximum` incomplete requests, on `clock`.
  static func deadlines(_ clock: LockedState<UInt64>, maximum: Int = 500) -> RequestDeadlines {
    RequestDeadlines(headTimeout: 10, maximumIncomplete: maximum, clock: { clock.value })
  }

  @Test("a head not received within the timeout is closed; one received is not")
  func lateHead() {
    let clock = LockedState(100 * Self.second)
    let deadlines = Self.deadlines(clock)
    _ = deadlines.opened(socket: -1)
    let prompt = deadlines.opened(socket: -1)
    deadlines.headReceived(prompt)
    clock.withLock { $0 += 10 * Self.second }
    deadlines.closeLateHeads()
    #expect(deadlines.counts == (open: 2, incomplete: 2))  // 10 s: not yet late
    clock.withLock { $0 += 1 }
    deadlines.closeLateHeads()
    #expect(deadlines.counts == (open: 2, incomplete: 1))  // the one still sending its body
  }

  @Test("the next head of a keep-alive connection is due from its answer")
  func keepAlive() {
    let clock = LockedState(100 * Self.second)
    let deadlines = Self.deadlines(clock)
    let connection = deadlines.opened(socket: -1)
    deadlines.headReceived(connection)
    deadlines.requestReceived(connection)
    clock.withLock { $0 += 60 * Self.second }  // a minute being answered
    deadlines.closeLateHeads()
    #expect(deadlines.counts == (open: 1, incomplete: 0))
    deadlines.answered(connection)
    clock.withLock { $0 += 9 * Self.second }
    deadlines.closeLateHeads()
    #expect(deadlines.counts == (open: 1, incomplete: 1))
    clock.withLock { $0 += 2 * Self.second }
    deadlines.closeLateHeads()
    #expect(deadlines.counts == (open: 1, incomplete: 0))
    deadlines.closed(connection)
    #expect(deadlines.counts == (open: 0, incomplete: 0))
  }

  /// The timer read the clock, then waited for the lock while the serving thread
  /// stamped a later start: the difference wrapped around and a busy connection was
  /// closed (a wrk read error).
  @Test("a request stamped after the clock was read is not late")
  func startAfterReading() {
    let clock = LockedState(100 * Self.second)
    let deadlines = Self.deadlines(clock)
    let connection = deadlines.opened(socket: -1)
    deadlines.requestReceived(connection)
    clock.withLock { $0 += 1 }
    deadlines.answered(connection)
    clock.withLock { $0 -= 1 }  // as if read before the stamp
    deadlines.closeLateHeads()
    #expect(deadlines.counts == (open: 1, incomplete: 1))
  }

  @Test("past the most incomplete requests, a new connection closes the longest waiting")
  func longestWaiting() {
    let clock = LockedState(100 * Self.second)
    let deadlines = Self.deadlines(clock, maximum: 2)
    var connections: [RequestDeadlines.Connection] = []
    func open() {
      connections.append(deadlines.opened(socket: -1))
      clock.withLock { $0 += 1 }
    }
    open()
    open()
    open()  // a third sending: the first is closed
    #expect(connections.map(deadlines.wasClosed) == [true, false, false])
    #expect(deadlines.counts == (open: 3, incomplete: 2))
    deadlines.requestReceived(connections[2])  // being answered: no longer sending
    open()  // room for it
    #expect(connections.map(deadlines.wasClosed) == [true, false, false, false])
    open()  // the longest waiting is the second (the third is being answered)
    #expect(connections.map(deadlines.wasClosed) == [true, true, false, false, false])
    #expect(deadlines.counts == (open: 5, incomplete: 2))
    deadlines.answered(connections[0])  // a closed one is not waiting again
    #expect(deadlines.counts == (open: 5, incomplete: 2))
    for connection in connections { deadlines.closed(connection) }
    #expect(deadlines.counts == (open: 0, incomplete: 0))
  }
}
