/// The version of tpns.
public enum TPNSVersion {
  /// The version string `--version` prints.
  public static let current = "0.1.0"
}
