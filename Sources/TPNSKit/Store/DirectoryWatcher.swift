import Dispatch
import Glibc
import Locking
import Reactive

/// Changes to one file, seen through inotify on its directory: the store is
/// replaced by rename on every write, so a watch on the file's inode would
/// lose it after the first change.
///
/// For a symbolic link it also watches the directory of each link on the
/// way, so that a re-pointed link is seen. A watched directory that is
/// deleted or replaced (`mv dir dir.old && mv new dir`) makes it watch the
/// nearest existing ancestor until the directory is back: a re-arm. Costs
/// one thread, one inotify descriptor and a watch per directory on the way.
///
///     DirectoryWatcher.changes(of: "/home/me/.config/tpns/state.plist")  // .file per write
public enum DirectoryWatcher {
  /// Why the file may have changed.
  public enum Change: Sendable, Equatable {
    /// The file was created, written, renamed or deleted.
    case file
    /// The watches were set up again: a watched directory was replaced,
    /// deleted or came back, a link on the way was re-pointed, or a re-arm
    /// was asked for. The file may be another one now.
    case rearmed
    /// The kernel's event queue overflowed and events were lost: anything may
    /// have changed. The watches were set up again, too.
    case overflow
  }

  /// A change for each create, write, rename or delete of the file at
  /// `path`, and each re-arm (also when `rearm` sends). Fails if inotify
  /// cannot be set up or cannot watch a directory.
  public static func changes(
    of path: String, rearm: Observable<Void> = .never()
  ) -> Observable<Change> {
    Observable.create { observer in
      let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
      guard descriptor >= 0 else {
        observer.onError(StoreError.io(operation: "watch", path: path, errno: errno))
        return Disposables.create()
      }
      let watches = InotifyWatches(descriptor: descriptor)
      do throws(StoreError) {
        try watches.arm(path)
      } catch {
        close(descriptor)
        observer.onError(error)
        return Disposables.create()
      }
      let stopped = BooleanDisposable()
      let rearmRequested = LockedState(false)
      let requests = rearm.subscribe(onNext: { rearmRequested.withLock { $0 = true } })
      // A thread of its own: it blocks in poll(2), waking every 100 ms to see
      // whether the subscription was disposed or a re-arm was asked for.
      DispatchQueue(label: "tpns.store-watcher").async {
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopped.isDisposed {
          var change: Change?
          var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
          if poll(&poller, 1, 100) > 0 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { change = watches.classify(buffer[..<count]) }
          }
          let requested = rearmRequested.withLock { requested in
            defer { requested = false }
            return requested
          }
          if requested, change != .overflow { change = .rearmed }
          guard let change, !stopped.isDisposed else { continue }
          if change != .file {
            do throws(StoreError) {
              try watches.arm(path)
            } catch {
              observer.onError(error)
              return
            }
          }
          observer.onNext(change)
        }
      }
      return Disposables.create(requests, stopped)
    }
  }
}

/// The directories to watch for one file, and the names in each that matter:
/// each link on the way and the real file in their directories, each such
/// directory in its parent (to see it replaced), and for a missing directory
/// its nearest existing ancestor (to see it come back).
struct WatchPlan: Equatable {
  enum Role: Equatable {
    /// The file itself.
    case file
    /// A link or a directory on the way: a change to it means working out
    /// the way again.
    case way
  }

  struct Entry: Equatable {
    let directory: String
    let name: String
    let role: Role
  }

  private(set) var entries: [Entry] = []

  /// The plan for `path`, following at most 8 links, as the store does.
  init(of path: String) {
    var path = path
    for depth in 0...8 {
      let directory = AtomicFile.parentDirectory(of: path)
      let name = AtomicFile.fileName(of: path)
      guard Self.isDirectory(directory) else {
        // Its nearest existing ancestor, to see the next directory down come back.
        var missing = directory
        var parent = AtomicFile.parentDirectory(of: missing)
        while parent != missing, !Self.isDirectory(parent) {
          missing = parent
          parent = AtomicFile.parentDirectory(of: missing)
        }
        entries.append(Entry(directory: parent, name: AtomicFile.fileName(of: missing), role: .way))
        return
      }
      // The parent sees the directory go even while an open file in it (the
      // watch lock) keeps the kernel from saying so on the directory itself.
      let parent = AtomicFile.parentDirectory(of: directory)
      if parent != directory {
        entries.append(
          Entry(directory: parent, name: AtomicFile.fileName(of: directory), role: .way))
      }
      guard depth < 8, let destination = StoreDirectory.readLink(path) else {
        entries.append(Entry(directory: directory, name: name, role: .file))
        return
      }
      entries.append(Entry(directory: directory, name: name, role: .way))
      path = destination.hasPrefix("/") ? destination : directory + "/" + destination
    }
  }

  private static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
  }
}

/// The inotify watches of one descriptor and what their events mean.
final class InotifyWatches: @unchecked Sendable {
  // @unchecked: used by the watcher's thread only (and by `changes` before it starts).
  private let descriptor: Int32
  /// For each watch descriptor, the names in its directory and their roles.
  private var names: [Int32: [String: WatchPlan.Role]] = [:]

  static let mask = UInt32(
    IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF
      | IN_MOVE_SELF | IN_ONLYDIR)

  /// Watches on `descriptor`: none yet, or `names` (for tests of ``classify(_:)``).
  init(descriptor: Int32, names: [Int32: [String: WatchPlan.Role]] = [:]) {
    self.descriptor = descriptor
    self.names = names
  }

  /// Watches the directories of the plan for `path` (a directory already
  /// watched keeps its watch) and drops the watches it no longer needs. A
  /// directory that vanished in the meantime means working out the plan again.
  func arm(_ path: String) throws(StoreError) {
    var plan = WatchPlan(of: path)
    for _ in 0..<16 {
      var armed: [Int32: [String: WatchPlan.Role]] = [:]
      var vanished = false
      for entry in plan.entries {
        let watch = inotify_add_watch(descriptor, entry.directory, Self.mask)
        guard watch >= 0 else {
          guard errno == ENOENT || errno == ENOTDIR else {
            throw .io(operation: "watch", path: entry.directory, errno: errno)
          }
          vanished = true
          break
        }
        // One directory may be watched for two reasons: the way wins.
        if armed[watch]?[entry.name] != .way { armed[watch, default: [:]][entry.name] = entry.role }
      }
      for stale in names.keys where armed[stale] == nil {
        inotify_rm_watch(descriptor, stale)
      }
      names = armed
      // What was missing may have come back before its ancestor was watched.
      let now = WatchPlan(of: path)
      if !vanished, now == plan { return }
      plan = now
    }
  }

  /// What the events read from the inotify descriptor mean: nil if none
  /// concerns the file.
  func classify(_ events: ArraySlice<UInt8>) -> DirectoryWatcher.Change? {
    let header = MemoryLayout<inotify_event>.size
    let selfMask = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT)
    var change: DirectoryWatcher.Change?
    var offset = events.startIndex
    while offset + header <= events.endIndex {
      let event = events.withUnsafeBytes {
        $0.loadUnaligned(fromByteOffset: offset - events.startIndex, as: inotify_event.self)
      }
      let nameStart = offset + header
      let nameBytes = events[nameStart..<min(nameStart + Int(event.len), events.endIndex)]
      offset = nameStart + Int(event.len)
      if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { return .overflow }
      guard let roles = names[event.wd] else { continue }
      let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
      if event.mask & selfMask != 0 || roles[name] == .way {
        change = .rearmed
      } else if roles[name] == .file, change == nil {
        change = .file
      }
    }
    return change
  }
}
