import Reactive
import ReactiveTesting
import Testing

@Suite struct TakeTests {
  @Test("take(n) completes after the n-th element and disposes the source then")
  func completesEarly() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    let res = scheduler.start { xs.take(2) }
    #expect(res.events == [.next(210, 1), .next(220, 2), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("a source shorter than n completes when it does")
  func shortSource() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
    let res = scheduler.start { xs.take(5) }
    #expect(res.events == [.next(210, 1), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("take(0) completes at once without subscribing")
  func zero() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1)])
    let res = scheduler.start { xs.take(0) }
    #expect(res.events == [.completed(200)])
    #expect(xs.subscriptions == [])
  }

  @Test("an error before the n-th element passes through")
  func sourceError() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
    let res = scheduler.start { xs.take(3) }
    #expect(res.events == [.next(210, 1), .error(220, TestError.boom)])
  }

  @Test("re-entrant: an element sent from the observer of take(1) is not delivered")
  func reentrant() {
    let scheduler = TestScheduler()
    let subject = PublishSubject<Int>()
    let observer = scheduler.createObserver(Int.self)
    let bag = DisposeBag()
    scheduler.scheduleAt(200) {
      subject.take(1).subscribe(observer).disposed(by: bag)
      subject.subscribe(onNext: { if $0 == 1 { subject.onNext(2) } }).disposed(by: bag)
    }
    scheduler.scheduleAt(210) { subject.onNext(1) }
    scheduler.start()
    #expect(observer.events == [.next(210, 1), .completed(210)])
  }
}
