import Locking
import Reactive
import ReactiveTesting
import Testing

@Suite struct CreateTests {
  @Test("events after completion are dropped, and completion disposes the producer")
  func contract() {
    let disposed = LockedState(0)
    let received = LockedState<[Event<Int>]>([])
    let source = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onCompleted()
      observer.onNext(2)
      observer.onError(TestError.boom)
      return Disposables.create { disposed.withLock { $0 += 1 } }
    }
    _ = source.subscribe { event in received.withLock { $0.append(event) } }
    #expect(received.value == [.next(1), .completed])
    #expect(disposed.value == 1)
  }

  @Test("disposing the subscription disposes the producer once and drops later events")
  func disposal() {
    let disposed = LockedState(0)
    let subject = PublishSubject<Int>()
    let received = LockedState<[Int]>([])
    let source = Observable<Int>.create { observer in
      let inner = subject.subscribe(observer)
      return Disposables.create {
        disposed.withLock { $0 += 1 }
        inner.dispose()
      }
    }
    let subscription = source.subscribe(onNext: { value in received.withLock { $0.append(value) } })
    subject.onNext(1)
    subscription.dispose()
    subscription.dispose()
    subject.onNext(2)
    #expect(received.value == [1])
    #expect(disposed.value == 1)
    #expect(subject.hasObservers == false)
  }

  @Test(
    "the constructors send what they say",
    arguments: [
      (Observable.just(1), [Event<Int>.next(1), .completed]),
      (Observable.empty(), [.completed]),
      (Observable.error(TestError.boom), [.error(TestError.boom)]),
      (Observable.from([1, 2, 3]), [.next(1), .next(2), .next(3), .completed]),
      (Observable.from(8...9), [.next(8), .next(9), .completed]),
      (Observable.of(4, 5), [.next(4), .next(5), .completed]),
      (Observable.never(), []),
      (Observable.deferred { .just(7) }, [.next(7), .completed]),
      (Observable.deferred { throw TestError.other }, [.error(TestError.other)]),
    ])
  func constructors(source: Observable<Int>, expected: [Event<Int>]) {
    let received = LockedState<[Event<Int>]>([])
    source.subscribe { event in received.withLock { $0.append(event) } }.dispose()
    #expect(received.value == expected)
  }

  /// `[1, 2]`, counting how often it is iterated.
  struct CountingSequence: Sequence, Sendable {
    let iterations = LockedState(0)
    func makeIterator() -> IndexingIterator<[Int]> {
      iterations.withLock { $0 += 1 }
      return [1, 2].makeIterator()
    }
  }

  @Test("from iterates a sequence that is not an array at each subscription, not before")
  func fromIteratesPerSubscriber() throws {
    let sequence = CountingSequence()
    let iterations = sequence.iterations
    let source = Observable.from(sequence)
    #expect(iterations.value == 0)
    #expect(try source.toBlocking().toArray() == [1, 2])
    #expect(try source.toBlocking().toArray() == [1, 2])
    #expect(iterations.value == 2)
  }

  @Test("deferred calls its factory once per subscriber")
  func deferredPerSubscriber() throws {
    let calls = LockedState(0)
    let source = Observable<Int>.deferred {
      .just(
        calls.withLock { calls in
          calls += 1
          return calls
        })
    }
    #expect(try source.toBlocking().toArray() == [1])
    #expect(try source.toBlocking().toArray() == [2])
  }

  @Test("subscribe(onNext:onError:onCompleted:onDisposed:) calls each handler, onDisposed once")
  func closureSubscribe() {
    let log = LockedState<[String]>([])
    let subscription = Observable.of(1, 2).subscribe(
      onNext: { value in log.withLock { $0.append("next \(value)") } },
      onError: { _ in log.withLock { $0.append("error") } },
      onCompleted: { log.withLock { $0.append("completed") } },
      onDisposed: { log.withLock { $0.append("disposed") } })
    subscription.dispose()
    #expect(log.value == ["next 1", "next 2", "completed", "disposed"])
  }
}
