import Foundation
import Locking
import Reactive
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// What a running `DirectoryWatcher.changes` sent, for polling with a deadline.
final class ChangeRecorder: Sendable {
  let changes = LockedState<[DirectoryWatcher.Change]>([])
  let rearm = PublishSubject<Void>()
  private let subscription: any Disposable

  init(of path: String) {
    subscription = DirectoryWatcher.changes(of: path, rearm: rearm.asObservable())
      .subscribe(onNext: { [changes] change in changes.withLock { $0.append(change) } })
  }

  deinit {
    subscription.dispose()
  }

  /// How many of `change` were sent so far.
  func count(_ change: DirectoryWatcher.Change) -> Int {
    changes.value.filter { $0 == change }.count
  }

  /// Whether `condition` comes to hold within 10 s (no fixed sleeps).
  func eventually(_ condition: () -> Bool) -> Bool {
    let end = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < end {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }
}

@Suite struct DirectoryWatcherTests {
  /// Replaces `path` by rename, as the store's writes do.
  static func write(_ text: String, to path: String) throws {
    let temporary = path + ".tmp"
    try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
    #expect(rename(temporary, path) == 0)
  }

  /// Points a (new or existing) link at `path` to `destination`, by rename.
  static func link(_ path: String, to destination: String) throws {
    let temporary = path + ".new"
    try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: destination)
    #expect(rename(temporary, path) == 0)
  }

