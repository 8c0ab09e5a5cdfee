import Foundation

extension RunningEmulator {
  /// Activates only `uids` (`PUT /_emulator/whitelist`), or every UID when nil
  /// (`DELETE`), with curl: the test transport sends only GET and POST.
  public func activate(only uids: [String]?) throws {
    let url = server.replacingOccurrences(of: "/tpns", with: "/_emulator/whitelist")
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    curl.arguments =
      ["-fsS", "-o", "/dev/null", "-X", uids == nil ? "DELETE" : "PUT", url]
      + (uids.map { ["--data-binary", $0.joined(separator: "\n")] } ?? [])
    try curl.run()
    curl.waitUntilExit()
    guard curl.terminationStatus == 0 else {
      throw InspectionFailure(description: "\(url): curl exited \(curl.terminationStatus)")
    }
  }
}
