import Foundation
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// Per-UID settings: the values, and how the store keeps them (`UIDSettings`
/// beside the quickstart's plain `UIDs` array, and per server what it acknowledged).
@Suite struct MappingSettingsTests {
  static let a = "AAAAAAAAAAAAAAAAAAAA"
  static let b = "BBBBBBBBBBBBBBBBBBBB"
  static let server = "http://127.0.0.1:7380/tpns"

  static func settings(_ interval: Int? = nil, _ format: String? = nil) -> MappingSettings {
    try! MappingSettings(interval: interval, format: format)
  }

  /// A store of `a` (interval 30, format "motion") and `b` (none), registered,
  /// whose server acknowledged `a` with interval 10 only.
  static func sampleState() -> StoreContents {
    var state = StoreContents()
    state.uids = [a, b]
    state.settings = [a: settings(30, "motion %s")]
    let token = try! PushToken(String(repeating: "ab", count: 32), os: .ios)
    let registration = PhoneRegistration(token: token, phone: Phone(os: .ios, udid: token.rawValue))
    state.registration = registration
    state.servers[server] = Acknowledgement(
      registration: registration, uids: [a], settings: [a: settings(10)])
    return state
  }

  /// Writes `body` as the store's top-level dictionary and loads it.
  static func load(_ body: String) throws -> StoreContents {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    try Data("<plist version=\"1.0\"><dict>\(body)</dict></plist>".utf8)
      .write(to: URL(fileURLWithPath: path))
    return try Store(path: path).load()
  }

  static let listed = "<key>UIDs</key><array><string>\(a)</string></array>"

  // MARK: - The values

  @Test(
    "an interval is a whole number of seconds from 0 (as shipping apps send) to 2^31-1; a format 1 to 255 characters without control characters",
    arguments: [
      (0, nil, nil), (1, nil, nil), (2_147_483_647, nil, nil), (nil, "x", nil),
      (nil, String(repeating: "é", count: 255), nil), (nil, "motion at %s\u{2028}", nil),
      (-5, nil, "the interval -5 is not a whole number of seconds from 0 to 2147483647"),
      (2_147_483_648, nil, "the interval 2147483648 is not"),
      (nil, "", "the format has 0 characters, expected 1 to 255"),
      (nil, String(repeating: "x", count: 256), "the format has 256 characters, expected 1 to 255"),
      (nil, "a\tb", "the format has U+0009 at position 2, which is not allowed"),
      (nil, "a\u{1B}[31m", "the format has U+001B at position 2"),
    ] as [(Int?, String?, String?)])
  func validation(interval: Int?, format: String?, error expected: String?) {
    do {
      let settings = try MappingSettings(interval: interval, format: format)
      #expect(expected == nil, "accepted \(settings)")
      #expect(settings.interval == interval && settings.format == format)
    } catch {
      #expect(error.description.hasPrefix(expected ?? "(accepted)"), "\(error.description)")
    }
  }

