/// Collects the declarations the property wrappers make while a type's
/// `init()` runs, in order (``ParsableArguments/definitions(prefix:)``).
/// Wrappers made outside ``collect(_:)`` record nothing.
enum DeclarationCollector {
  typealias Build = @Sendable (_ key: [String]) -> [ArgumentDefinition]

  /// The declarations being collected, seen only by the thread running `collect`.
  final class Builds: @unchecked Sendable {
    var list: [Build] = []
  }

  @TaskLocal static var current: Builds?

  /// The declarations made while `body` runs on this thread, in order.
  static func collect(_ body: () -> Void) -> [Build] {
    let builds = Builds()
    $current.withValue(builds, operation: body)
    return builds.list
  }

  static func record(_ build: @escaping Build) {
    current?.list.append(build)
  }
}
