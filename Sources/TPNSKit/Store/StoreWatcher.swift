import Reactive

/// The store as it changes: the current contents first, then after each
/// burst of changes (debounced on the scheduler's clock), the parsed file,
/// or why it cannot be read, or that it is gone. Consecutive equal events
/// are reported once. Nothing here ever writes the file.
///
///     StoreWatcher.events(of: store, debounce: .milliseconds(200), scheduler: scheduler)
public enum StoreWatcher {
  /// Events of the store at `store.path`, from inotify.
  public static func events(
    of store: StateStore, debounce: Duration, scheduler: some SchedulerType
  ) -> Observable<StoreEvent> {
    events(
      changes: DirectoryWatcher.changes(of: store.path), debounce: debounce, scheduler: scheduler
    ) {
      read(store)
    }
  }

  /// Events from any source of change signals and any reader: the testable core.
  public static func events(
    changes: Observable<Void>, debounce: Duration, scheduler: some SchedulerType,
    read: @escaping @Sendable () -> StoreEvent
  ) -> Observable<StoreEvent> {
    changes.debounce(debounce, scheduler: scheduler)
      .startWith(())
      .map { read() }
      .distinctUntilChanged()
  }

  /// What the file holds now.
  public static func read(_ store: StateStore) -> StoreEvent {
    do throws(StoreError) {
      guard try store.exists() else { return .deleted }
      return .changed(try store.load())
    } catch {
      return .unreadable(error)
    }
  }
}