  @Test("a format of the wrong length is said once, not followed by the lengths again")
  func formatLengthSaidOnce() {
    #expect(
      MappingSettingsError.format(.length(actual: 0, expected: 1...255)).description
        == "the format has 0 characters, expected 1 to 255")
    #expect(
      MappingSettingsError.format(.character("\u{1B}", position: 2)).description
        == "the format has U+001B at position 2, which is not allowed "
        + "(1 to 255 characters, no control characters)")
  }

  @Test("an update keeps what it does not set or clear")
  func update() throws {
    let old = Self.settings(30, "motion")
    #expect(old.updated(by: MappingSettingsUpdate()) == old)
    #expect(
      try old.updated(by: MappingSettingsUpdate(interval: .set(60))) == Self.settings(60, "motion"))
    #expect(try old.updated(by: MappingSettingsUpdate(format: .clear)) == Self.settings(30))
    #expect(
      try old.updated(by: MappingSettingsUpdate(interval: .clear, format: .clear)).isEmpty)
    #expect(throws: MappingSettingsError.interval(-1)) {
      try MappingSettingsUpdate(interval: .set(-1))
    }
  }

  @Test("a mapsync entry carries the UID's settings, those set only")
  func entry() throws {
    let uid = try DeviceUID(Self.a)
    #expect(Self.settings().entry(for: uid) == MapEntry(uid: Self.a))
    #expect(
      Self.settings(30, "m").entry(for: uid) == MapEntry(uid: Self.a, interval: 30, format: "m"))
    let phone = Phone(os: .ios, udid: "phone")
    let command = TPNSRequest.mapsync(
      phone, uids: [uid, try DeviceUID(Self.b)], settings: [uid: Self.settings(30, "m")])
    let map = try #require(command.parameters.last)
    #expect(map.name == "map")
    let json = String(decoding: try #require(Data(base64Encoded: map.value)), as: UTF8.self)
    #expect(json == #"[{"uid":"\#(Self.a)","interval":30,"format":"m"},{"uid":"\#(Self.b)"}]"#)
  }

  // MARK: - The store

  @Test(
    "UIDSettings round trip: UIDs stays a plain array, UIDSettings a dictionary UID → {interval, format}; the acknowledged settings per server too"
  )
  func roundTrip() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    let state = Self.sampleState()
    try store.update { $0 = state }
    #expect(try store.load() == state)
    // As another program reads it.
    let data = try #require(contents(of: store.path))
    let list = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    #expect(list["UIDs"] as? [String] == [Self.a, Self.b])
    let settings = try #require(list["UIDSettings"] as? [String: [String: Any]])
    #expect(Set(settings.keys) == [Self.a])
    #expect(settings[Self.a]?["interval"] as? Int == 30)
    #expect(settings[Self.a]?["format"] as? String == "motion %s")
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("<key>interval</key>") && text.contains("<integer>30</integer>"))
    let servers = try #require(list["Servers"] as? [String: [String: Any]])
    let acknowledged = try #require(
      servers[Self.server]?["UIDSettings"] as? [String: [String: Any]])
    #expect(acknowledged[Self.a]?["interval"] as? Int == 10)
    #expect(acknowledged[Self.a]?["format"] == nil)
  }

  @Test("a store without settings has no UIDSettings key, and reads as no settings")
  func noSettings() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    try store.update { $0.uids = [Self.a] }
    let text = String(decoding: try #require(contents(of: store.path)), as: UTF8.self)
    #expect(!text.contains("UIDSettings"))
    #expect(try store.load().settings(of: Self.a).isEmpty)
  }

  @Test(
    "hand-edited settings of a lower-case UID are read as the canonical UID's; an empty dictionary is no settings and is dropped on the next write"
  )
  func canonicalKeys() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    try Data(
      """
      <plist version="1.0"><dict>
      <key>UIDs</key><array><string>\(Self.a.lowercased())</string><string>\(Self.b)</string></array>
      <key>UIDSettings</key><dict>
      <key>\(Self.a.lowercased())</key><dict><key>interval</key><integer>5</integer></dict>
      <key>\(Self.b)</key><dict/>
      </dict></dict></plist>
      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    #expect(try store.load().settings == [Self.a: Self.settings(5)])
    try store.update { $0.uids.append("CCCCCCCCCCCCCCCCCCCC") }
    let data = try #require(contents(of: path))
    let list = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    #expect((list["UIDSettings"] as? [String: Any]).map { Set($0.keys) } == [Self.a])
  }

  @Test(
    "settings that are not valid are refused, naming the item, and the file is left as it was",
    arguments: [
      ("<key>UIDSettings</key><array/>", "'UIDSettings' should be a dictionary, found array"),
      (
        "<key>UIDSettings</key><dict><key>\(a)</key><string>30</string></dict>",
        "'UIDSettings › \(a)' should be a dictionary, found string"
      ),
      (
        "<key>UIDSettings</key><dict><key>\(a)</key><dict><key>interval</key><string>30</string></dict></dict>",
        "'UIDSettings › \(a) › interval' should be an integer, found string"
      ),
      (
        "<key>UIDSettings</key><dict><key>\(a)</key><dict><key>interval</key><integer>-1</integer></dict></dict>",
        "'UIDSettings › \(a) › interval' is not valid: the interval -1 is not a whole number of seconds from 0 to 2147483647"
      ),
      (
        "<key>UIDSettings</key><dict><key>\(a)</key><dict><key>interval</key><integer>-3</integer></dict></dict>",
        "'UIDSettings › \(a) › interval' is not valid: the interval -3 is not"
      ),
      (
        "<key>UIDSettings</key><dict><key>\(a)</key><dict><key>format</key><integer>1</integer></dict></dict>",
        "'UIDSettings › \(a) › format' should be a string, found integer"
      ),
      (
        "<key>UIDSettings</key><dict><key>\(a)</key><dict><key>format</key><string></string></dict></dict>",
        "'UIDSettings › \(a) › format' is not valid: the format has 0 characters"
      ),
      (
        "<key>UIDSettings</key><dict><key>\(a)</key><dict><key>Interval</key><integer>5</integer></dict></dict>",
        "'UIDSettings › \(a)' is not valid: 'Interval' is not a setting (known: interval, format)"
      ),
      (
        "<key>UIDSettings</key><dict><key>\(b)</key><dict><key>interval</key><integer>5</integer></dict></dict>",
        "'UIDSettings › \(b)' is not valid: \(b) is not in 'UIDs' (add it to the list, or remove its settings)"
      ),
      (
        "<key>UIDSettings</key><dict><key>front door</key><dict/></dict>",
        "'UIDSettings › front door' is not valid: it is not a UID"
      ),
      (
        "<key>UIDSettings</key><dict><key>\(a)</key><dict/><key>\(a.lowercased())</key><dict/></dict>",
        "\(a) has settings twice"
      ),
      (
        "<key>Servers</key><dict><key>http://a/tpns</key><dict><key>UIDs</key><array/>"
          + "<key>UIDSettings</key><dict><key>\(a)</key><dict><key>interval</key><integer>5</integer></dict></dict>"
          + "</dict></dict>",
        "'Servers › http://a/tpns › UIDSettings › \(a)' is not valid: \(a) is not in 'Servers › http://a/tpns › UIDs'"
      ),
    ])
  func invalid(body: String, reason: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let bytes = Data("<plist version=\"1.0\"><dict>\(Self.listed)\(body)</dict></plist>".utf8)
    try bytes.write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    #expect {
      try store.update { $0.uids.append(Self.b) }
    } throws: { error in
      "\(error)".contains(reason) && "\(error)".contains(path)
    }
    #expect(contents(of: path) == bytes)
  }

  @Test("a UID removed from the list takes its settings with it")
  func removal() {
    var state = Self.sampleState()
    state.removeUIDs(at: [0])
    #expect(state.uids == [Self.b])
    #expect(state.settings.isEmpty)
  }

  // MARK: - What is pending

  @Test(
    "a settings change is pending until the server acknowledges it; settings acknowledged for another phone say nothing"
  )
  func pending() throws {
    var state = Self.sampleState()
    var difference = state.difference(at: Self.server)
    // a: 30/"motion %s" desired, 10 acknowledged; b: not acknowledged at all.
    #expect(difference.toUpdate == [Self.a])
    #expect(difference.toAdd == [Self.b])
    #expect(difference.isPending)
    state.servers[Self.server]?.accept(list: [Self.a, Self.b], sent: state.settings)
    difference = state.difference(at: Self.server)
    #expect(difference.toUpdate == [])
    #expect(difference.toReset == [])
    #expect(!difference.listDiffers)
    #expect(!difference.isPending)
    state.settings[Self.b] = Self.settings(nil, "door")
    #expect(state.difference(at: Self.server).toUpdate == [Self.b])
    #expect(state.difference(at: Self.server).toReset == [], "sending the format sets it")
    #expect(state.difference(at: Self.server).nextCommand == "tpns sync")
    // A setting cleared: leaving it out keeps it at the server; the mapping must go.
    state.settings[Self.a] = Self.settings(30)
    #expect(state.difference(at: Self.server).toUpdate == [Self.a, Self.b])
    #expect(state.difference(at: Self.server).toReset == [Self.a])
    // Another phone's acknowledgement: its settings are not this phone's.
    let other = try PushToken(String(repeating: "cd", count: 32), os: .ios)
    state.registration = PhoneRegistration(
      token: other, phone: Phone(os: .ios, udid: other.rawValue))
    #expect(state.difference(at: Self.server).acknowledgedSettings == [:])
  }

  @Test(
    "what mapping, rm_mapping and unreg_mapping move: a mapping keeps a setting it does not send, an unmapping takes the settings with it"
  )
  func acknowledgements() {
    var acknowledgement = Acknowledgement(
      uids: [Self.a], settings: [Self.a: Self.settings(10, "x")])
    acknowledgement.accept(mapping: Self.a, sent: Self.settings(30))
    #expect(acknowledgement.uids == [Self.a])
    #expect(acknowledgement.settings == [Self.a: Self.settings(30, "x")])
    acknowledgement.accept(mapping: Self.b, sent: Self.settings())
    #expect(acknowledgement.uids == [Self.a, Self.b])
    #expect(acknowledgement.settings[Self.b] == nil)
    acknowledgement.accept(unmapping: Self.a)
    #expect(acknowledgement.uids == [Self.b])
    #expect(acknowledgement.settings == [:])
    acknowledgement.accept(mapping: Self.a, sent: Self.settings(5))
    acknowledgement.accept(unmapping: nil)
    #expect(acknowledgement.uids == [])
    #expect(acknowledgement.settings == [:])
    // A server that never acknowledged a list holds what it was sent.
    var fresh = Acknowledgement()
    fresh.accept(mapping: Self.a, sent: Self.settings(nil, "f"))
    #expect(fresh.uids == [Self.a] && fresh.settings == [Self.a: Self.settings(nil, "f")])
  }

  @Test(
    "what a mapsync moves: the whole list; a UID held before keeps a setting its entry leaves out, a UID new there has what was sent"
  )
  func mapsyncAcknowledgement() {
    var acknowledgement = Acknowledgement(
      uids: [Self.a], settings: [Self.a: Self.settings(10, "x")])
    acknowledgement.accept(
      list: [Self.a, Self.b], sent: [Self.a: Self.settings(nil, "y"), Self.b: Self.settings(5)])
    #expect(acknowledgement.uids == [Self.a, Self.b])
    #expect(
      acknowledgement.settings == [Self.a: Self.settings(10, "y"), Self.b: Self.settings(5)])
    // Dropped, then back: a mapping made again has only what is sent.
    acknowledgement.accept(list: [Self.b], sent: [:])
    acknowledgement.accept(list: [Self.a, Self.b], sent: [:])
    #expect(acknowledgement.settings == [Self.b: Self.settings(5)])
  }
}
