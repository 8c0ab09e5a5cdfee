import Foundation
import Locking
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSKit

@Suite struct StoreTests {
  static func sampleState() -> StoreContents {
    var state = StoreContents()
    state.uids = ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK"]
    let token = try! PushToken(String(repeating: "ab", count: 32), os: .ios)
    let registration = PhoneRegistration(
      token: token, phone: Phone(os: .ios, udid: token.rawValue), language: "de", sandbox: true)
    state.registration = registration
    state.servers["http://127.0.0.1:7380/tpns"] = Acknowledgement(
      registration: registration, uids: ["ABCDEFGHJKLMNPRSTUVW"])
    return state
  }

  @Test("a missing file is an empty store, and nothing is created by reading it")
  func missing() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("nested/state.plist"))
    #expect(try store.load() == StoreContents())
    #expect(!FileManager.default.fileExists(atPath: directory.file("nested")))
  }

  @Test("what is written is read back, and pending means the UIDs differ from the server's")
  func roundTrip() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    let state = Self.sampleState()
    try store.update { $0 = state }
    let loaded = try store.load()
    #expect(loaded == state)
    #expect(loaded.difference(at: "http://127.0.0.1:7380/tpns").isPending)
    #expect(loaded.difference(at: "http://127.0.0.1:7380/tpns").toAdd == ["0123456789ABCDEFGHJK"])
  }

  @Test("a store remembers what it last read or wrote, but reads another writer's change")
  func remembersBytes() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let store = Store(path: path)
    let other = Store(path: path)
    try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] }
    #expect(try store.load().uids == ["ABCDEFGHJKLMNPRSTUVW"])
    // Another process (here another store value) rewrites the file.
    try other.update { $0.uids.append("0123456789ABCDEFGHJK") }
    #expect(try store.load().uids == ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK"])
    // A copy of a store shares what it remembers; an edit by hand is read too.
    let copy = store
    let edited = try String(contentsOfFile: path, encoding: .utf8)
      .replacingOccurrences(of: "0123456789ABCDEFGHJK", with: "ZYXWVUTSRQPNMLKJHGFE")
    try edited.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(try copy.load().uids == ["ABCDEFGHJKLMNPRSTUVW", "ZYXWVUTSRQPNMLKJHGFE"])
  }

  @Test("the file is an XML property list that plutil accepts, with the quickstart's UIDs key")
  func plutilLint() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    try store.update { $0 = Self.sampleState() }
    let text = String(decoding: try #require(contents(of: store.path)), as: UTF8.self)
    #expect(text.hasPrefix("<?xml"))
    #expect(text.contains("<key>UIDs</key>"))
    let plutil = Process()
    plutil.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    plutil.arguments = ["plutil", "-lint", store.path]
    let output = Pipe()
    plutil.standardOutput = output
    plutil.standardError = output
    try plutil.run()
    plutil.waitUntilExit()
    let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(plutil.terminationStatus == 0, "plutil said: \(said)")
  }

  @Test("keys the store does not know survive a rewrite")
  func unknownKeys() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>UIDs</key><array><string>ABCDEFGHJKLMNPRSTUVW</string></array>
      <key>Nickname</key><string>front door</string>
      <key>Volume</key><integer>7</integer>
      <key>Nested</key><dict><key>on</key><true/><key>list</key><array><real>1.5</real></array></dict>
      </dict></plist>
      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    try store.update { $0.uids.append("0123456789ABCDEFGHJK") }
    let state = try store.load()
    #expect(state.uids == ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK"])
    #expect(state.otherKeys["Nickname"] == .string("front door"))
    #expect(state.otherKeys["Volume"] == .integer(7))
    #expect(
      state.otherKeys["Nested"]
        == .dictionary(["on": .bool(true), "list": .array([.real(1.5)])]))
  }

  @Test("keys the store does not know in a server's entry and its registration survive a rewrite")
  func unknownServerKeys() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let token = String(repeating: "ab", count: 32)
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>UIDs</key><array><string>ABCDEFGHJKLMNPRSTUVW</string></array>
      <key>Token</key><string>\(token)</string>
      <key>Servers</key><dict><key>http://127.0.0.1:1/tpns</key><dict>
      <key>Note</key><string>staging</string>
      <key>Registration</key><dict>
      <key>Token</key><string>\(token)</string><key>Extra</key><integer>3</integer>
      </dict>
      </dict></dict>
      </dict></plist>
      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    try store.update { $0.uids.append("0123456789ABCDEFGHJK") }
    let written = try PropertyListXML.parse(Array(Data(contentsOf: URL(fileURLWithPath: path))))
    guard case .dictionary(let top) = written, case .dictionary(let servers)? = top["Servers"],
      case .dictionary(let entry)? = servers["http://127.0.0.1:1/tpns"],
      case .dictionary(let registration)? = entry["Registration"]
    else {
      Issue.record("no server entry with a registration written")
      return
    }
    #expect(entry["Note"] == .string("staging"))
    #expect(registration["Extra"] == .integer(3))
    #expect(registration["Token"] == .string(token))
    let state = try store.load()
    #expect(state.uids == ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK"])
    #expect(state.servers["http://127.0.0.1:1/tpns"]?.registration?.token.rawValue == token)
  }

  @Test(
    "a file that is not a valid store is an error naming it, and is left byte-identical",
    arguments: [
      ("truncated", "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>UIDs</key><arr"),
      ("garbage", "\u{00}\u{01}binary\u{FF}garbage"),
      ("empty file", ""),
      ("top level array", "<plist version=\"1.0\"><array><string>x</string></array></plist>"),
      (
        "UIDs a string",
        "<plist version=\"1.0\"><dict><key>UIDs</key><string>x</string></dict></plist>"
      ),
      (
        "UIDs holding a number",
        "<plist version=\"1.0\"><dict><key>UIDs</key><array><integer>1</integer></array></dict></plist>"
      ),
      (
        "Registered a string",
        "<plist version=\"1.0\"><dict><key>Registered</key><string>yes</string></dict></plist>"
      ),
      ("Token an array", "<plist version=\"1.0\"><dict><key>Token</key><array/></dict></plist>"),
      ("truncated binary plist", "bplist00\u{D1}\u{01}\u{02}"),
      (
        "UIDs holding a duplicate",
        "<plist version=\"1.0\"><dict><key>UIDs</key><array><string>AAAAAAAAAAAAAAAAAAAA</string>"
          + "<string>AAAAAAAAAAAAAAAAAAAA</string></array></dict></plist>"
      ),
      (
        "UIDs holding an invalid UID",
        "<plist version=\"1.0\"><dict><key>UIDs</key><array><string>not a uid</string></array></dict></plist>"
      ),
      (
        "a token that is not one",
        "<plist version=\"1.0\"><dict><key>Token</key><string>xyz</string></dict></plist>"
      ),
      (
        "an android token without UDID",
        "<plist version=\"1.0\"><dict><key>Token</key><string>abc</string><key>OS</key>"
          + "<string>android</string></dict></plist>"
      ),
      (
        "Servers a string",
        "<plist version=\"1.0\"><dict><key>Servers</key><string>x</string></dict></plist>"
      ),
      (
        "an acknowledged list with an invalid UID",
        "<plist version=\"1.0\"><dict><key>Servers</key><dict><key>http://a/tpns</key><dict>"
          + "<key>UIDs</key><array><string>x</string></array></dict></dict></dict></plist>"
      ),
    ])
  func corrupt(name: String, text: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let bytes = Data(text.utf8)
    try bytes.write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    #expect {
      try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] }
    } throws: { error in
      guard case .corrupt(let named, _)? = error as? StoreError else { return false }
      return named == path && "\(error)".contains(path)
    }
    #expect(throws: StoreError.self) { try store.load() }
    #expect(contents(of: path) == bytes)
  }

  @Test(
    "a hand-edited list with a duplicate or an invalid UID is refused with the item named",
    arguments: [
      (
        ["AAAAAAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBBBBBB", "AAAAAAAAAAAAAAAAAAAA"],
        "'UIDs' holds AAAAAAAAAAAAAAAAAAAA twice (items 0 and 2)"
      ),
      (["AAAAAAAAAAAAAAAAAAAA", "AAAA"], "'UIDs' item 1 is not a UID (\"AAAA\": "),
    ])
  func invalidList(uids: [String], reason: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let items = uids.map { "<string>\($0)</string>" }.joined()
    try Data(
      "<plist version=\"1.0\"><dict><key>UIDs</key><array>\(items)</array></dict></plist>".utf8
    )
    .write(to: URL(fileURLWithPath: path))
    #expect {
      try Store(path: path).load()
    } throws: { error in
      "\(error)".contains(reason) && "\(error)".contains(path)
    }
  }

  @Test("hand-edited UIDs are read in their canonical form; a duplicate after that is refused")
  func canonicalUIDs() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let list = "<string>abcdefghjklmnprstuvw</string><string> HHHHHHHHHHHHHHHHHHHH</string>"
    try Data(
      "<plist version=\"1.0\"><dict><key>UIDs</key><array>\(list)</array></dict></plist>".utf8
    )
    .write(to: URL(fileURLWithPath: path))
    #expect(
      try Store(path: path).load().uids == ["ABCDEFGHJKLMNPRSTUVW", "HHHHHHHHHHHHHHHHHHHH"])
    let twice = "<string>ABCDEFGHJKLMNPRSTUVW</string><string>abcdefghjklmnprstuvw</string>"
    try Data(
      "<plist version=\"1.0\"><dict><key>UIDs</key><array>\(twice)</array></dict></plist>".utf8
    )
    .write(to: URL(fileURLWithPath: path))
    #expect {
      try Store(path: path).load()
    } throws: { error in
      "\(error)".contains("'UIDs' holds ABCDEFGHJKLMNPRSTUVW twice (items 0 and 1)")
    }
  }

  @Test("a store of the earlier format is read as the same facts and rewritten in this one")
  func migratesLegacyKeys() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let token = String(repeating: "ab", count: 32)
    let legacy = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>UIDs</key><array><string>AAAAAAAAAAAAAAAAAAAA</string><string>BBBBBBBBBBBBBBBBBBBB</string></array>
      <key>Token</key><string>\(token)</string><key>UDID</key><string>\(token)</string>
      <key>OS</key><string>ios</string><key>AppID</key><string>com.tutk.cc.samples.tpns.ios</string>
      <key>Server</key><string>http://a/tpns</string><key>Registered</key><true/>
      <key>SyncedUIDs</key><array><string>AAAAAAAAAAAAAAAAAAAA</string></array>
      <key>Custom</key><string>kept</string>
      </dict></plist>
      """
    try Data(legacy.utf8).write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    let state = try store.load()
    let registration = try #require(state.registration)
    #expect(registration.token.rawValue == token)
    #expect(
      state.acknowledged(at: "http://a/tpns")
        == Acknowledgement(registration: registration, uids: ["AAAAAAAAAAAAAAAAAAAA"]))
    #expect(state.difference(at: "http://a/tpns").toAdd == ["BBBBBBBBBBBBBBBBBBBB"])
    #expect(state.difference(at: "http://b/tpns").needsRegistration)
    try store.update { $0.uids.append("CCCCCCCCCCCCCCCCCCCC") }
    let text = String(decoding: try #require(contents(of: path)), as: UTF8.self)
    #expect(!text.contains("<key>SyncedUIDs</key>") && !text.contains("<key>Registered</key>"))
    #expect(text.contains("<key>Servers</key>") && text.contains("<key>Custom</key>"))
    #expect(try store.load().acknowledged(at: "http://a/tpns").uids == ["AAAAAAAAAAAAAAAAAAAA"])
  }

  @Test(
    "an empty file and a broken binary property list get reasons that say so",
    arguments: [
      (Data(), StoreFormatError.empty),
      (
        Data("bplist00\u{D1}".utf8),
        .notAPropertyList(reason: "it is not a valid binary property list (bplist00)")
      ),
    ])
  func reasons(bytes: Data, reason: StoreFormatError) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect(throws: StoreError.corrupt(path: path, reason: reason)) {
      try Store(path: path).load()
    }
  }

  @Test("a file over 64 MiB is refused as no store, read no further, and left as it is")
  func tooLarge() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    #expect(truncate(path, (64 << 20) + 1) == 0)
    #expect(throws: StoreError.corrupt(path: path, reason: .tooLarge(limit: 64 << 20))) {
      try Store(path: path).load()
    }
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == (64 << 20) + 1)
    #expect(
      StoreFormatError.tooLarge(limit: 64 << 20).description
        == "it is larger than 64 MiB (a store of 10,000 UIDs is less than 1 MiB)")
  }

  @Test(
    "a known key misspelt by case or spaces is refused, naming the key to use, not kept as another",
    arguments: [("uids", "UIDs"), ("UIDs ", "UIDs"), ("token", "Token"), (" Servers", "Servers")])
  func misspeltKey(key: String, known: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    // With settings of the UID: they must not be reported as settings of an unlisted UID.
    let bytes = Data(
      ("<plist><dict><key>\(key)</key><array><string>AAAAAAAAAAAAAAAAAAAA</string></array>"
        + "<key>UIDSettings</key><dict><key>AAAAAAAAAAAAAAAAAAAA</key>"
        + "<dict><key>interval</key><integer>5</integer></dict></dict></dict></plist>").utf8)
    try bytes.write(to: URL(fileURLWithPath: path))
    let reason = StoreFormatError.invalidValue(
      key: key, reason: "keys are exact, case and spaces included: rename it '\(known)'")
    #expect(throws: StoreError.corrupt(path: path, reason: reason)) { try Store(path: path).load() }
    #expect(throws: StoreError.corrupt(path: path, reason: reason)) {
      try Store(path: path).update { $0.uids = [] }
    }
    #expect(contents(of: path) == bytes)
  }

  @Test(
    "in a server's entry and its registration too, a known key misspelt by case is refused",
    arguments: [
      ("<key>uids</key><array/>", "Servers › http://a/tpns › uids", "UIDs"),
      (
        "<key>Registration</key><dict><key>token</key><string>x</string></dict>",
        "Servers › http://a/tpns › Registration › token", "Token"
      ),
    ])
  func misspeltServerKey(entry: String, key: String, known: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let bytes = Data(
      ("<plist><dict><key>Servers</key><dict><key>http://a/tpns</key><dict>\(entry)</dict></dict>"
        + "</dict></plist>").utf8)
    try bytes.write(to: URL(fileURLWithPath: path))
    let reason = StoreFormatError.invalidValue(
      key: key, reason: "keys are exact, case and spaces included: rename it '\(known)'")
    #expect(throws: StoreError.corrupt(path: path, reason: reason)) { try Store(path: path).load() }
    #expect(contents(of: path) == bytes)
  }

  @Test("a hand-edited server key's credentials and query values are not shown in a refusal")
  func serverKeyRedacted() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let bytes = Data(
      ("<plist><dict><key>Servers</key><dict><key>http://alice:s3cret@a/tpns?key=q1</key>"
        + "<dict><key>UIDs</key><string>x</string></dict></dict></dict></plist>").utf8)
    try bytes.write(to: URL(fileURLWithPath: path))
    let reason = StoreFormatError.wrongType(
      key: "Servers › http://***@a/tpns?key=*** › UIDs", expected: "array of strings",
      found: .string("x"))
    #expect(throws: StoreError.corrupt(path: path, reason: reason)) { try Store(path: path).load() }
    #expect(contents(of: path) == bytes)
  }

  @Test("a store nested 200,000 deep is refused as corrupt, naming the limit, and left as it was")
  func nestedTooDeep() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let depth = 200_000
    let bytes = Data(
      ("<plist version=\"1.0\"><dict><key>Deep</key>" + String(repeating: "<array>", count: depth)
        + String(repeating: "</array>", count: depth) + "</dict></plist>").utf8)
    try bytes.write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    let refusal = StoreError.corrupt(path: path, reason: .nestedTooDeep(limit: 64, line: 1))
    #expect(throws: refusal) { try store.load() }
    #expect(throws: refusal) { try store.update { $0.uids = [] } }
    #expect(contents(of: path) == bytes)
    #expect(
      refusal.description
        == "the store \(path) cannot be read: its elements nest deeper than 64 levels (line 1); "
        + "a store nests 6, and tpns reads at most 64")
  }

  @Test("the file is 0600 and a directory the store creates is 0700")
  func modes() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("config/tpns/state.plist"))
    try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] }
    #expect(permissions(of: store.path) == 0o600)
    #expect(permissions(of: directory.file("config/tpns")) == 0o700)
    #expect(permissions(of: directory.file("config")) == 0o700)
    chmod(store.path, 0o644)
    try store.update { $0.uids = [] }
    #expect(permissions(of: store.path) == 0o600)
  }

  @Test("a write removes the temp files killed writers left beside the store, and nothing else")
  func staleTemporaries() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    let stale = ["state.plist.tmp-123-4567", "state.plist.tmp-99-1"]
    let kept = ["state.plist.tmp-notours", "state.plist.tmp-1-2-3", "other.plist.tmp-1-2", "notes"]
    for name in stale + kept {
      #expect(
        FileManager.default.createFile(atPath: directory.file(name), contents: Data("x".utf8)))
    }
    try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] }
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(Set(left) == Set(kept + ["state.plist", "state.plist.lock"]))
  }

  @Test("20 threads adding distinct UIDs at once lose none")
  func concurrentUpdates() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    let uids = (0..<20).map { String(format: "UID%017d", $0) }
    let failures = LockedState(0)
    DispatchQueue.concurrentPerform(iterations: uids.count) { index in
      do {
        try store.update { $0.uids.append(uids[index]) }
      } catch {
        failures.withLock { $0 += 1 }
      }
    }
    #expect(failures.value == 0)
    #expect(Set(try store.load().uids) == Set(uids))
    #expect(try store.load().uids.count == 20)
  }

  @Test("a change that throws writes nothing")
  func throwingChange() throws {
    struct Refused: Error {}
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] }
    let before = contents(of: store.path)
    #expect(throws: Refused.self) {
      try store.update { state in
        state.uids = []
        throw Refused()
      }
    }
    #expect(contents(of: store.path) == before)
  }

  @Test("a lock held by someone else times out with an error naming the lock file")
  func lockTimeout() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"), lockTimeout: .milliseconds(100))
    try store.update { $0.uids = [] }
    let holder = open(store.lockPath, O_RDWR)
    #expect(flock(holder, LOCK_EX) == 0)
    defer { close(holder) }
    #expect(throws: StoreError.lockTimeout(lockPath: store.lockPath, seconds: 0)) {
      try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] }
    }
    #expect(try store.load().uids == [])
  }

  @Test(
    "a write into a read-only directory fails cleanly and leaves the old file",
    .enabled(if: geteuid() != 0))
  func readOnlyDirectory() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] }
    let before = contents(of: store.path)
    chmod(directory.path, 0o500)
    defer { chmod(directory.path, 0o700) }
    #expect(throws: StoreError.self) { try store.update { $0.uids = [] } }
    #expect(contents(of: store.path) == before)
  }

  @Test("a symbolic link owned by another user is refused", .enabled(if: geteuid() == 0))
  func untrustedSymlink() throws {
    let directory = try TemporaryDirectory()
    let target = directory.file("elsewhere.plist")
    try Data().write(to: URL(fileURLWithPath: target))
    let link = directory.file("state.plist")
    #expect(symlink(target, link) == 0)
    #expect(lchown(link, 65534, 65534) == 0)
    #expect(throws: StoreError.untrusted(path: link, reason: .linkOwner(uid: 65534))) {
      try Store(path: link).load()
    }
  }

  @Test("a store that is this user's symbolic link stays a link; both names share one lock")
  func ownSymlink() throws {
    let directory = try TemporaryDirectory()
    mkdir(directory.file("dotfiles"), 0o700)
    let target = directory.file("dotfiles/state.plist")
    let link = directory.file("state.plist")
    #expect(symlink("dotfiles/state.plist", link) == 0)
    let store = Store(path: link)
    try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] }
    var status = stat()
    #expect(lstat(link, &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFLNK)
    #expect(try Store(path: target).load().uids == ["ABCDEFGHJKLMNPRSTUVW"])
    #expect(store.lockPath == target + ".lock")
    #expect(Store(path: target).lockPath == target + ".lock")
  }

  @Test(
    "the default path follows TPNS_STORE, then XDG_CONFIG_HOME, then HOME",
    arguments: [
      (["TPNS_STORE": "/s/state.plist", "HOME": "/h"], "/s/state.plist"),
      (["XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/x/tpns/state.plist"),
      (["XDG_CONFIG_HOME": "relative", "HOME": "/h"], "/h/.config/tpns/state.plist"),
      (["HOME": "/h"], "/h/.config/tpns/state.plist"),
      ([:], nil),
    ])
  func defaultPath(environment: [String: String], expected: String?) {
    #expect(Store.defaultPath(environment: environment) == expected)
  }
}

@Suite struct StoreRefusalTests {
  @Test("a value a property list cannot hold is refused and the file is left as it was")
  func unwritable() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] }
    let before = contents(of: store.path)
    #expect(throws: StoreError.unwritable(path: store.path, text: "a\u{1}b")) {
      try store.update {
        $0.otherKeys = [:]
        $0.servers["a\u{1}b"] = Acknowledgement(uids: [])
      }
    }
    #expect(contents(of: store.path) == before)
  }

  @Test("the refusal names what an XML property list cannot hold, U+FFFE among them")
  func unwritableMessage() {
    let error = StoreError.unwritable(path: "s.plist", text: "a\u{FFFE}")
    #expect(
      error.description
        == #"cannot store "a\#u{FFFE}" in s.plist: an XML property list cannot hold "#
        + "control characters (but tab and line breaks), U+FFFE or U+FFFF")
    #expect(error.suggestion.hasPrefix("Nothing was stored; give the value without them"))
  }
}
