import Reactive
import ReactiveTesting
import Testing

@Suite struct ConcatTests {
  @Test("the second sequence is subscribed to only once the first completes")
  func sequential() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
    let ys = scheduler.createColdObservable([.next(5, 3), .completed(15)])
    let res = scheduler.start { xs.concat(ys) }
    #expect(res.events == [.next(210, 1), .next(220, 2), .next(235, 3), .completed(245)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(ys.subscriptions == [Subscription(230, 245)])
  }

  @Test("an error in the first ends the whole: the second never runs")
  func firstFails() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.boom, Int.self)])
    let ys = scheduler.createColdObservable([.next(5, 3), .completed(15)])
    let res = scheduler.start { xs.concat(ys) }
    #expect(res.events == [.next(210, 1), .error(220, TestError.boom)])
    #expect(ys.subscriptions.isEmpty)
  }

  @Test("disposal reaches whichever sequence is running")
  func disposal() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.completed(10, Int.self)])
    let ys = scheduler.createColdObservable([.next(100, 3), .completed(200)])
    let res = scheduler.start(disposed: 250) { xs.concat(ys) }
    #expect(res.events.isEmpty)
    #expect(xs.subscriptions == [Subscription(200, 210)])
    #expect(ys.subscriptions == [Subscription(210, 250)])
  }

  @Test("a first sequence that completes at subscription hands over at once")
  func synchronousFirst() {
    let scheduler = TestScheduler()
    let res = scheduler.start { Observable.just(1).concat(Observable.of(2, 3)) }
    #expect(res.events == [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
  }
}
