import Dispatch
import Reactive
import Testing

@Suite struct BlockingObservableTests {
  @Test("toArray waits for completion and returns every element")
  func toArray() throws {
    #expect(try Observable.of(1, 2, 3).toBlocking().toArray() == [1, 2, 3])
  }

  @Test("first returns the first element and disposes the rest")
  func first() throws {
    let subject = BehaviorSubject(value: 5)
    #expect(try subject.toBlocking(timeout: .seconds(5)).first() == 5)
    #expect(subject.hasObservers == false)
  }

  @Test("first and last of an empty sequence are nil; single throws")
  func empty() throws {
    #expect(try Observable<Int>.empty().toBlocking().first() == nil)
    #expect(try Observable<Int>.empty().toBlocking().last() == nil)
    #expect(throws: ReactiveError.noElements) { try Observable<Int>.empty().toBlocking().single() }
    #expect(throws: ReactiveError.moreThanOneElement) {
      try Observable.of(1, 2).toBlocking().single()
    }
    #expect(try Observable.of(1, 2).toBlocking().last() == 2)
  }

  @Test("the sequence's error is thrown")
  func error() {
    #expect(throws: TestError.boom) {
      try Observable<Int>.error(TestError.boom).toBlocking().toArray()
    }
  }

  @Test("a sequence that never ends times out, and the subscription is disposed")
  func timeout() {
    let subject = PublishSubject<Int>()
    #expect(throws: ReactiveError.timeout(.milliseconds(50))) {
      try subject.toBlocking(timeout: .milliseconds(50)).first()
    }
    #expect(subject.hasObservers == false)
  }

  @Test("waits for events delivered from another thread")
  func otherThread() throws {
    let scheduler = SerialDispatchQueueScheduler(label: "blocking-test")
    let values = try Observable.from(Array(0..<1000)).subscribe(on: scheduler)
      .toBlocking(timeout: .seconds(10)).toArray()
    #expect(values == Array(0..<1000))
  }
}
