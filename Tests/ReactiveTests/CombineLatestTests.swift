import Reactive
import ReactiveTesting
import Testing

@Suite struct CombineLatestTests {
  @Test("emits only once both have emitted, then on every change (the Bind button)")
  func bindButton() {
    let scheduler = TestScheduler()
    let uidValid = scheduler.createHotObservable([
      .next(210, false), .next(230, true), .next(260, false), .completed(400),
    ])
    let tokenValid = scheduler.createHotObservable([
      .next(220, false), .next(250, true), .completed(300),
    ])
    let res = scheduler.start {
      Observable.combineLatest(uidValid, tokenValid) { $0 && $1 }
    }
    #expect(
      res.events == [
        .next(220, false), .next(230, false), .next(250, true), .next(260, false),
        .completed(400),
      ])
    #expect(uidValid.subscriptions == [Subscription(200, 400)])
    #expect(tokenValid.subscriptions == [Subscription(200, 300)])
  }

  @Test("the array form gives the latest of each source in source order")
  func array() {
    let scheduler = TestScheduler()
    let a = scheduler.createHotObservable([.next(210, 1), .next(240, 4)])
    let b = scheduler.createHotObservable([.next(220, 2)])
    let c = scheduler.createHotObservable([.next(230, 3)])
    let res = scheduler.start { Observable.combineLatest([a, b, c]) }
    #expect(res.events == [.next(230, [1, 2, 3]), .next(240, [4, 2, 3])])
  }

  @Test("three sources with a selector")
  func three() {
    let scheduler = TestScheduler()
    let a = scheduler.createHotObservable([.next(210, 1)])
    let b = scheduler.createHotObservable([.next(220, "b")])
    let c = scheduler.createHotObservable([.next(230, true), .next(240, false)])
    let res = scheduler.start {
      Observable.combineLatest(a, b, c) { "\($0)\($1)\($2)" }
    }
    #expect(res.events == [.next(230, "1btrue"), .next(240, "1bfalse")])
  }

  @Test("as in RxSwift, a source that completes empty ends the result only when all have completed")
  func emptySource() {
    let scheduler = TestScheduler()
    let a = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
    let b = scheduler.createHotObservable([.completed(250, Int.self)])
    let res = scheduler.start { Observable.combineLatest(a, b) { $0 + $1 } }
    #expect(res.events == [.completed(300)])
    #expect(a.subscriptions == [Subscription(200, 300)])
    #expect(b.subscriptions == [Subscription(200, 250)])
  }

  @Test("an error from either source ends the result and disposes the other")
  func error() {
    let scheduler = TestScheduler()
    let a = scheduler.createHotObservable([.next(210, 1)])
    let b = scheduler.createHotObservable([.next(220, 2), .error(230, TestError.boom)])
    let res = scheduler.start { Observable.combineLatest(a, b) { $0 + $1 } }
    #expect(res.events == [.next(220, 3), .error(230, TestError.boom)])
    #expect(a.subscriptions == [Subscription(200, 230)])
    #expect(b.subscriptions == [Subscription(200, 230)])
  }

  @Test("a throwing selector ends the result with its error")
  func throwingSelector() {
    let scheduler = TestScheduler()
    let a = scheduler.createHotObservable([.next(210, 1)])
    let b = scheduler.createHotObservable([.next(220, 2)])
    let res = scheduler.start {
      Observable.combineLatest(a, b) { (_: Int, _: Int) throws -> Int in throw TestError.boom }
    }
    #expect(res.events == [.error(220, TestError.boom)])
    #expect(a.subscriptions == [Subscription(200, 220)])
  }

  @Test("an empty list completes at once")
  func emptyList() {
    let scheduler = TestScheduler()
    let res = scheduler.start { Observable.combineLatest([Observable<Int>]()) }
    #expect(res.events == [.completed(200)])
  }
}
