import ArgumentParsing

/// A `tpns` subcommand: each has the shared options it declared, which the
/// root reads to report a failure as `--json` asked (``TPNS/output(for:command:arguments:)``).
protocol TPNSSubcommand: ParsableCommand {
  var options: GlobalOptions { get }
}

extension Register: TPNSSubcommand {}
extension Add: TPNSSubcommand {}
extension Import: TPNSSubcommand {}
extension Remove: TPNSSubcommand {}
extension List: TPNSSubcommand {}
extension Sync: TPNSSubcommand {}
extension Status: TPNSSubcommand {}
extension EventCommand: TPNSSubcommand {}
extension Watch: TPNSSubcommand {}
extension Mapping: TPNSSubcommand {}
extension RemoveMapping: TPNSSubcommand {}
extension Unregister: TPNSSubcommand {}
