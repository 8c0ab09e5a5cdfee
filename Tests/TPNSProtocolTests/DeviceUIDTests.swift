import TPNSProtocol
import Testing

@Suite struct DeviceUIDTests {
  @Test(
    "valid UIDs are trimmed and upper-cased",
    arguments: [
      ("ABCDEFGHJKLMNPRSTUVW", "ABCDEFGHJKLMNPRSTUVW"),
      ("abcdefghjklmnprstuvw", "ABCDEFGHJKLMNPRSTUVW"),
      ("  0123456789ABCDEFGHJK\n", "0123456789ABCDEFGHJK"),
      ("\tAbCdEfGhJkLmNpRsTuVw ", "ABCDEFGHJKLMNPRSTUVW"),
      ("00000000000000000000", "00000000000000000000"),
      ("ZZZZZZZZZZZZZZZZZZZ1", "ZZZZZZZZZZZZZZZZZZZ1"),
    ])
  func valid(input: String, expected: String) throws {
    #expect(try DeviceUID(input).rawValue == expected)
  }

  @Test(
    "only 20 of 0-9 and A-Z are a UID's canonical form",
    arguments: [
      ("ABCDEFGHJKLMNPRSTUVW", true), ("0123456789ABCDEFGHJK", true),
      ("abcdefghjklmnprstuvw", false), ("ABCDEFGHJKLMNPRSTUV", false),
      ("ABCDEFGHJKLMNPRSTUVWX", false), (" ABCDEFGHJKLMNPRSTUV", false),
      ("ABCDEFGHJKLMNPRSTUV@", false), ("ABCDEFGHJKLMNPRSTUV[", false),
      ("ABCDEFGHJKLMNPRSTUV/", false), ("ABCDEFGHJKLMNPRSTUV:", false),
      ("ÄBCDEFGHJKLMNPRSTUV", false), ("", false),
    ])
  func canonical(text: String, isCanonical: Bool) {
    #expect(DeviceUID.isCanonical(text) == isCanonical)
  }

  @Test(
    "invalid UIDs say what is wrong and where",
    arguments: [
      ("", "the UID is empty"),
      ("   \n", "the UID is empty"),
      ("ABCDEFGHJKLMNPRSTUV", "A UID must be 20 characters, got 19"),
      ("ABCDEFGHJKLMNPRSTUVWX", "A UID must be 20 characters, got 21"),
      ("A", "A UID must be 20 characters, got 1"),
      (
        "ABCDEF&HJKLMNPRSTUVW",
        "character '&' at position 7 is not allowed in a UID (only A-Z and 0-9)"
      ),
      (
        "ABCDEFGHJKLMNPRSTUV=",
        "character '=' at position 20 is not allowed in a UID (only A-Z and 0-9)"
      ),
      (
        "%41BCDEFGHJKLMNPRSTU",
        "character '%' at position 1 is not allowed in a UID (only A-Z and 0-9)"
      ),
      (
        "ABCDEFGHJ KLMNPRSTUV",
        "character ' ' at position 10 is not allowed in a UID (only A-Z and 0-9)"
      ),
      (
        "ABCDEFGHJ\nKLMNPRSTU",
        "character U+000A at position 10 is not allowed in a UID (only A-Z and 0-9)"
      ),
      (
        "ABCDEFGHJKLMNPRSTUVÉ",
        "character U+00C9 at position 20 is not allowed in a UID (only A-Z and 0-9)"
      ),
      (
        "ABCDEFGHJKLMNPRSTUVé",
        "character U+00E9 at position 20 is not allowed in a UID (only A-Z and 0-9)"
      ),
      (
        "ＡBCDEFGHJKLMNPRSTUVW",
        "character U+FF21 at position 1 is not allowed in a UID (only A-Z and 0-9)"
      ),
      (
        "ABCDEFGHJKLMNPRST-VW",
        "character '-' at position 18 is not allowed in a UID (only A-Z and 0-9)"
      ),
      (
        "ABCD\u{0}EFGHJKLMNPRSTUV",
        "character U+0000 at position 5 is not allowed in a UID (only A-Z and 0-9)"
      ),
      (
        "<script>alert(1)</sc",
        "character '<' at position 1 is not allowed in a UID (only A-Z and 0-9)"
      ),
    ])
  func invalid(input: String, message: String) {
    #expect(throws: IdentifierError.self) { try DeviceUID(input) }
    do {
      _ = try DeviceUID(input)
    } catch {
      #expect(error.description == message)
    }
  }
}

