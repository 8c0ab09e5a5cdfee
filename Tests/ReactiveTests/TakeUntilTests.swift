import Reactive
import ReactiveTesting
import Testing

@Suite struct TakeUntilTests {
  @Test("take(until:) completes when the other sends, disposing both")
  func stops() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
    let stop = scheduler.createHotObservable([.next(220, "stop")])
    let res = scheduler.start { xs.take(until: stop) }
    #expect(res.events == [.next(210, 1), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(stop.subscriptions == [Subscription(200, 220)])
  }

  @Test("the other's completion changes nothing; the source's end passes through")
  func otherCompletes() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
    let stop = scheduler.createHotObservable([.completed(220, String.self)])
    let res = scheduler.start { xs.take(until: stop) }
    #expect(res.events == [.next(210, 1), .next(230, 2), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("an error of either passes through")
  func errors() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
    let stop = scheduler.createHotObservable([.error(230, TestError.boom, String.self)])
    let res = scheduler.start { xs.take(until: stop) }
    #expect(res.events == [.next(210, 1), .error(230, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("disposal disposes both")
  func disposal() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1)])
    let stop = scheduler.createHotObservable([.next(900, "stop")])
    let res = scheduler.start(disposed: 500) { xs.take(until: stop) }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 500)])
    #expect(stop.subscriptions == [Subscription(200, 500)])
  }
}