  static func makeDirectory(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  @Test("a write through a link to a file in another directory is seen")
  func linkToAnotherDirectory() throws {
    let directory = try TemporaryDirectory()
    try Self.makeDirectory(directory.file("real"))
    try Self.write("1", to: directory.file("real/state.plist"))
    try Self.link(directory.file("state.plist"), to: "real/state.plist")
    let recorder = ChangeRecorder(of: directory.file("state.plist"))
    try Self.write("2", to: directory.file("real/state.plist"))
    #expect(recorder.eventually { recorder.count(.file) >= 1 })
  }

  @Test("a re-pointed link re-arms onto the new file's directory")
  func repointedLink() throws {
    let directory = try TemporaryDirectory()
    try Self.makeDirectory(directory.file("one"))
    try Self.makeDirectory(directory.file("two"))
    try Self.write("1", to: directory.file("one/state.plist"))
    try Self.write("2", to: directory.file("two/state.plist"))
    try Self.link(directory.file("state.plist"), to: directory.file("one/state.plist"))
    let recorder = ChangeRecorder(of: directory.file("state.plist"))
    try Self.link(directory.file("state.plist"), to: directory.file("two/state.plist"))
    #expect(recorder.eventually { recorder.count(.rearmed) >= 1 })
    try Self.write("3", to: directory.file("two/state.plist"))
    #expect(recorder.eventually { recorder.count(.file) >= 1 })
  }

  @Test(
    "a directory replaced by rename, or deleted and restored, is watched again when it is back",
    arguments: [true, false])
  func replacedDirectory(byRename: Bool) throws {
    let directory = try TemporaryDirectory()
    let store = directory.file("config/state.plist")
    try Self.makeDirectory(directory.file("config"))
    try Self.write("1", to: store)
    let recorder = ChangeRecorder(of: store)
    try Self.makeDirectory(directory.file("new"))
    try Self.write("2", to: directory.file("new/state.plist"))
    if byRename {
      #expect(rename(directory.file("config"), directory.file("config.old")) == 0)
    } else {
      try FileManager.default.removeItem(atPath: directory.file("config"))
      // Gone for a while: the watch waits on the parent for it.
      #expect(recorder.eventually { recorder.count(.rearmed) >= 1 })
    }
    let rearmedBefore = recorder.count(.rearmed)
    #expect(rename(directory.file("new"), directory.file("config")) == 0)
    #expect(recorder.eventually { recorder.count(.rearmed) > rearmedBefore })
    let filesBefore = recorder.count(.file)
    try Self.write("3", to: store)
    #expect(recorder.eventually { recorder.count(.file) > filesBefore })
  }

  @Test("a store whose directories do not exist yet is seen once they and it are made")
  func missingDirectories() throws {
    let directory = try TemporaryDirectory()
    let store = directory.file("a/b/state.plist")
    let recorder = ChangeRecorder(of: store)
    try Self.makeDirectory(directory.file("a/b"))
    #expect(recorder.eventually { recorder.count(.rearmed) >= 1 })
    try Self.write("1", to: store)
    #expect(recorder.eventually { recorder.count(.file) >= 1 })
  }

  @Test("a re-arm asked for is done and reported")
  func requestedRearm() throws {
    let directory = try TemporaryDirectory()
    let recorder = ChangeRecorder(of: directory.file("state.plist"))
    recorder.rearm.onNext(())
    #expect(recorder.eventually { recorder.changes.value == [.rearmed] })
  }

  /// One inotify event as the kernel lays it out: wd, mask, cookie, len, name.
  static func event(watch: Int32, mask: Int32, name: String = "") -> [UInt8] {
    let padded = name.isEmpty ? 0 : (name.utf8.count / 16 + 1) * 16
    var bytes: [UInt8] = []
    withUnsafeBytes(of: watch.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: UInt32(bitPattern: mask).littleEndian) { bytes += $0 }
    withUnsafeBytes(of: UInt32(0)) { bytes += $0 }
    withUnsafeBytes(of: UInt32(padded).littleEndian) { bytes += $0 }
    return bytes + Array(name.utf8) + [UInt8](repeating: 0, count: padded - name.utf8.count)
  }

  @Test(
    "what events mean: the file's name, a way's name, the directory itself, an overflow",
    arguments: [
      ([event(watch: 1, mask: IN_CLOSE_WRITE, name: "other")], nil),
      ([event(watch: 1, mask: IN_MOVED_TO, name: "state.plist")], .file),
      ([event(watch: 9, mask: IN_MOVED_TO, name: "state.plist")], nil),
      ([event(watch: 1, mask: IN_MOVE_SELF)], .rearmed),
      ([event(watch: 1, mask: IN_DELETE_SELF), event(watch: 1, mask: IN_IGNORED)], .rearmed),
      ([event(watch: 2, mask: IN_CREATE, name: "link")], .rearmed),
      (
        [
          event(watch: 1, mask: IN_MOVED_TO, name: "state.plist"),
          event(watch: 2, mask: IN_MOVED_TO, name: "link"),
        ], .rearmed
      ),
      (
        [event(watch: 1, mask: IN_CREATE, name: "x"), event(watch: -1, mask: IN_Q_OVERFLOW)],
        .overflow
      ),
    ] as [([[UInt8]], DirectoryWatcher.Change?)])
  func classify(events: [[UInt8]], expected: DirectoryWatcher.Change?) {
    // Watch 1 is the real file's directory, watch 2 the link's.
    let watches = InotifyWatches(
      descriptor: -1, names: [1: ["state.plist": .file], 2: ["link": .way]])
    #expect(watches.classify(ArraySlice(events.flatMap { $0 })) == expected)
  }

  @Test(
    "the plan for a link: the link's directory for the link, the real file's for the file, and their parents"
  )
  func planForLink() throws {
    let directory = try TemporaryDirectory()
    try Self.makeDirectory(directory.file("real"))
    try Self.link(directory.file("link"), to: "real/state.plist")
    // Split as the watcher splits paths (the temp directory's may hold "//").
    let slash = try #require(directory.path.lastIndex(of: "/"))
    let parent = String(directory.path[..<slash])
    let name = String(directory.path[directory.path.index(after: slash)...])
    #expect(
      WatchPlan(of: directory.file("link")).entries == [
        .init(directory: parent, name: name, role: .way),
        .init(directory: directory.path, name: "link", role: .way),
        .init(directory: directory.path, name: "real", role: .way),
        .init(directory: directory.file("real"), name: "state.plist", role: .file),
      ])
  }

  @Test("the plan for a store whose directory is missing watches the nearest ancestor")
  func planForMissingDirectory() throws {
    let directory = try TemporaryDirectory()
    #expect(
      WatchPlan(of: directory.file("a/b/state.plist")).entries == [
        .init(directory: directory.path, name: "a", role: .way)
      ])
  }
}
