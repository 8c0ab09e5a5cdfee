import Locking
import Testing

@testable import Reactive

#if canImport(Glibc)
  import Glibc
#endif

@Suite("RunLoopScheduler: actions run on the thread that drives it")
struct RunLoopSchedulerTests {
  /// An identifier of the calling thread.
  static var thread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

  @Test("actions run in the order they are due, then in the order scheduled, on the driving thread")
  func order() {
    let loop = RunLoopScheduler()
    let ran = LockedState<[(String, UInt)]>([])
    loop.schedule(after: .milliseconds(20)) { ran.withLock { $0.append(("late", Self.thread)) } }
    loop.schedule { ran.withLock { $0.append(("first", Self.thread)) } }
    loop.schedule { ran.withLock { $0.append(("second", Self.thread)) } }
    loop.schedule(after: .milliseconds(5)) { ran.withLock { $0.append(("soon", Self.thread)) } }
    let done = loop.run(until: { ran.value.count == 4 }, timeout: .seconds(5))
    #expect(done)
    #expect(ran.value.map(\.0) == ["first", "second", "soon", "late"])
    #expect(ran.value.allSatisfy { $0.1 == Self.thread })
  }

  @Test("a delayed action waits its delay on the scheduler's clock")
  func delay() {
    let loop = RunLoopScheduler()
    let ranAt = LockedState<Duration?>(nil)
    let start = loop.now
    loop.schedule(after: .milliseconds(30)) { ranAt.withLock { $0 = loop.now } }
    #expect(loop.run(until: { ranAt.value != nil }, timeout: .seconds(5)))
    #expect((ranAt.value ?? .zero) - start >= .milliseconds(30))
  }

  @Test("an action disposed before it is due does not run")
  func cancelled() {
    let loop = RunLoopScheduler()
    let ran = LockedState(false)
    loop.schedule { ran.withLock { $0 = true } }.dispose()
    let marker = LockedState(false)
    loop.schedule { marker.withLock { $0 = true } }
    #expect(loop.run(until: { marker.value }, timeout: .seconds(5)))
    #expect(!ran.value)
  }

  @Test("an action scheduled from another thread wakes the loop, and runs on the driving thread")
  func crossThread() {
    let loop = RunLoopScheduler()
    let ranOn = LockedState<UInt?>(nil)
    let driver = Self.thread
    let other = SerialDispatchQueueScheduler(label: "other")
    other.schedule(after: .milliseconds(10)) {
      loop.schedule { ranOn.withLock { $0 = Self.thread } }
    }
    #expect(loop.run(until: { ranOn.value != nil }, timeout: .seconds(5)))
    #expect(ranOn.value == driver)
  }

  @Test("the limit passes: run returns false, with nothing done")
  func timeout() {
    let loop = RunLoopScheduler()
    #expect(!loop.run(until: { false }, timeout: .milliseconds(20)))
  }

  @Test("toBlocking(on:) runs the sequence's scheduled work on the waiting thread")
  func blocking() throws {
    let loop = RunLoopScheduler()
    let threads = LockedState<[UInt]>([])
    let values = try Observable.of(1, 2, 3)
      .observe(on: loop)
      .do(onNext: { _ in threads.withLock { $0.append(Self.thread) } })
      .toBlocking(timeout: .seconds(5), on: loop)
      .toArray()
    #expect(values == [1, 2, 3])
    #expect(threads.value == Array(repeating: Self.thread, count: 3))
  }

  @Test("a sequence that never ends times out through the loop")
  func blockingTimeout() {
    let loop = RunLoopScheduler()
    #expect(throws: ReactiveError.self) {
      _ = try Observable<Int>.never().toBlocking(timeout: .milliseconds(20), on: loop).toArray()
    }
  }
}
