#if canImport(Glibc)
  import Glibc
#endif

/// The environment variables tpns reads.
enum ProcessEnvironment {
  static let names = ["TPNS_SERVER", "TPNS_STORE", "XDG_CONFIG_HOME", "HOME"]

  /// Those variables that are set.
  static var current: [String: String] {
    var values: [String: String] = [:]
    for name in names {
      if let value = getenv(name) { values[name] = String(cString: value) }
    }
    return values
  }
}
