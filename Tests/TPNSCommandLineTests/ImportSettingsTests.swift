import Foundation
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// `tpns import` of another tpns store brings each UID's settings
/// (`UIDSettings`: interval, format) along; `--replace` makes them exactly
/// the store's. A file without settings (an app's preferences) changes none.
@Suite struct ImportSettingsTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"
  static let server = "http://127.0.0.1:1/tpns"

  /// A store written by tpns: `a` with interval 30 and a format, `b` without settings.
  static func source(in directory: TemporaryDirectory) throws -> TPNSProcess {
    let tpns = TPNSProcess(store: directory.file("old/state.plist"), server: server)
    #expect(
      try tpns.run(["add", "--no-sync", a, "--interval", "30", "--format", "motion at %s"]).status
        == 0)
    #expect(try tpns.run(["add", "--no-sync", b]).status == 0)
    return tpns
  }

  @Test("importing a store carries each UID's interval and format over")
  func carried() throws {
    let directory = try TemporaryDirectory()
    let old = try Self.source(in: directory)
    let tpns = TPNSProcess(store: directory.file("new/state.plist"), server: Self.server)
    let result = try tpns.run(["import", old.store, "--no-sync"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("added \(Self.a) (interval 30 s, format \"motion at %s\")\n"))
    let state = try Store(path: tpns.store).load()
    #expect(state.uids == [Self.a, Self.b])
    #expect(state.settings == [Self.a: try MappingSettings(interval: 30, format: "motion at %s")])
  }

  @Test("an import keeps stored settings the store has none for; --replace makes them the store's")
  func replace() throws {
    let directory = try TemporaryDirectory()
    let old = try Self.source(in: directory)
    let tpns = TPNSProcess(store: directory.file("new/state.plist"), server: Self.server)
    #expect(try tpns.run(["add", "--no-sync", Self.b, "--interval", "60"]).status == 0)
    #expect(try tpns.run(["import", old.store, "--no-sync"]).status == 0)
    var state = try Store(path: tpns.store).load()
    #expect(state.settings(of: Self.b) == (try MappingSettings(interval: 60)))
    #expect(try tpns.run(["import", "--replace", old.store, "--no-sync"]).status == 0)
    state = try Store(path: tpns.store).load()
    #expect(state.uids == [Self.a, Self.b])
    #expect(state.settings == [Self.a: try MappingSettings(interval: 30, format: "motion at %s")])
    // An app's preferences file has no settings: --replace leaves them.
    let prefs = directory.file("prefs.plist")
    try BinaryPropertyList.foundation(["UIDs": [Self.a]]).write(to: URL(fileURLWithPath: prefs))
    #expect(try tpns.run(["import", "--replace", prefs, "--no-sync"]).status == 0)
    state = try Store(path: tpns.store).load()
    #expect(state.settings == [Self.a: try MappingSettings(interval: 30, format: "motion at %s")])
  }

  @Test("add --from stops at 64 MiB, as import does: 65, nothing stored, never read to its end")
  func fromIsCapped() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    let started = ContinuousClock.now
    let result = try tpns.run(["add", "--from", "/dev/zero"], timeout: .seconds(60))
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "Error: /dev/zero is larger than 64 MiB: it is no list of UIDs\n"
        + "Pass a file of UIDs, one a line ('#' starts a comment).\n")
    #expect(ContinuousClock.now - started < .seconds(30))
    #expect(contents(of: tpns.store) == nil)
    let imported = try tpns.run(["import", "/dev/zero"], timeout: .seconds(60))
    #expect(imported.status == 65)
    #expect(
      imported.stderr.hasPrefix(
        "Error: /dev/zero is larger than 64 MiB: it is no preferences file or store\n"))
  }
}
