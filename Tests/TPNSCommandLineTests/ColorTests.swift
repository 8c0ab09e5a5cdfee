import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSCommandLine

/// `--color auto|always|never` and `NO_COLOR`: errors red, success green,
/// pending yellow, on a terminal only unless asked.
@Suite struct ColorTests {
  static let red = "\u{1b}[31m"
  static let green = "\u{1b}[32m"
  static let yellow = "\u{1b}[33m"
  static let reset = "\u{1b}[0m"

  @Test(
    "a palette paints only when enabled, and only the label of an error or warning",
    arguments: [true, false])
  func palette(enabled: Bool) {
    let palette = Palette(isEnabled: enabled)
    #expect(palette.paint("ok", .success) == (enabled ? "\(Self.green)ok\(Self.reset)" : "ok"))
    #expect(palette.paint("plain", nil) == "plain")
    #expect(
      palette.paintLabels("Error: bad\nhint\nWarning: careful")
        == (enabled
          ? "\(Self.red)Error:\(Self.reset) bad\nhint\n\(Self.yellow)Warning:\(Self.reset) careful"
          : "Error: bad\nhint\nWarning: careful"))
  }

  @Test(
    "auto is off when not a terminal, with NO_COLOR, or with TERM=dumb; always and never say so",
    arguments: [
      (ColorChoice.always, [String: String](), true), (.never, [:], false),
      (.auto, [:], false),  // the test's stdout is not a terminal
      (.always, ["NO_COLOR": "1"], true),  // an explicit choice wins over NO_COLOR
    ])
  func choice(choice: ColorChoice, environment: [String: String], enabled: Bool) {
    #expect(Palette.of(1, choice: choice, environment: environment).isEnabled == enabled)
  }

  @Test("piped, nothing is coloured; --color always colours success, pending and errors")
  func process() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let plain = try tpns.run(["add", "--no-sync", "ABCDEFGHJKLMNPRSTUVW"])
    #expect(plain.status == 0)
    #expect(!plain.stdout.contains("\u{1b}") && !plain.stderr.contains("\u{1b}"))
    let added = try tpns.run(["add", "--no-sync", "0123456789ABCDEFGHJK", "--color", "always"])
    #expect(added.stdout.hasPrefix("\(Self.green)added 0123456789ABCDEFGHJK"))
    let status = try tpns.run(["status", "--color=always"])
    #expect(status.stdout.contains("\(Self.yellow)pending "))
    let error = try tpns.run(["add", "bad", "--color", "always"])
    #expect(error.status == 65)
    #expect(error.stderr.hasPrefix("\(Self.red)Error:\(Self.reset) invalid UID 'bad'"))
    let usage = try tpns.run(["add", "--color", "always", "--jsn"])
    #expect(usage.status == 64)
    #expect(usage.stderr.hasPrefix("\(Self.red)Error:\(Self.reset) Unknown option '--jsn'"))
    let never = try tpns.run(["add", "bad", "--color", "never"])
    #expect(!never.stderr.contains("\u{1b}"))
  }
}
