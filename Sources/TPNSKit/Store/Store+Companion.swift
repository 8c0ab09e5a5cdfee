#if canImport(Glibc)
  import Glibc
#endif

extension Store {
  /// The file beside the store whose name ends in `suffix` (`.watch.lock`
  /// gives `state.plist.watch.lock`; for a symbolic link, beside its target,
  /// as the store's own locks are, so that every name of one store shares
  /// it), opened for reading and writing and created (mode 0600) if
  /// missing. Refused as a lock file is (see
  /// ``StoreDirectory/openLock(_:)``) if another user owns it. Creates the
  /// store's directories if `creatingDirectories`; otherwise nil while the
  /// store's directory is missing (deleted, or halfway through being
  /// replaced), for a watcher that follows the store as its directory comes
  /// and goes. The caller closes the descriptor.
  ///
  ///     try store.openCompanion(".watch.lock", creatingDirectories: false)  // nil while the directory is gone
  public func openCompanion(
    _ suffix: String, creatingDirectories: Bool
  ) throws(StoreError) -> Int32? {
    guard let location = try locate(creating: creatingDirectories) else { return nil }
    return try location.directory.openLock(location.name + suffix).descriptor
  }
}
