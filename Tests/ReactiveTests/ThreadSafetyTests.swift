import Dispatch
import Locking
import Reactive
import Testing

/// Storage with no lock at all: safe only because what writes to it promises
/// to do so one call at a time. If that promise breaks, appends are lost or
/// the array is corrupted, and ThreadSanitizer reports the race.
final class UnsynchronizedLog<Value>: @unchecked Sendable {
  var values: [Value] = []
}

@Suite struct ThreadSafetyTests {
  static let threads = 4
  static let perThread = 5_000

  @Test("a PublishSubject fed from several threads delivers every event once, one at a time")
  func publishSubject() {
    let subject = PublishSubject<Int>()
    let log = UnsynchronizedLog<Int>()
    let subscription = subject.subscribe(onNext: { log.values.append($0) })
    DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
      for index in 0..<Self.perThread { subject.onNext(thread * Self.perThread + index) }
    }
    subscription.dispose()
    #expect(log.values.count == Self.threads * Self.perThread)
    #expect(Set(log.values) == Set(0..<(Self.threads * Self.perThread)))
    for thread in 0..<Self.threads {
      let range = (thread * Self.perThread)..<((thread + 1) * Self.perThread)
      #expect(log.values.filter(range.contains) == Array(range), "thread \(thread) out of order")
    }
  }

  @Test("a BehaviorSubject fed from several threads while others subscribe and leave")
  func behaviorSubjectWithChurn() throws {
    let subject = BehaviorSubject(value: -1)
    let log = UnsynchronizedLog<Int>()
    let subscription = subject.subscribe(onNext: { log.values.append($0) })
    DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { thread in
      if thread == Self.threads {
        for _ in 0..<1_000 { subject.subscribe { _ in }.dispose() }
        return
      }
      for index in 0..<Self.perThread { subject.onNext(thread * Self.perThread + index) }
    }
    subscription.dispose()
    #expect(log.values.count == Self.threads * Self.perThread + 1)
    #expect(Set(log.values) == Set(-1..<(Self.threads * Self.perThread)))
    #expect(subject.hasObservers == false)
    #expect(log.values.contains(try subject.value()))
  }

  @Test("a serial dispatch queue scheduler runs actions from several threads one at a time")
  func serialScheduler() {
    let scheduler = SerialDispatchQueueScheduler(label: "thread-safety")
    let log = UnsynchronizedLog<Int>()
    DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
      for index in 0..<Self.perThread {
        let value = thread * Self.perThread + index
        scheduler.schedule { log.values.append(value) }
      }
    }
    let drained = DispatchSemaphore(value: 0)
    scheduler.schedule { drained.signal() }
    #expect(drained.wait(timeout: .now() + .seconds(30)) == .success)
    #expect(log.values.count == Self.threads * Self.perThread)
    for thread in 0..<Self.threads {
      let range = (thread * Self.perThread)..<((thread + 1) * Self.perThread)
      #expect(log.values.filter(range.contains) == Array(range), "thread \(thread) out of order")
    }
  }

  @Test("merge of sources on several threads delivers to its observer one at a time")
  func mergeAcrossThreads() throws {
    let sources = (0..<Self.threads).map { thread in
      Observable.from(Array((thread * 1_000)..<((thread + 1) * 1_000)))
        .subscribe(on: SerialDispatchQueueScheduler(label: "merge-\(thread)"))
    }
    let log = UnsynchronizedLog<Int>()
    let count = try Observable.merge(sources)
      .map { value -> Int in
        log.values.append(value)
        return value
      }
      .toBlocking(timeout: .seconds(30)).toArray().count
    #expect(count == Self.threads * 1_000)
    #expect(Set(log.values) == Set(0..<(Self.threads * 1_000)))
  }

  @Test("share(replay:) with subscribers arriving from several threads connects once")
  func shareAcrossThreads() {
    let connections = LockedState(0)
    let subject = PublishSubject<Int>()
    let shared = Observable<Int>.create { observer in
      connections.withLock { $0 += 1 }
      return subject.subscribe(observer)
    }.share(replay: 1)
    let keepAlive = shared.subscribe { _ in }
    let received = LockedState(0)
    DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
      for _ in 0..<500 {
        let subscription = shared.subscribe(onNext: { _ in received.withLock { $0 += 1 } })
        subject.onNext(1)
        subscription.dispose()
      }
    }
    keepAlive.dispose()
    #expect(connections.value == 1)
    // A subscription made while another thread drains is processed by that
    // thread, so how many elements each got varies; the connection must not.
    #expect(received.value > 0)
    #expect(subject.hasObservers == false)
  }
}
