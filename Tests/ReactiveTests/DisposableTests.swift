import Locking
import Reactive
import Testing

@Suite struct DisposableTests {
  /// Counts how often it was disposed.
  final class Counter: Disposable {
    let count = LockedState(0)
    func dispose() { count.withLock { $0 += 1 } }
  }

  @Test("an anonymous disposable runs its action once")
  func anonymous() {
    let runs = LockedState(0)
    let disposable = Disposables.create { runs.withLock { $0 += 1 } }
    disposable.dispose()
    disposable.dispose()
    #expect(runs.value == 1)
  }

  @Test("a serial disposable disposes the one it replaces, and later ones once disposed")
  func serial() {
    let serial = SerialDisposable()
    let first = Counter()
    let second = Counter()
    let third = Counter()
    serial.setDisposable(first)
    serial.setDisposable(second)
    #expect(first.count.value == 1)
    #expect(second.count.value == 0)
    serial.dispose()
    serial.setDisposable(third)
    #expect(second.count.value == 1)
    #expect(third.count.value == 1)
    #expect(serial.isDisposed)
  }

  @Test("a single-assignment disposable set after disposal disposes what it is given")
  func singleAssignment() {
    let holder = SingleAssignmentDisposable()
    let member = Counter()
    holder.dispose()
    holder.setDisposable(member)
    #expect(member.count.value == 1)
    #expect(holder.isDisposed)
  }

  @Test("a composite disposes every member once; removal disposes one")
  func composite() {
    let composite = CompositeDisposable()
    let first = Counter()
    let second = Counter()
    let key = composite.insert(first)
    composite.insert(second)
    #expect(composite.count == 2)
    if let key { composite.remove(for: key) }
    #expect(first.count.value == 1)
    composite.dispose()
    composite.dispose()
    #expect(second.count.value == 1)
    #expect(first.count.value == 1)
    let late = Counter()
    #expect(composite.insert(late) == nil)
    #expect(late.count.value == 1)
  }

  @Test("a dispose bag disposes its members when it goes away")
  func bag() {
    let member = Counter()
    do {
      let bag = DisposeBag()
      member.disposed(by: bag)
      #expect(member.count.value == 0)
    }
    #expect(member.count.value == 1)
  }

  @Test("a boolean disposable is a cancellation flag")
  func boolean() {
    let flag = BooleanDisposable()
    #expect(flag.isDisposed == false)
    flag.dispose()
    #expect(flag.isDisposed)
  }
}
