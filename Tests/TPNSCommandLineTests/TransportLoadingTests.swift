import Foundation
import TPNSTestSupport
import Testing

/// libcurl is loaded at run time, by a command that sends; never by one
/// that does not (see CCurl.h).
@Suite struct TransportLoadingTests {
  /// The shared objects `tpns arguments…` loads, as the dynamic loader reports them.
  func loadedObjects(
    _ arguments: [String], e2e: EndToEnd, environment: [String: String] = [:]
  ) throws -> (Int32, [String]) {
    let result = try e2e.tpns.run(
      arguments, environment: environment.merging(["LD_DEBUG": "files"]) { $1 })
    let loaded = result.stderr.split(separator: "\n").compactMap { line -> String? in
      guard let range = line.range(of: "file=") else { return nil }
      return String(line[range.upperBound...].prefix { $0 != " " && $0 != ";" })
    }
    return (result.status, loaded)
  }

  @Test("a command that does not send never loads libcurl; one that sends, and --version, do")
  func loadsOnlyToSend() throws {
    let e2e = try EndToEnd()
    var (status, loaded) = try loadedObjects(
      ["add", "ABCDEFGHJKLMNPRSTUVW", "--no-sync"], e2e: e2e)
    #expect(status == 0)
    #expect(!loaded.isEmpty)  // the loader reported what it loaded
    #expect(!loaded.contains { $0.hasPrefix("libcurl") }, "\(loaded)")
    (status, loaded) = try loadedObjects(["list"], e2e: e2e)
    #expect(status == 0)
    #expect(!loaded.contains { $0.hasPrefix("libcurl") }, "\(loaded)")
    // Registering sends (the stored UID, too).
    (status, loaded) = try loadedObjects(
      ["register"], e2e: e2e, environment: ["TPNS_TOKEN": EndToEnd.token])
    #expect(status == 0)
    // OpenSSL's libcurl, the one the package depends on, and no other flavour.
    #expect(loaded.contains("libcurl.so.4"), "\(loaded)")
    #expect(!loaded.contains("libcurl-gnutls.so.4"), "\(loaded)")
    (status, loaded) = try loadedObjects(["--version"], e2e: e2e)
    #expect(status == 0)
    #expect(loaded.contains("libcurl.so.4"), "\(loaded)")
  }

  @Test("--version names the libcurl it runs on and that libcurl's TLS library, OpenSSL")
  func versionNamesTLSLibrary() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("(libcurl "), "\(result.stdout)")
    #expect(result.stdout.contains("OpenSSL/"), "\(result.stdout)")
  }
}
