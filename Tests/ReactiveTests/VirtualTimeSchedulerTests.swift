import Locking
import Reactive
import ReactiveTesting
import Testing

@Suite struct VirtualTimeSchedulerTests {
  @Test("actions run in due-time order, then in scheduling order, and move the clock")
  func ordering() {
    let scheduler = VirtualTimeScheduler(initialClock: 0)
    let log = LockedState<[String]>([])
    scheduler.schedule(at: 20) { log.withLock { $0.append("b@\(scheduler.clock)") } }
    scheduler.schedule(at: 10) { log.withLock { $0.append("a@\(scheduler.clock)") } }
    scheduler.schedule(at: 20) { log.withLock { $0.append("c@\(scheduler.clock)") } }
    scheduler.schedule(after: .milliseconds(5)) {
      log.withLock { $0.append("d@\(scheduler.clock)") }
      scheduler.schedule { log.withLock { $0.append("e@\(scheduler.clock)") } }
    }
    scheduler.start()
    #expect(log.value == ["d@5", "e@5", "a@10", "b@20", "c@20"])
    #expect(scheduler.now == .milliseconds(20))
  }

  @Test("advance(to:) runs only what is due and sets the clock")
  func advance() {
    let scheduler = VirtualTimeScheduler()
    let ran = LockedState<[Int]>([])
    scheduler.schedule(at: 10) { ran.withLock { $0.append(10) } }
    scheduler.schedule(at: 30) { ran.withLock { $0.append(30) } }
    scheduler.advance(to: 20)
    #expect(ran.value == [10])
    #expect(scheduler.clock == 20)
    scheduler.advance(to: 30)
    #expect(ran.value == [10, 30])
  }

  @Test("a disposed action does not run; stop() ends start()")
  func cancelAndStop() {
    let scheduler = VirtualTimeScheduler()
    let ran = LockedState<[Int]>([])
    scheduler.schedule(at: 10) { ran.withLock { $0.append(10) } }.dispose()
    scheduler.schedule(at: 20) {
      ran.withLock { $0.append(20) }
      scheduler.stop()
    }
    scheduler.schedule(at: 30) { ran.withLock { $0.append(30) } }
    scheduler.start()
    #expect(ran.value == [20])
    #expect(scheduler.clock == 20)
  }

  @Test(
    "durations become ticks, rounded up so nothing runs early",
    arguments: [
      (Duration.milliseconds(1), Duration.milliseconds(200), 200),
      (.seconds(1), .milliseconds(1500), 2),
      (.milliseconds(10), .microseconds(1), 1),
      (.milliseconds(1), .zero, 0),
      (.milliseconds(1), .milliseconds(-5), 0),
    ])
  func ticks(resolution: Duration, delay: Duration, expected: Int) {
    #expect(VirtualTimeScheduler(resolution: resolution).ticks(delay) == expected)
  }
}
