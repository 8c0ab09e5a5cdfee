import Locking

/// A group of disposables disposed together, or removed (and disposed) one by
/// one, as `flatMap` does when an inner sequence ends.
public final class CompositeDisposable: Disposable {
  /// Identifies a member, to remove it later.
  public struct Key: Hashable, Sendable {
    fileprivate let value: UInt64
  }

  private struct State {
    var isDisposed = false
    var nextKey: UInt64 = 0
    // An array, not a dictionary: groups are small, and a dictionary's first
    // use costs a one-shot command a runtime conformance scan.
    var members: [(key: UInt64, disposable: any Disposable)] = []
  }

  private let state = LockedState(State())

  /// A group holding `disposables`.
  public init(_ disposables: [any Disposable] = []) {
    for disposable in disposables { insert(disposable) }
  }

  /// The number of members not yet disposed.
  public var count: Int {
    state.withLock { $0.members.count }
  }

  /// Adds a member; if the group is already disposed, disposes it at once and
  /// returns `nil`.
  @discardableResult
  public func insert(_ disposable: any Disposable) -> Key? {
    let key = state.withLock { state -> UInt64? in
      guard !state.isDisposed else { return nil }
      defer { state.nextKey += 1 }
      state.members.append((state.nextKey, disposable))
      return state.nextKey
    }
    guard let key else {
      disposable.dispose()
      return nil
    }
    return Key(value: key)
  }

  /// Removes the member and disposes it.
  public func remove(for key: Key) {
    let member = state.withLock { state -> (any Disposable)? in
      guard let index = state.members.firstIndex(where: { $0.key == key.value }) else {
        return nil
      }
      return state.members.remove(at: index).disposable
    }
    member?.dispose()
  }

  public func dispose() {
    let members = state.withLock { state -> [any Disposable] in
      guard !state.isDisposed else { return [] }
      state.isDisposed = true
      defer { state.members = [] }
      return state.members.map(\.disposable)
    }
    for member in members { member.dispose() }
  }
}
