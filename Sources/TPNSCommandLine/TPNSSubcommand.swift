import ArgumentParsing

/// A `tpns` subcommand with the shared options it declared, which the root
/// reads to report a failure as `--json` asked (``TPNS/report(_:command:arguments:)``).
protocol TPNSSubcommand: ParsableCommand {
  var options: GlobalOptions { get }
}
