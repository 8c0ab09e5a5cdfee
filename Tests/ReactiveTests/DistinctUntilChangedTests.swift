import Reactive
import ReactiveTesting
import Testing

@Suite struct DistinctUntilChangedTests {
  @Test("consecutive duplicates are dropped; a value may come back later")
  func consecutive() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 1), .next(230, 2), .next(240, 2), .next(250, 1),
      .completed(300),
    ])
    let res = scheduler.start { xs.distinctUntilChanged() }
    #expect(res.events == [.next(210, 1), .next(230, 2), .next(250, 1), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("a key selector compares by key")
  func byKey() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([
      .next(210, "a"), .next(220, "A"), .next(230, "b"), .completed(300),
    ])
    let res = scheduler.start { xs.distinctUntilChanged { $0.lowercased() } }
    #expect(res.events == [.next(210, "a"), .next(230, "b"), .completed(300)])
  }

  @Test("a throwing comparer ends the sequence with its error")
  func throwingComparer() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    let res = scheduler.start {
      xs.distinctUntilChanged { (_: Int, _: Int) throws -> Bool in throw TestError.boom }
    }
    #expect(res.events == [.next(210, 1), .error(220, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("an error from the source passes through")
  func sourceError() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
    let res = scheduler.start { xs.distinctUntilChanged() }
    #expect(res.events == [.next(210, 1), .error(220, TestError.boom)])
  }
}
