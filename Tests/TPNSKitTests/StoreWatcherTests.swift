import Foundation
import Locking
import Reactive
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// `StoreWatcher.events(of:)` on real files, with inotify and a real clock.
@Suite struct StoreWatcherTests {
  static let uid = "ABCDEFGHJKLMNPRSTUVW"

  /// The store's events as they come, until the test ends.
  final class Recorder: Sendable {
    let events = LockedState<[StoreEvent]>([])
    private let subscription: any Disposable

    init(_ store: Store) {
      let scheduler = SerialDispatchQueueScheduler(label: "store-watcher-tests")
      subscription = StoreWatcher.events(
        of: store, debounce: .milliseconds(20), maxDelay: .milliseconds(200), scheduler: scheduler
      ).subscribe(onNext: { [events] event in events.withLock { $0.append(event) } })
    }

    deinit {
      subscription.dispose()
    }

    /// Whether the newest event comes to be `expected` within 10 s.
    func eventually(_ expected: StoreEvent) -> Bool {
      let end = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < end {
        if events.value.last == expected { return true }
        usleep(10_000)
      }
      return events.value.last == expected
    }
  }

  @Test("a store that does not exist yet is absent at the start, and deleted when it goes later")
  func absentThenDeleted() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    let recorder = Recorder(store)
    #expect(recorder.eventually(.absent))
    try store.update { $0.uids = [Self.uid] }
    #expect(recorder.eventually(.changed(try store.load())))
    #expect(unlink(store.path) == 0)
    #expect(recorder.eventually(.deleted))
  }

  @Test("a store behind a link whose target is deleted is reported deleted, not read as empty")
  func linkTargetDeleted() throws {
    let directory = try TemporaryDirectory()
    let real = Store(path: directory.file("real/state.plist"))
    try real.update { $0.uids = [Self.uid] }
    try FileManager.default.createSymbolicLink(
      atPath: directory.file("state.plist"), withDestinationPath: real.path)
    let store = Store(path: directory.file("state.plist"))
    let recorder = Recorder(store)
    #expect(recorder.eventually(.changed(try real.load())))
    #expect(unlink(real.path) == 0)
    #expect(recorder.eventually(.deleted))
  }

  @Test("a store behind a link to another directory: writes through the link are read")
  func throughLink() throws {
    let directory = try TemporaryDirectory()
    let real = Store(path: directory.file("real/state.plist"))
    try real.update { $0.uids = ["BBBBBBBBBBBBBBBBBBBB"] }
    try FileManager.default.createSymbolicLink(
      atPath: directory.file("state.plist"), withDestinationPath: real.path)
    let store = Store(path: directory.file("state.plist"))
    let recorder = Recorder(store)
    #expect(recorder.eventually(StoreWatcher.read(store)))
    try store.update { $0.uids = [Self.uid] }
    #expect(recorder.eventually(.changed(try real.load())))
    #expect(try real.load().uids == [Self.uid])
  }

  @Test("a store whose directory is replaced by rename is read again from the new directory")
  func replacedDirectory() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("config/state.plist"))
    try store.update { $0.uids = ["BBBBBBBBBBBBBBBBBBBB"] }
    let recorder = Recorder(store)
    #expect(recorder.eventually(StoreWatcher.read(store)))
    let replacement = Store(path: directory.file("new/state.plist"))
    try replacement.update { $0.uids = [Self.uid] }
    #expect(rename(directory.file("config"), directory.file("config.old")) == 0)
    #expect(rename(directory.file("new"), directory.file("config")) == 0)
    #expect(recorder.eventually(.changed(try store.load())))
    // And the new directory is watched: a later write is read too.
    try store.update { $0.uids = [] }
    #expect(recorder.eventually(.changed(try store.load())))
  }
}
