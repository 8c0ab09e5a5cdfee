import Reactive
import ReactiveTesting
import Testing

@Suite struct MergeTests {
  @Test("elements of all sources as they arrive; completes after the last source")
  func interleaves() {
    let scheduler = TestScheduler()
    let a = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
    let b = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
    let res = scheduler.start { Observable.merge([a, b]) }
    #expect(
      res.events == [
        .next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .completed(260),
      ])
    #expect(a.subscriptions == [Subscription(200, 240)])
    #expect(b.subscriptions == [Subscription(200, 260)])
  }

  @Test("an error from one source ends the result and disposes the others")
  func error() {
    let scheduler = TestScheduler()
    let a = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
    let b = scheduler.createHotObservable([.next(230, 2)])
    let res = scheduler.start { Observable.merge([a, b]) }
    #expect(res.events == [.next(210, 1), .error(220, TestError.boom)])
    #expect(b.subscriptions == [Subscription(200, 220)])
  }

  @Test("an empty list completes at once")
  func empty() {
    let scheduler = TestScheduler()
    let res = scheduler.start { Observable.merge([Observable<Int>]()) }
    #expect(res.events == [.completed(200)])
  }

  @Test("re-entrant: an element a source sends while another is delivered comes after it")
  func reentrant() {
    let scheduler = TestScheduler()
    let a = PublishSubject<Int>()
    let b = PublishSubject<Int>()
    let observer = scheduler.createObserver(Int.self)
    let bag = DisposeBag()
    scheduler.scheduleAt(200) {
      Observable.merge([a, b]).subscribe { event in
        observer.on(event)
        if event.element == 1 { b.onNext(2) }
      }.disposed(by: bag)
    }
    scheduler.scheduleAt(210) {
      a.onNext(1)
      a.onNext(3)
    }
    scheduler.start()
    #expect(observer.events == [.next(210, 1), .next(210, 2), .next(210, 3)])
  }
}
