import Reactive

/// The store as it changes: the current contents first, then after each
/// burst of changes (debounced, but never held back longer than `maxDelay`),
/// the parsed file, why it cannot be read, or that it is gone; consecutive
/// equal events once.
///
///     StoreWatcher.events(of: store, debounce: .milliseconds(200), scheduler: scheduler)
public enum StoreWatcher {
  /// Events of the store at `store.path`, from `changes`: by default
  /// inotify's (``DirectoryWatcher/changes(of:rearm:)``). Every kind of
  /// change, a re-arm or an overflow included, means reading the file again.
  public static func events(
    of store: Store, changes: Observable<DirectoryWatcher.Change>? = nil,
    debounce: Duration, maxDelay: Duration? = nil, scheduler: some SchedulerType
  ) -> Observable<StoreEvent> {
    events(
      changes: (changes ?? DirectoryWatcher.changes(of: store.path)).map { _ in () },
      debounce: debounce, maxDelay: maxDelay, scheduler: scheduler
    ) {
      read(store)
    }
  }

  /// Events from any source of change signals and any reader: the testable core.
  public static func events(
    changes: Observable<Void>, debounce: Duration, maxDelay: Duration? = nil,
    scheduler: some SchedulerType, read: @escaping @Sendable () -> StoreEvent
  ) -> Observable<StoreEvent> {
    // The first read tells a store not created yet from one deleted later.
    let first = Observable<StoreEvent>.deferred {
      let event = read()
      return .just(event == .deleted ? .absent : event)
    }
    return first.concat(
      changes.debounce(debounce, maxDelay: maxDelay, scheduler: scheduler).map { read() }
    )
    .distinctUntilChanged()
  }

  /// What the file holds now.
  public static func read(_ store: Store) -> StoreEvent {
    do throws(StoreError) {
      guard try store.exists() else { return .deleted }
      return .changed(try store.load())
    } catch {
      return .unreadable(error)
    }
  }
}

/// What a watched store file holds after a change.
public enum StoreEvent: Sendable, Equatable {
  /// The file parsed: its contents.
  case changed(StoreContents)
  /// The file cannot be read or does not parse; the last good state stands.
  case unreadable(StoreError)
  /// The file is gone.
  case deleted
  /// There is no file yet: the first read found none (not a deletion).
  case absent
}
