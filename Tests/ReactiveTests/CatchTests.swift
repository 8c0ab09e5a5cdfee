import Reactive
import ReactiveTesting
import Testing

@Suite struct CatchTests {
  @Test("an error is replaced by the handler's sequence, which runs to its end")
  func replacesError() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.boom, Int.self)])
    let ys = scheduler.createColdObservable([.next(5, 2), .completed(15)])
    let res = scheduler.start { xs.catch { _ in ys.asObservable() } }
    #expect(res.events == [.next(210, 1), .next(225, 2), .completed(235)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
    #expect(ys.subscriptions == [Subscription(220, 235)])
  }

  @Test("without an error the handler never runs")
  func passesThrough() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    let res = scheduler.start { xs.catch { _ in .just(9) } }
    #expect(res.events == [.next(210, 1), .completed(220)])
  }

  @Test("a handler that throws, or returns a failure, ends the result with that error")
  func handlerFails() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.error(10, TestError.boom, Int.self)])
    let thrown = scheduler.start { xs.catch { _ in throw TestError.other } }
    #expect(thrown.events == [.error(210, TestError.other)])
    let rethrown = TestScheduler()
    let ys = rethrown.createColdObservable([.error(10, TestError.boom, Int.self)])
    let res = rethrown.start { ys.catch { .error($0) } }
    #expect(res.events == [.error(210, TestError.boom)])
  }

  @Test("disposal reaches the handler's sequence")
  func disposal() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.error(10, TestError.boom, Int.self)])
    let ys = scheduler.createColdObservable([.next(100, 3), .completed(200)])
    let res = scheduler.start(disposed: 250) { xs.catch { _ in ys.asObservable() } }
    #expect(res.events.isEmpty)
    #expect(ys.subscriptions == [Subscription(210, 250)])
  }
}
