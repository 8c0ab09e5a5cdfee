import Reactive
import ReactiveTesting
import Testing

@Suite struct FilterTests {
  @Test("only the elements that pass get through; completion passes")
  func passes() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
    ])
    let res = scheduler.start { xs.filter { $0.isMultiple(of: 2) } }
    #expect(res.events == [.next(220, 2), .next(240, 4), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("a throwing predicate ends the sequence with its error")
  func throwingPredicate() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
    let res = scheduler.start {
      xs.filter { value in
        if value == 2 { throw TestError.boom }
        return true
      }
    }
    #expect(res.events == [.next(210, 1), .error(220, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("an error from the source passes through")
  func sourceError() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError.boom)])
    let res = scheduler.start { xs.filter { _ in false } }
    #expect(res.events == [.error(230, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }
}
