/// The wire syntax of the phone's own fields: `appid`, `udid` (on Android,
/// the phone's own ID; on iOS, the token) and `lang`. The client checks them
/// before anything is stored; the emulator refuses what breaks them.
public enum PhoneFieldSyntax {
  /// What is wrong with an application ID (1 to 255 of `[A-Za-z0-9._-]`), or nil.
  public static func appIDViolation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: 1...255) { $0.isASCIIAlphanumeric(or: "._-") }
  }

  /// What is wrong with a phone ID (1 to 4096 of `[A-Za-z0-9._:-]`), or nil.
  public static func udidViolation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: 1...4096) { $0.isASCIIAlphanumeric(or: "._:-") }
  }

  /// What is wrong with a language tag (1 to 35 of `[A-Za-z0-9_-]`), or nil.
  public static func languageViolation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: 1...35) { $0.isASCIIAlphanumeric(or: "_-") }
  }
}
