import Locking
import Reactive
import ReactiveTesting
import Testing

@Suite struct PublishSubjectTests {
  @Test("subscribers see only the events sent after they subscribed")
  func hotness() {
    let scheduler = TestScheduler()
    let subject = PublishSubject<Int>()
    let early = scheduler.createObserver(Int.self)
    let late = scheduler.createObserver(Int.self)
    let bag = DisposeBag()
    scheduler.scheduleAt(100) { subject.subscribe(early).disposed(by: bag) }
    scheduler.scheduleAt(150) { subject.onNext(1) }
    scheduler.scheduleAt(200) { subject.subscribe(late).disposed(by: bag) }
    scheduler.scheduleAt(250) { subject.onNext(2) }
    scheduler.scheduleAt(300) { subject.onCompleted() }
    scheduler.scheduleAt(350) { subject.onNext(3) }
    scheduler.start()
    #expect(early.events == [.next(150, 1), .next(250, 2), .completed(300)])
    #expect(late.events == [.next(250, 2), .completed(300)])
  }

  @Test("after an error, new subscribers get the error at once")
  func terminated() {
    let scheduler = TestScheduler()
    let subject = PublishSubject<Int>()
    let observer = scheduler.createObserver(Int.self)
    let bag = DisposeBag()
    scheduler.scheduleAt(100) { subject.onError(TestError.boom) }
    scheduler.scheduleAt(200) { subject.subscribe(observer).disposed(by: bag) }
    scheduler.start()
    #expect(observer.events == [.error(200, TestError.boom)])
    #expect(subject.hasObservers == false)
  }

  @Test("a disposed subscriber gets nothing more")
  func disposal() {
    let scheduler = TestScheduler()
    let subject = PublishSubject<Int>()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2), .completed(400)])
    let bag = DisposeBag()
    scheduler.scheduleAt(0) { xs.subscribe(subject).disposed(by: bag) }
    let res = scheduler.start(disposed: 250) { subject }
    #expect(res.events == [.next(210, 1)])
    #expect(subject.hasObservers == false)
  }

  @Test("re-entrant: an event sent by a subscriber reaches every subscriber after the current one")
  func reentrant() {
    let subject = PublishSubject<Int>()
    let first = LockedState<[Int]>([])
    let second = LockedState<[Int]>([])
    let bag = DisposeBag()
    subject.subscribe(onNext: { value in
      first.withLock { $0.append(value) }
      if value < 3 { subject.onNext(value + 1) }
    }).disposed(by: bag)
    subject.subscribe(onNext: { value in second.withLock { $0.append(value) } }).disposed(by: bag)
    subject.onNext(1)
    #expect(first.value == [1, 2, 3])
    #expect(second.value == [1, 2, 3])
  }

  @Test("a subscriber disposed while an event is being delivered gets nothing more, queued or not")
  func disposedDuringDelivery() {
    let subject = PublishSubject<Int>()
    let second = LockedState<[Int]>([])
    let secondSubscription = SingleAssignmentDisposable()
    let bag = DisposeBag()
    subject.subscribe(onNext: { value in
      if value == 1 {
        subject.onNext(2)
        secondSubscription.dispose()
      }
    }).disposed(by: bag)
    secondSubscription.setDisposable(
      subject.subscribe(onNext: { value in second.withLock { $0.append(value) } }))
    subject.onNext(1)
    subject.onNext(3)
    #expect(second.value == [])
    #expect(subject.hasObservers)
  }

  @Test("re-entrant: a subscription made during delivery starts with the next event")
  func reentrantSubscribe() {
    let subject = PublishSubject<Int>()
    let late = LockedState<[Int]>([])
    let bag = DisposeBag()
    subject.take(1).subscribe(onNext: { _ in
      subject.subscribe(onNext: { value in late.withLock { $0.append(value) } }).disposed(by: bag)
    }).disposed(by: bag)
    subject.onNext(1)
    subject.onNext(2)
    #expect(late.value == [2])
  }
}
