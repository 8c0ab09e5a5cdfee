import ArgumentParsing
import Reactive
import TPNSKit
import TPNSProtocol

/// `tpns register <token>`: stores the token and sends `cmd=client`.
struct Register: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "register",
      abstract: "Register a push token with the server (cmd=client).",
      discussion: """
        An iOS token is 64 hex characters; the <0123abcd 4567ef01 ...> form is accepted. \
        UIDs stored but not yet sent are sent once the token is registered.
        """,
      options: [
        .option(
          "os", valueName: "os", help: "ios or android.", defaultValue: "ios",
          validate: { OperatingSystem(rawValue: $0.lowercased()) != nil }),
        .option(
          "udid", valueName: "id",
          help: "The phone's ID, of A-Z a-z 0-9 . _ : - (required for android; ios: the token).",
          validate: { PhoneFieldSyntax.udidViolation(in: $0) == nil }),
        .option(
          "appid", valueName: "id", help: "The application ID, of A-Z a-z 0-9 . _ -",
          defaultValue: Phone.defaultAppID,
          validate: { PhoneFieldSyntax.appIDViolation(in: $0) == nil }),
        .option(
          "lang", valueName: "language", help: "The phone's language (lang), e.g. en or zh-TW.",
          validate: { PhoneFieldSyntax.languageViolation(in: $0) == nil }),
        .flag("dev", help: "Use the APNs sandbox (dev=1)."),
      ] + GlobalOptions.options,
      arguments: [Argument("token", help: "The push token.")])
  }

  let token: String
  let registration: Registration
  let options: GlobalOptions

  init(_ values: ParsedValues) throws {
    token = values.argument("token").first ?? ""
    let os = OperatingSystem(rawValue: values.value("os")?.lowercased() ?? "ios") ?? .ios
    if os == .android, values.value("udid") == nil {
      throw ValidationError("Missing expected argument '--udid <id>' for an android token")
    }
    registration = Registration(
      os: os, appID: values.value("appid") ?? Phone.defaultAppID, udid: values.value("udid"),
      language: values.value("lang"), sandbox: values.flag("dev") ? true : nil)
    options = try GlobalOptions(values, environment: ProcessEnvironment.current)
  }

  func run() throws {
    let runner = Runner(command: "register", options: options)
    // Bad input changes nothing and sends nothing: check it before the pipeline.
    do {
      _ = try PushToken(token, os: registration.os)
    } catch {
      throw runner.failure(.invalidToken(error))
    }
    try runner.run(.init(token: .just(token)), registration: registration)
  }
}
