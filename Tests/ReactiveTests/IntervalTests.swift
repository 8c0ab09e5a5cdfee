import Reactive
import ReactiveTesting
import Testing

@Suite struct IntervalTests {
  @Test("ticks every period on the scheduler's clock until disposed")
  func ticks() {
    let scheduler = TestScheduler()
    let res = scheduler.start(disposed: 500) {
      Observable.interval(.milliseconds(100), scheduler: scheduler)
    }
    #expect(res.events == [.next(300, 0), .next(400, 1)])
  }

  @Test("nothing is scheduled after disposal")
  func disposal() {
    let scheduler = TestScheduler()
    let subscription = Observable.interval(.milliseconds(10), scheduler: scheduler).subscribe { _ in
    }
    scheduler.advance(to: 35)
    subscription.dispose()
    scheduler.start()
    #expect(scheduler.clock == 35)
  }
}
