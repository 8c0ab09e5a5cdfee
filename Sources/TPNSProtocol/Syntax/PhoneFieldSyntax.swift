/// The wire syntax of the phone's own fields: `appid`, `udid` (on Android,
/// the phone's own ID; on iOS, the token) and `lang`. The client checks them
/// before anything is stored; the emulator refuses what breaks them.
public enum PhoneFieldSyntax {
  /// What is wrong with an application ID (1 to 255 of `[A-Za-z0-9._-]`), or nil.
  public static func appIDViolation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: 1...255, allows: isIdentifier)
  }

  /// What is wrong with a phone ID (1 to 4096 of `[A-Za-z0-9._:-]`), or nil.
  public static func udidViolation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: 1...4096, allows: isPhoneID)
  }

  /// What is wrong with a language tag (1 to 35 of `[A-Za-z0-9_-]`), or nil.
  public static func languageViolation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: 1...35, allows: isLanguageTag)
  }

  private static func isPhoneID(_ scalar: Unicode.Scalar) -> Bool {
    isIdentifier(scalar) || scalar == ":"
  }

  private static func isLanguageTag(_ scalar: Unicode.Scalar) -> Bool {
    isAlphanumeric(scalar) || scalar == "-" || scalar == "_"
  }

  private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
    ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
  }

  private static func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
    isAlphanumeric(scalar) || scalar == "." || scalar == "_" || scalar == "-"
  }
}
