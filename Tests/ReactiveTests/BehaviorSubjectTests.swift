import Locking
import Reactive
import ReactiveTesting
import Testing

@Suite struct BehaviorSubjectTests {
  @Test("a subscriber gets the current value at once, then later ones")
  func currentValue() throws {
    let scheduler = TestScheduler()
    let subject = BehaviorSubject(value: 0)
    scheduler.scheduleAt(150) { subject.onNext(1) }
    scheduler.scheduleAt(250) { subject.onNext(2) }
    scheduler.scheduleAt(300) { subject.onCompleted() }
    let res = scheduler.start { subject }
    #expect(res.events == [.next(200, 1), .next(250, 2), .completed(300)])
    #expect(try subject.value() == 2)
  }

  @Test("value() throws the error the subject ended with; late subscribers get only the error")
  func error() {
    let scheduler = TestScheduler()
    let subject = BehaviorSubject(value: "a")
    scheduler.scheduleAt(150) { subject.onError(TestError.boom) }
    let res = scheduler.start { subject }
    #expect(res.events == [.error(200, TestError.boom)])
    #expect(throws: TestError.boom) { try subject.value() }
  }

  @Test("an optional element holds nil as a value")
  func optionalElement() throws {
    let subject = BehaviorSubject<String?>(value: nil)
    #expect(try subject.toBlocking(timeout: .seconds(5)).first() == .some(nil))
    subject.onNext("x")
    #expect(try subject.value() == "x")
  }

  @Test("value() is up to date as soon as onNext returns, even inside an observer")
  func valueInsideObserver() throws {
    let subject = BehaviorSubject(value: 0)
    let seen = LockedState<[Int]>([])
    let bag = DisposeBag()
    subject.subscribe(onNext: { value in
      guard value == 1 else { return }
      subject.onNext(2)
      seen.withLock { $0.append((try? subject.value()) ?? -1) }
    }).disposed(by: bag)
    subject.onNext(1)
    #expect(seen.value == [2])
  }

  @Test("re-entrant: a subscriber that feeds the subject sees every value in order")
  func reentrant() throws {
    let subject = BehaviorSubject(value: 0)
    let seen = LockedState<[Int]>([])
    let bag = DisposeBag()
    subject.subscribe(onNext: { value in
      seen.withLock { $0.append(value) }
      if value < 3 { subject.onNext(value + 1) }
    }).disposed(by: bag)
    #expect(seen.value == [0, 1, 2, 3])
    #expect(try subject.value() == 3)
  }
}
