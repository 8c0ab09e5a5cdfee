import ArgumentParsing
import TPNSKit
import TPNSProtocol

struct Register: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    abstract: "Register a push token with the server (cmd=client).",
    discussion: """
      An iOS token is 64 hex characters; the <0123abcd 4567ef01 ...> form is accepted. \
      Every other push service's token is 1 to 4096 of A-Z a-z 0-9 _ : . -, and its \
      phone needs its own ID (--udid). \
      Give the token with --token-file or TPNS_TOKEN rather than as <token>: every local \
      user can read a command's arguments. \
      UIDs stored but not yet sent are sent once the token is registered.
      An option not given keeps the stored registration's value, so that a refreshed \
      token needs only 'tpns register --token-file FILE'; --os with another OS starts a new \
      phone from the defaults. Without a token, --appid, --udid, --lang or --dev changes \
      the stored registration and registers its token again. An iOS phone's ID is its token unless --udid is given. \
      lang and dev are sent on every registration (enUS and 0 unless given).
      """,
    examples: [
      .init(
        "tpns register --token-file token.txt",
        "Register the token in a file (not visible to other users, as an argument is)."),
      .init(
        "TPNS_TOKEN=abc123 tpns register --os android --udid phone-1",
        "Register an Android phone, the token from the environment."),
    ])

  @Argument(
    help: "The push token (visible to other local users: prefer --token-file or TPNS_TOKEN).")
  var token: String?
  @Option(
    help: ArgumentHelp("The push service: \(OperatingSystem.documentedValues).", valueName: "os"),
    defaultDescription: "the stored one, else ios")
  var os: OperatingSystem?
  @Option(
    help: ArgumentHelp(
      "The phone's ID, of A-Z a-z 0-9 . _ : - (ios: the token; any other os: required unless "
        + "stored).", valueName: "id"),
    validate: { PhoneFieldSyntax.udidViolation(in: $0) == nil })
  var udid: String?
  @Option(
    name: .customLong("appid"),
    help: ArgumentHelp("The application ID (letters, digits, '.', '_' and '-').", valueName: "id"),
    defaultDescription:
      "the stored one, else \(Phone.defaultAppID(for: .ios)), or "
      + "\(Phone.defaultAppID(for: .android)) for any other os",
    validate: { PhoneFieldSyntax.appIDViolation(in: $0) == nil })
  var appID: String?
  @Option(
    name: .customLong("lang"),
    help: ArgumentHelp("The phone's language (lang), e.g. enUS or zhTW.", valueName: "language"),
    defaultDescription: "the stored one, else \(PhoneRegistration.defaultLanguage)",
    validate: { PhoneFieldSyntax.languageViolation(in: $0) == nil })
  var language: String?
  @Flag(
    name: .customLong("dev"), inversion: .prefixedNo,
    help: "Use the APNs sandbox (dev=1) or production (dev=0), kept until changed.")
  var sandbox: Bool?
  @Option(
    name: .customLong("token-file"),
    help: ArgumentHelp(
      "Read the token from this file ('-': standard input) instead of <token>, which other "
        + "local users can see.", valueName: "file"))
  var tokenFile: FilePath?
  @EnvironmentVariable(
    "TPNS_TOKEN", help: "The token, when neither <token> nor --token-file is given.")
  var environmentToken: String?
  @OptionGroup var sending: TokenSendingOptions

  /// The registration options given on the command line; nil: not given.
  struct Given: Equatable {
    var os: OperatingSystem?
    var appID: String?
    var udid: String?
    var language: String?
    var sandbox: Bool?
  }

  var given: Given {
    Given(os: os, appID: appID, udid: udid, language: language, sandbox: sandbox)
  }

  var options: GlobalOptions { sending.resolved }

  func validate() throws {
    if token != nil, tokenFile != nil {
      throw ValidationError("Give the token once: as <token> or with --token-file, not both")
    }
    if token == nil, tokenFile == nil, environmentToken == nil, given == Given() {
      throw ValidationError("Missing expected argument '<token>' (or --token-file, or TPNS_TOKEN)")
    }
  }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    let stored = try runner.loadStore().registration
    // The token's sources, in this order; '-' as the file is standard input.
    let token: String
    if let argument = self.token {
      token = argument
      runner.warnings.add(Warnings.tokenOnCommandLine)
    } else if let tokenFile {
      token = try Self.readToken(tokenFile.string, runner: runner)
    } else if let environmentToken {
      token = environmentToken
    } else {
      token = try storedToken(stored, runner: runner)
    }
    // A server that echoes it (an Android token is not hex) shows it masked.
    runner.mask.remember(token)
    if let warning = Self.osWarning(token: token, given: given, stored: stored) {
      runner.warnings.add(warning)
    }
    try runner.run(
      .init(token: .just(token)), registration: Self.registration(given, stored: stored))
  }

  /// The stored registration's token, for options that change it; none
  /// stored, or another `--os` (whose token it is not), is a usage error.
  func storedToken(_ stored: PhoneRegistration?, runner: Runner) throws -> String {
    guard let stored else {
      throw runner.fail(
        "Missing expected argument '<token>' (or --token-file, or TPNS_TOKEN): no token is "
          + "stored for the options to change",
        hint: "Give the phone's token: tpns register --token-file FILE (or TPNS_TOKEN) with them.",
        code: .usage)
    }
    if let os, os != stored.phone.os {
      throw runner.fail(
        "Missing expected argument '<token>' (or --token-file, or TPNS_TOKEN): the stored "
          + "token is \(stored.phone.os.rawValue)'s, not \(os.rawValue)'s",
        hint: "Give the \(os.rawValue) phone's token with --os \(os.rawValue).", code: .usage)
    }
    return stored.token.rawValue
  }

  /// A warning for an iOS-looking token about to be registered as the stored
  /// registration's other OS, which it keeps without `--os`.
  static func osWarning(token: String, given: Given, stored: PhoneRegistration?) -> String? {
    guard given.os == nil, let os = stored?.phone.os, !os.usesAPNsTokens,
      IOSTokenSyntax.isValid(token.trimmingWhitespace())
    else { return nil }
    return
      "the token looks like an iOS (APNs) token, but it is registered as \(os.rawValue), the "
      + "stored registration's OS; if it is an iOS token, run tpns register again with --os ios"
  }

  /// The token in `path` ('-': standard input), white space around it
  /// trimmed (see ``InputFile/read(_:runner:noun:limit:secret:tooLarge:hint:)``).
  static func readToken(_ path: String, runner: Runner) throws -> String {
    let bytes = try InputFile.read(
      // An Android token has up to 4,096 characters.
      path, runner: runner, noun: "the token file ", limit: 16_384, secret: true,
      tooLarge: "it holds no token",
      hint: "Put only the token in the file (one line).")
    return InputFile.text(bytes).trimmingWhitespace()
  }

  /// The registration to send: each option given, else the stored one's of
  /// the same OS (a refreshed token keeps its phone), else the OS's default.
  /// An iOS phone's udid is its token unless given (nil here).
  static func registration(_ given: Given, stored: PhoneRegistration?) -> Registration {
    let os = given.os ?? stored?.phone.os ?? .ios
    let same = stored?.phone.os == os ? stored : nil
    return Registration(
      os: os, appID: given.appID ?? same?.phone.appID ?? Phone.defaultAppID(for: os),
      udid: given.udid ?? (os.usesAPNsTokens ? nil : same?.phone.udid),
      language: given.language ?? same?.language ?? PhoneRegistration.defaultLanguage,
      sandbox: given.sandbox ?? same?.sandbox ?? false)
  }
}
