import TPNSKit

/// Starts loading libcurl early for a command line that will send, so that
/// loading it (most of a short command's time) overlaps parsing the
/// arguments and reading the store. Only a hint, read from the raw
/// arguments before they are parsed: a command that sends without it
/// loads libcurl when it first sends, and one wrongly hinted only loaded a
/// library it did not use.
public enum TransportPreload {
  /// The subcommands that send to the server.
  static let sendingCommands: Set<String> = [
    "register", "add", "import", "remove", "sync", "event", "watch", "ui", "mapping",
    "rm-mapping", "unregister",
  ]

  /// Arguments after which nothing is sent: help, and storing only.
  static let localFlags: Set<String> = ["--help", "-h", "--no-sync"]

  /// Whether `arguments` (without the program's name) will send.
  static func sends(_ arguments: [String]) -> Bool {
    guard let command = arguments.first, sendingCommands.contains(command) else { return false }
    return !arguments.prefix { $0 != "--" }.contains { localFlags.contains($0) }
  }

  /// Starts loading libcurl if `arguments` will send (see ``CurlTransport/preload()``).
  public static func start(for arguments: [String]) {
    if sends(arguments) { CurlTransport.preload() }
  }
}