@Suite struct PushTokenTests {
  static let hex = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
  static let short = String(hex.dropLast())
  static let long = hex + "0"
  static let badFirst = "g" + hex.dropFirst()
  static let ampersand = String(hex.prefix(10)) + "&" + String(hex.dropFirst(11))
  static let space = String(hex.prefix(32)) + " " + String(hex.dropFirst(33))
  static let accented = String(hex.dropLast()) + "é"
  static let only = "(only hex digits)"

  @Test(
    "valid iOS tokens are trimmed, lower-cased, and freed of the <…> form",
    arguments: [
      (hex, hex),
      (hex.uppercased(), hex),
      (" \(hex)\n", hex),
      ("<01234567 89abcdef 01234567 89abcdef 01234567 89abcdef 01234567 89abcdef>", hex),
      ("<0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF>", hex),
    ])
  func validIOS(input: String, expected: String) throws {
    #expect(try PushToken(input, os: .ios).rawValue == expected)
  }

  @Test(
    "invalid iOS tokens say what is wrong and where",
    arguments: [
      ("", "the iOS token is empty"),
      (short, "An iOS token must be 64 hex characters, got 63"),
      (long, "An iOS token must be 64 hex characters, got 65"),
      (badFirst, "character 'g' at position 1 is not allowed in an iOS token \(only)"),
      // Named as typed: upper case is taken, and lower-cased only once valid.
      (
        "G" + hex.dropFirst().uppercased(),
        "character 'G' at position 1 is not allowed in an iOS token \(only)"
      ),
      (ampersand, "character '&' at position 11 is not allowed in an iOS token \(only)"),
      (space, "character ' ' at position 33 is not allowed in an iOS token \(only)"),
      (
        "{length = 32, bytes = 0x01234567 89abcdef 01234567 ... 01234567 89abcdef }",
        "this is the iOS 13 `{length = 32, bytes = …}` description, which is truncated: print the token as hex instead"
      ),
      (
        "<01234567 89abcdef>",
        "An iOS token must be 64 hex characters, got 16"
      ),
      (
        accented,
        "character U+00E9 at position 64 is not allowed in an iOS token \(only)"
      ),
    ] as [(String, String)])
  func invalidIOS(input: String, message: String) {
    do {
      _ = try PushToken(input, os: .ios)
      Issue.record("accepted \(input)")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test(
    "Android tokens: 1 to 4096 of [A-Za-z0-9_:.-]",
    arguments: [
      ("fcm:APA91bH-x_y.z", nil),
      ("a", nil),
      (String(repeating: "a", count: 4096), nil),
      (
        String(repeating: "a", count: 4097),
        "An Android token must be 1 to 4096 characters, got 4097"
      ),
      ("", "the Android token is empty"),
      (
        "abc=def",
        "character '=' at position 4 is not allowed in an Android token (only A-Z, a-z, 0-9 and _ : . -)"
      ),
      (
        "abc%20",
        "character '%' at position 4 is not allowed in an Android token (only A-Z, a-z, 0-9 and _ : . -)"
      ),
      (
        "ab\u{7}c",
        "character U+0007 at position 3 is not allowed in an Android token (only A-Z, a-z, 0-9 and _ : . -)"
      ),
    ] as [(String, String?)])
  func android(input: String, message: String?) {
    do {
      let token = try PushToken(input, os: .android)
      #expect(message == nil)
      #expect(token.rawValue == input)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test("a token prints masked: only its last 6 characters")
  func masked() throws {
    let token = try PushToken(Self.hex, os: .ios)
    #expect(token.masked == "…abcdef")
    #expect("\(token)" == "…abcdef")
  }
}
