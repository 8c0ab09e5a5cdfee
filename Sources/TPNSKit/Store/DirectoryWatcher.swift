import Dispatch
import Locking
import Reactive

#if canImport(Glibc)
  import Glibc
#endif

/// Changes to one file, seen through inotify on its directory: the store is
/// replaced by rename on every write, so a watch on the file's inode would
/// lose it after the first change.
///
///     DirectoryWatcher.changes(of: "/home/me/.config/tpns/state.plist")  // next(()) per change
public enum DirectoryWatcher {
  /// A `()` for each create, write, rename to or from, or delete of the file
  /// at `path`. Fails if inotify cannot watch its directory.
  public static func changes(of path: String) -> Observable<Void> {
    let directory = AtomicFile.parentDirectory(of: path)
    let fileName = AtomicFile.fileName(of: path)
    return Observable.create { observer in
      let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
      guard descriptor >= 0 else {
        observer.onError(StoreError.io(operation: "watch", path: directory, errno: errno))
        return Disposables.create()
      }
      let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
      guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
        let failure = errno
        close(descriptor)
        observer.onError(StoreError.io(operation: "watch", path: directory, errno: failure))
        return Disposables.create()
      }
      let stopped = BooleanDisposable()
      // A thread of its own: it blocks in poll(2), waking every 100 ms to see
      // whether the subscription was disposed.
      DispatchQueue(label: "tpns.store-watcher").async {
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !stopped.isDisposed {
          var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
          guard poll(&poller, 1, 100) > 0 else { continue }
          let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          guard count > 0 else { continue }
          if mentions(fileName, in: buffer[..<count]), !stopped.isDisposed { observer.onNext(()) }
        }
      }
      return stopped
    }
  }

  /// Whether any inotify event in `events` names `fileName`.
  static func mentions(_ fileName: String, in events: ArraySlice<UInt8>) -> Bool {
    let header = MemoryLayout<inotify_event>.size
    var offset = events.startIndex
    let target = Array(fileName.utf8)
    while offset + header <= events.endIndex {
      let length = events.withUnsafeBytes { raw in
        Int(raw.loadUnaligned(fromByteOffset: offset - events.startIndex + 12, as: UInt32.self))
      }
      let nameStart = offset + header
      let nameEnd = min(nameStart + length, events.endIndex)
      let name = events[nameStart..<nameEnd].prefix { $0 != 0 }
      if name.elementsEqual(target) { return true }
      offset = nameStart + length
    }
    return false
  }
}
