import Reactive
import ReactiveTesting
import Testing

@Suite struct CompactMapTests {
  @Test("nil results are dropped, others are passed on")
  func dropsNil() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([
      .next(210, "1"), .next(220, "x"), .next(230, "3"), .completed(300),
    ])
    let res = scheduler.start { xs.compactMap { Int($0) } }
    #expect(res.events == [.next(210, 1), .next(230, 3), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("a throwing transform ends the sequence with its error")
  func throwingTransform() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    let res = scheduler.start {
      xs.compactMap { value -> Int? in
        if value == 2 { throw TestError.boom }
        return value
      }
    }
    #expect(res.events == [.next(210, 1), .error(220, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("an error from the source passes through")
  func sourceError() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.error(210, TestError.boom, Int.self)])
    let res = scheduler.start { xs.compactMap { $0 } }
    #expect(res.events == [.error(210, TestError.boom)])
  }
}
