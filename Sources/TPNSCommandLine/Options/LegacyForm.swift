import ArgumentParsing

/// `--legacy` of `event` and `device`: the older form firmware still sends,
/// for a firmware author to reproduce what a camera sends.
enum LegacyForm {
  static let help = ArgumentHelp(
    "Send it in the older form firmware uses: to the server's /apns/apns.php with the older "
      + "name (raise_event, reg_server); firmware sends it as a GET: add --method get.")

  static func options(_ options: GlobalOptions, legacy: Bool) -> GlobalOptions {
    var options = options
    options.legacy = legacy
    return options
  }
}
