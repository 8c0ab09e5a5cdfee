import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Collects the declarations the property wrappers make while a type's
/// `init()` runs, in order, so that reading a type's declarations needs no
/// dynamic cast of each property to a protocol (each makes the Swift runtime
/// scan the binary's conformance records; see docs/PERFORMANCE.md). Collection
/// is per thread: wrappers made by another thread, or outside ``collect(_:)``,
/// record nothing.
enum DeclarationCollector {
  typealias Build = @Sendable (_ key: [String]) -> [ArgumentDefinition]

  /// A thread's declarations being collected.
  private struct ThreadDeclarations {
    var thread: UInt
    var builds: [Build]
  }

  /// The declarations being collected: a stack; a thread records into its
  /// newest entry. (An array of structs, not a dictionary or tuples, whose
  /// types cost the runtime a conformance scan or a longer mangled name.)
  private static let collecting = LockedState<[ThreadDeclarations]>([])

  private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

  /// The declarations made while `body` runs on this thread, in order.
  static func collect(_ body: () -> Void) -> [Build] {
    let thread = currentThread
    collecting.withLock { $0.append(ThreadDeclarations(thread: thread, builds: [])) }
    body()
    return collecting.withLock { stack in
      guard let index = stack.lastIndex(where: { $0.thread == thread }) else { return [] }
      return stack.remove(at: index).builds
    }
  }

  /// Records a wrapper's declaration, if this thread is collecting.
  static func record(_ build: @escaping Build) {
    let thread = currentThread
    collecting.withLock { stack in
      guard let index = stack.lastIndex(where: { $0.thread == thread }) else { return }
      stack[index].builds.append(build)
    }
  }
}
