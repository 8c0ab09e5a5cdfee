import Locking
import Reactive
import ReactiveTesting
import Testing

@Suite struct DoTests {
  @Test("side effects run for each event, which passes on unchanged")
  func sideEffects() {
    let scheduler = TestScheduler()
    let log = LockedState<[String]>([])
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start {
      xs.do(
        onNext: { value in log.withLock { $0.append("next \(value)") } },
        onCompleted: { log.withLock { $0.append("completed") } })
    }
    #expect(res.events == [.next(210, 1), .completed(300)])
    #expect(log.value == ["next 1", "completed"])
  }

  @Test("onError sees the error, which passes on")
  func error() {
    let scheduler = TestScheduler()
    let seen = LockedState<[String]>([])
    let xs = scheduler.createHotObservable([.error(210, TestError.boom, Int.self)])
    let res = scheduler.start {
      xs.do(onError: { error in seen.withLock { $0.append("\(error)") } })
    }
    #expect(res.events == [.error(210, TestError.boom)])
    #expect(seen.value == ["boom"])
  }

  @Test("a throwing onNext ends the sequence with its error")
  func throwing() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    let res = scheduler.start { xs.do(onNext: { _ in throw TestError.boom }) }
    #expect(res.events == [.error(210, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 210)])
  }
}
