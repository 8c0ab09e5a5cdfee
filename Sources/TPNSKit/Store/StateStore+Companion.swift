#if canImport(Glibc)
  import Glibc
#endif

extension StateStore {
  /// Where ``companionPath(_:)`` puts a file beside the store, but only if
  /// the real file's directory exists now; nil while it is missing (deleted,
  /// or halfway through being replaced), and nothing is created. For a
  /// watcher that follows the store as its directory comes and goes.
  ///
  ///     try store.existingCompanionPath(".watch.lock")  // nil while the directory is gone
  public func existingCompanionPath(_ suffix: String) throws(StoreError) -> String? {
    let target = try target()
    var status = stat()
    guard stat(AtomicFile.parentDirectory(of: target), &status) == 0,
      status.st_mode & S_IFMT == S_IFDIR
    else { return nil }
    return target + suffix
  }
}
