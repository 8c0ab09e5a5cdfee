/// The version of tpns and tpns-server, which ship together.
public enum TPNSVersion {
  /// The version string `--version` prints.
  public static let current = "0.2.0"
}
