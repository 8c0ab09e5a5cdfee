import ArgumentParsing

/// `--legacy` of the commands a device sends (`event`, `device`): the older
/// form firmware and older apps still send, so that a firmware author can
/// reproduce what a camera sends.
enum LegacyForm {
  static let help = ArgumentHelp(
    "Send it in the older form firmware uses: to the server's /apns/apns.php with the older "
      + "name (raise_event, reg_server); firmware sends it as a GET: add --method get.")

  /// `options` with `--legacy` set.
  static func options(_ options: GlobalOptions, legacy: Bool) -> GlobalOptions {
    var options = options
    options.legacy = legacy
    return options
  }
}
