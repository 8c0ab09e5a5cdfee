import Glibc

/// The environment variables tpns reads.
enum ProcessEnvironment {
  static let names = [
    "TPNS_SERVER", "TPNS_STORE", "TPNS_TOKEN", "TPNS_REQUIRE_HTTPS", "TPNS_CACERT",
    "XDG_CONFIG_HOME", "HOME",
    // Whether to colour a terminal's output.
    "NO_COLOR", "TERM",
    // The proxies libcurl takes for http:// (it ignores HTTP_PROXY), named in warnings.
    "http_proxy", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
  ]

  /// Those variables that are set.
  static var current: [String: String] {
    Dictionary(
      uniqueKeysWithValues: names.compactMap { name in
        getenv(name).map { (name, String(cString: $0)) }
      })
  }
}
