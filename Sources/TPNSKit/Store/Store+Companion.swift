#if canImport(Glibc)
  import Glibc
#endif

extension Store {
  /// The file beside the store whose name ends in `suffix` (`.watch.lock`:
  /// `state.plist.watch.lock`, beside a link's target as the store's locks
  /// are), opened as a lock file is (``StoreDirectory/openLock(_:)``).
  /// Creates the store's directories if `creatingDirectories`; otherwise nil
  /// while the directory is missing. The caller closes the descriptor.
  ///
  ///     try store.openCompanion(".watch.lock", creatingDirectories: false)  // nil while the directory is gone
  public func openCompanion(
    _ suffix: String, creatingDirectories: Bool
  ) throws(StoreError) -> Int32? {
    guard let location = try locate(creating: creatingDirectories) else { return nil }
    return try location.directory.openLock(location.name + suffix).descriptor
  }
}
