/// The version of tpns and tpns-server, which ship together.
///
/// ```swift
/// print(TPNSVersion.current)   // 0.2.0
/// ```
public enum TPNSVersion {
  /// The version string `--version` prints.
  public static let current = "0.2.0"
}
