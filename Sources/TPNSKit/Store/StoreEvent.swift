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
