import ArgumentParsing
import TPNSKit
import TPNSProtocol

/// sysexits codes, as README.md ("Exit status") and the manual pages list them.
enum ExitStatus {
  static let dataError = ExitCode(65)
  static let noInput = ExitCode(66)
  static let unavailable = ExitCode(69)
  static let cannotCreate = ExitCode(73)
  static let ioError = ExitCode(74)
  static let temporary = ExitCode(75)
  static let rejected = ExitCode(76)
  /// `EX_CONFIG`: `tpns sync` without a stored token, which sends nothing.
  static let notRegistered = ExitCode(78)

  /// The exit status and a line of what to do next for a failure.
  static func of(_ failure: PipelineFailure) -> (code: ExitCode, hint: String?) {
    switch failure {
    case .invalidUID:
      return (dataError, "A UID is 20 characters of A-Z and 0-9, as printed on the device.")
    case .invalidToken(let error):
      return (dataError, tokenHint(error))
    case .invalidIndex:
      return (dataError, "Run 'tpns list' to see the indexes.")
    case .notInList:
      return (dataError, "Run 'tpns list' to see the stored UIDs.")
    case .missingUDID:
      return (ExitCode.usage, "Pass the phone's own ID with --udid.")
    case .formerPhoneNotUnmapped(_, let failure):
      return (
        ExitStatus.of(failure, command: .unregMapping).code,
        "The new phone is registered and mapped; the former phone's removal stays pending "
          + "('tpns status'): 'tpns sync' asks the server again."
      )
    case .registrationRejected(_, let kept, let failure):
      return (
        ExitStatus.of(failure, command: .client).code,
        "Check the token and --os, --appid, --udid"
          + (kept == nil ? "." : "; the previous registration stays in effect.")
      )
    case .store(let error):
      return (of(error), error.suggestion)
    case .notActivated(let uids, _):
      let which = uids.count == 1 ? "UID \(uids[0])" : "these UIDs"
      return (rejected, "Activate \(which) in your TPNS console, then run 'tpns sync'.")
    case .removalNotActivated(let uid, true):
      return (rejected, "The server still maps UID \(uid); 'tpns sync' sends the list without it.")
    case .removalNotActivated(let uid, false):
      return (
        rejected,
        "tpns has no record of this server mapping UID \(uid): nothing is left to remove there."
      )
    case .request(let command, let request):
      return of(request, command: command)
    }
  }

  /// What a valid token looks like for the OS it was checked against (and
  /// the other kind's option, in case it is one of those).
  static func tokenHint(_ error: IdentifierError) -> String {
    let kind: IdentifierError.Kind =
      switch error {
      case .empty(let found), .length(let found, _, _), .character(let found, _, _): found
      case .truncatedIOSDescription: .iosToken
      }
    switch kind {
    case .token(let os):
      let name = os == .android ? "An Android (FCM)" : "\(kind.article) \(os.rawValue)"
      return "\(name) token is 1 to 4096 of A-Z a-z 0-9 _ : . - (for an iOS token, pass --os ios)."
    case .iosToken, .uid:
      return
        "An iOS token is 64 hex characters, or <0123abcd 4567ef01 ...> (for an Android "
        + "token, pass --os android and --udid; for another push service, its --os)."
    }
  }

  static func of(_ error: StoreError) -> ExitCode {
    switch error {
    case .corrupt, .unwritable: dataError
    case .lockTimeout: temporary
    case .untrusted, .io, .readOnly: cannotCreate
    }
  }

  /// The exit status of a failed request, and what to do next (which
  /// depends on what the request was for).
  static func of(
    _ failure: RequestFailure, command: CommandName = .mapsync
  ) -> (code: ExitCode, hint: String?) {
    let pending: String
    let rejectedHint: String?
    switch command {
    case .client:
      pending =
        "The change is stored and pending (this server has not acknowledged the registration); "
        + "run 'tpns sync' once it answers."
      rejectedHint = "Nothing was registered; check the token and --os, --appid, --udid."
    case .event, .device:
      pending = "Nothing was stored; run the command again once the server answers."
      rejectedHint =
        command == .event
        ? "Check the UID, --type, --message and --time against the server's reason."
        : "Check the UID against the server's reason."
    default:
      pending = "The change is stored and pending; run 'tpns sync' to send it again."
      rejectedHint =
        "The change is stored and pending; fix what the server objects to, then run 'tpns sync'."
    }
    switch failure.underlying {
    case .transport(.invalidURL):
      return (ExitCode.usage, "Pass an http:// or https:// URL with --server or TPNS_SERVER.")
    case .transport(.libraryMissing):
      // Nothing to retry until it is installed (`list`, `status` and
      // `--no-sync` work without it).
      let install = "Install libcurl (apt-get install libcurl4), then "
      return (
        unavailable,
        install
          + (command == .event || command == .device
            ? "run the command again; nothing was stored."
            : "run 'tpns sync': the change is stored and pending.")
      )
    case .transport(.tls):
      return (
        unavailable, "Pass the server's CA certificate with --cacert if it is not a public one."
      )
    case .transport:
      return (unavailable, pending)
    // `underlying` unwraps `.exhausted` and `.timeLimitReached`: never here.
    case .retryAfterTooLong, .retryAfterPastTimeLimit, .exhausted, .timeLimitReached:
      return (temporary, pending)
    case .status(let status, _, _) where failure.underlying.isTransient || status >= 500:
      return (temporary, pending)
    case .status(414, _, _), .status(431, _, _):
      // The server could not take the query: a `--method get` of a long list.
      return (rejected, "The request is too long for a GET query: use --method post (the default).")
    case .status(let status, _, _) where [404, 405].contains(status):
      return (
        rejected,
        "Check --server (or TPNS_SERVER): it must be the service's /tpns URL. "
          + (command == .event || command == .device ? "Nothing was stored." : pending)
      )
    case .status(let status, _, _) where (400..<500).contains(status):
      return (rejected, rejectedHint)
    case .status:
      // A redirect (not followed) or another unexpected answer.
      return (unavailable, "Pass the server's final /tpns URL with --server. \(pending)")
    }
  }
}
