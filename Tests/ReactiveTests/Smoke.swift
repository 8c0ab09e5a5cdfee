import Reactive
import Testing

@Test func smoke() throws {
  #expect(try Observable.of(1, 2, 3).map { $0 * 2 }.toBlocking().toArray() == [2, 4, 6])
}
