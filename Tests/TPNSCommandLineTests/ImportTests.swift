import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// `tpns import FILE`: the list of the app's preferences file or another
/// store, XML or binary, against the emulator.
@Suite struct ImportTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"
  static let c = "CCCCCCCCCCCCCCCCCCCC"
  typealias Binary = BinaryPropertyList

  /// The quickstart's preferences as Python 3.11's `plistlib.dump(prefs, f,
  /// fmt=plistlib.FMT_BINARY)` writes them, `prefs` being `{"UIDs": [a, b],
  /// "NSLanguages": ["en-US", "de-DE"], "WebKitShrinksStandaloneImagesToFit":
  /// True, "LastLaunch": 1700000000.5}`: a fixture, so that this needs no Python.
  static let plistlibPreferences = Data(
    base64Encoded:
      "YnBsaXN0MDDUAQIDBAUGCQxaTGFzdExhdW5jaFtOU0xhbmd1YWdlc1RVSURzXxAiV2ViS2l0U2hyaW5rc1N0YW5k"
      + "YWxvbmVJbWFnZXNUb0ZpdCNB2VT8QCAAAKIHCFVlbi1VU1VkZS1ERaIKC18QFEFCQ0RFRkdISktMTU5QUlNUVVZX"
      + "XxAUMDEyMzQ1Njc4OUFCQ0RFRkdISksJCBEcKC1SW15kam2EmwAAAAAAAAEBAAAAAAAAAA0AAAAAAAAAAAAAAAAA"
      + "AACc")!

  /// An XML preferences file (as `defaults export` writes one) listing `uids`.
  static func xmlPreferences(_ uids: [String]) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>NSLanguages</key>
    \t<array><string>en-US</string></array>
    \t<key>UIDs</key>
    \t<array>
    \(uids.map { "\t\t<string>\($0)</string>" }.joined(separator: "\n"))
    \t</array>
    </dict>
    </plist>

    """
  }

  /// An emulator, a store registered at it, and a file named `name` in the
  /// test's directory.
  static func registered() throws -> EndToEnd {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["register", EndToEnd.token])
    #expect(result.status == 0, "\(result.stderr)")
    return e2e
  }

  static func write(_ data: Data, to path: String) throws {
    try data.write(to: URL(fileURLWithPath: path))
  }

  @Test("the app's binary preferences file (Python's plistlib, FMT_BINARY): added and synced")
  func plistlibBinary() throws {
    let e2e = try Self.registered()
    let file = e2e.directory.file("com.tutk.cc.samples.tpns.ios.plist")
    try Self.write(Self.plistlibPreferences, to: file)
    let result = try e2e.tpns.run(["import", file])
    #expect(
      result
        == .init(
          status: 0,
          stdout: "added \(Self.a)\nadded \(Self.b)\nsynced 2 UIDs to \(e2e.server.server)\n",
          stderr: ""))
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.a, Self.b])
    #expect(try StoreFile(path: e2e.tpns.store).uids == [Self.a, Self.b])
  }

  @Test(
    "a binary file the python3 on PATH writes with plistlib (dates, data, numbers beside the list)",
    .enabled(if: BinaryPropertyList.isAvailable("python3")))
  func plistlibLive() throws {
    let e2e = try Self.registered()
    let file = e2e.directory.file("prefs.plist")
    let data = try #require(
      try Binary.plistlib(
        "{'UIDs': ['\(Self.a.lowercased())', '\(Self.b)'], 'When': datetime.datetime(2024, 1, 2),"
          + " 'Blob': b'\\x00\\xff', 'Count': -7, 'Nested': {'x': [1.5, True]}}"))
    try Self.write(data, to: file)
    let result = try e2e.tpns.run(["import", file])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.a, Self.b])
  }

  @Test(
    "a file converted by plutil -convert binary1",
    .enabled(if: BinaryPropertyList.isAvailable("plutil")))
  func plutilBinary() throws {
    let e2e = try Self.registered()
    let file = e2e.directory.file("prefs.plist")
    try Self.write(Data(Self.xmlPreferences([Self.b, Self.a]).utf8), to: file)
    #expect(try Binary.plutil(convert: file))
    #expect(contents(of: file)?.starts(with: Array("bplist00".utf8)) == true)
    let result = try e2e.tpns.run(["import", file])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.b, Self.a])
  }

  @Test("an XML preferences file, and the same on standard input ('-')")
  func xml() throws {
    let e2e = try Self.registered()
    let file = e2e.directory.file("prefs.plist")
    try Self.write(Data(Self.xmlPreferences([Self.a]).utf8), to: file)
    var result = try e2e.tpns.run(["import", file])
    #expect(result.stdout == "added \(Self.a)\nsynced 1 UID to \(e2e.server.server)\n")
    result = try e2e.tpns.run(["import", "-"], input: Self.xmlPreferences([Self.a, Self.b]))
    #expect(
      result.stdout
        == "\(Self.a) is already in the list\nadded \(Self.b)\nsynced 2 UIDs to \(e2e.server.server)\n"
    )
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.a, Self.b])
  }

  @Test("another tpns store: its list is added after the stored one, which is kept in its order")
  func anotherStore() throws {
    let e2e = try Self.registered()
    let other = TPNSProcess(store: e2e.directory.file("other.plist"), server: e2e.server.server)
    #expect(try other.run(["add", "--no-sync", Self.b, Self.a]).status == 0)
    #expect(try e2e.tpns.run(["add", Self.c, Self.a]).status == 0)
    let result = try e2e.tpns.run(["import", other.store])
    #expect(
      result.stdout
        == "added \(Self.b)\n\(Self.a) is already in the list\n"
        + "synced 3 UIDs to \(e2e.server.server)\n")
    #expect(try e2e.store.load().uids == [Self.c, Self.a, Self.b])
    #expect(try e2e.replicaMatchesStore())
  }

  @Test("--replace: the list becomes the file's, in its order; UIDs not in it leave the server")
  func replace() throws {
    let e2e = try Self.registered()
    #expect(try e2e.tpns.run(["add", Self.a, Self.c]).status == 0)
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token).sorted() == [Self.a, Self.c])
    let file = e2e.directory.file("prefs.plist")
    try Self.write(Data(Self.xmlPreferences([Self.b, Self.a]).utf8), to: file)
    let result = try e2e.tpns.run(["import", "--replace", file])
    #expect(
      result.stdout
        == "removed 1  \(Self.c)\nadded \(Self.b)\n\(Self.a) is already in the list\n"
        + "synced 2 UIDs to \(e2e.server.server)\n")
    #expect(try e2e.store.load().uids == [Self.b, Self.a])
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token).sorted() == [Self.b, Self.a].sorted())
  }

  @Test("--no-sync stores the list and sends nothing; it is pending")
  func noSync() throws {
    let e2e = try Self.registered()
    let before = try e2e.server.requests().count
    let file = e2e.directory.file("prefs.plist")
    try Self.write(Self.plistlibPreferences, to: file)
    let result = try e2e.tpns.run(["import", "--no-sync", file])
    #expect(result.stdout == "added \(Self.a)\nadded \(Self.b)\n")
    #expect(try e2e.server.requests().count == before)
    #expect(try e2e.tpns.run(["status"]).stdout.contains("pending     yes: 2 to add, 0 to remove"))
  }

  @Test("an empty list is said so on stderr; with --replace it empties the stored list")
  func emptyList() throws {
    let e2e = try Self.registered()
    #expect(try e2e.tpns.run(["add", Self.a]).status == 0)
    let file = e2e.directory.file("prefs.plist")
    try Self.write(Data(Self.xmlPreferences([]).utf8), to: file)
    var result = try e2e.tpns.run(["import", file])
    #expect(result.status == 0)
    #expect(result.stderr == "no UIDs in \(file): nothing to add\n")
    #expect(try e2e.store.load().uids == [Self.a])
    result = try e2e.tpns.run(["import", "--replace", file])
    #expect(result.status == 0)
    #expect(result.stderr == "no UIDs in \(file): the list is emptied\n")
    #expect(result.stdout == "removed 0  \(Self.a)\nsynced 0 UIDs to \(e2e.server.server)\n")
    #expect(try e2e.store.load().uids == [])
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [])
  }

  @Test("an invalid UID in the file: 65 naming its item; nothing stored, removed or sent")
  func invalidUID() throws {
    let e2e = try Self.registered()
    #expect(try e2e.tpns.run(["add", Self.c]).status == 0)
    let before = try #require(contents(of: e2e.tpns.store))
    let requests = try e2e.server.requests().count
    let file = e2e.directory.file("prefs.plist")
    try Self.write(
      Binary.assemble(
        [
          Binary.dictionary(keys: [1], values: [2]), Binary.string("UIDs"), Binary.array([3, 4]),
          Binary.string(Self.a), Binary.string("BAD-UID"),
        ]), to: file)
    for arguments in [["import", file], ["import", "--replace", file]] {
      let result = try e2e.tpns.run(arguments)
      #expect(result.status == 65)
      #expect(
        result.stderr
          == "Error: invalid UID 'BAD-UID' at \(file) › UIDs item 1: character '-' at position 4 "
          + "is not allowed in a UID (only A-Z and 0-9)\n"
          + "A UID is 20 characters of A-Z and 0-9, as printed on the device.\n")
      #expect(result.stdout == "")
    }
    #expect(contents(of: e2e.tpns.store) == before)
    #expect(try e2e.server.requests().count == requests)
  }

  static let hint =
    "Pass the app's preferences file or a tpns store: a property list (XML or binary) whose "
    + "'UIDs' is an array of UID strings.\n"

  @Test(
    "a file without a list of strings under UIDs, or no property list: 65 saying why",
    arguments: [
      (
        "<plist version=\"1.0\"><dict><key>uids</key><array/></dict></plist>",
        " holds no 'UIDs' list ('uids': keys are exact, case and spaces included)"
      ),
      (
        "<plist version=\"1.0\"><dict><key>List</key><array/></dict></plist>",
        " holds no 'UIDs' list"
      ),
      (
        "<plist version=\"1.0\"><dict><key>UIDs</key><string>\(a)</string></dict></plist>",
        " holds no 'UIDs' list: 'UIDs' is a string, not an array"
      ),
      (
        "<plist version=\"1.0\"><dict><key>UIDs</key><array><integer>1</integer></array></dict></plist>",
        ": 'UIDs' item 0 is an integer, not a string"
      ),
      (
        "<plist version=\"1.0\"><array><string>\(a)</string></array></plist>",
        " holds no 'UIDs' list: its top level is an array, not a dictionary"
      ),
      ("\(a)\n\(b)\n", " is not a property list: line 1: expected a tag"),
      (
        "bplist00\u{D1}",
        " is not a property list: it is not a valid binary property list (bplist00)"
      ),
    ])
  func noList(text: String, reason: String) throws {
    let e2e = try EndToEnd()
    let file = e2e.directory.file("prefs.plist")
    try Self.write(Data(text.utf8), to: file)
    let result = try e2e.tpns.run(["import", file])
    #expect(result.status == 65)
    #expect(result.stderr == "Error: \(file)\(reason)\n" + Self.hint)
    #expect(contents(of: e2e.tpns.store) == nil)
    #expect(try e2e.server.requests().isEmpty)
  }

  @Test("a file that cannot be read: 66 naming it, with the next step", arguments: [true, false])
  func unreadable(isDirectory: Bool) throws {
    let e2e = try EndToEnd()
    let file = isDirectory ? e2e.directory.path : e2e.directory.file("missing.plist")
    let result = try e2e.tpns.run(["import", file])
    #expect(result.status == 66)
    #expect(
      result.stderr
        == "Error: cannot read \(file): "
        + (isDirectory ? "Is a directory" : "No such file or directory") + "\n"
        + "Check the path and its permissions, or pass '-' to read standard input.\n")
    #expect(contents(of: e2e.tpns.store) == nil)
  }

  @Test("with --json, a file without a list is a document with exit_code 65")
  func jsonFailure() throws {
    let e2e = try EndToEnd()
    let file = e2e.directory.file("prefs.plist")
    try Self.write(Data("<plist version=\"1.0\"><dict/></plist>".utf8), to: file)
    let result = try e2e.tpns.run(["import", "--json", file])
    #expect(result.status == 65)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(document["command"] as? String == "import")
    #expect(document["exit_code"] as? Int == 65)
    #expect(document["errors"] as? [String] == ["\(file) holds no 'UIDs' list"])
  }

  @Test("a store in binary form is read by every command, and written as XML on the next change")
  func binaryStore() throws {
    let e2e = try Self.registered()
    #expect(try e2e.tpns.run(["add", Self.a]).status == 0)
    let xml = try #require(contents(of: e2e.tpns.store))
    let object = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
    let binary = try Binary.foundation(object)
    try Self.write(binary, to: e2e.tpns.store)

    #expect(try e2e.tpns.run(["list"]).stdout == "0  \(Self.a)\n")
    #expect(try e2e.tpns.run(["status"]).stdout.contains("pending     no, the server has the list"))
    #expect(try e2e.tpns.run(["sync"]).status == 0)
    #expect(contents(of: e2e.tpns.store) == binary)

    let file = e2e.directory.file("prefs.plist")
    try Self.write(Self.plistlibPreferences, to: file)
    let result = try e2e.tpns.run(["import", file])
    #expect(result.status == 0, "\(result.stderr)")
    let text = String(decoding: try #require(contents(of: e2e.tpns.store)), as: UTF8.self)
    #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
    #expect(try StoreFile(path: e2e.tpns.store).uids == [Self.a, Self.b])
    #expect(try e2e.replicaMatchesStore())
  }
}
