import ArgumentParsing
import FoundationEssentials
import Posix
import TPNSKit

/// How outcomes are printed as they come: the one place that decides which
/// are printed, where and how, for a one-shot command (whose failure ends
/// it, and is not printed here) and for `watch` (each line stamped with its
/// time; a failure printed even with `--quiet`: the service goes on).
///
///     let printer = OutcomePrinter(.watch, options: options, mask: mask, output: output)
///     outcomes.subscribe(onNext: printer.print)
struct OutcomePrinter: Sendable {
  /// Which View prints.
  enum View: Sendable {
    /// A one-shot command, which ends with the result.
    case command
    /// `tpns watch`, which keeps running.
    case watch
  }

  let view: View
  let options: GlobalOptions
  let formatting: OutcomeFormatting
  let output: TextOutput

  /// A printer for `view`, with the command's options, mask and output.
  init(_ view: View, options: GlobalOptions, mask: TokenMask, output: TextOutput) {
    self.view = view
    self.options = options
    formatting = OutcomeFormatting(options: options, mask: mask)
    self.output = output
  }

  /// Prints `outcome` as ``view`` shows it, if it does.
  func print(_ outcome: Outcome) {
    switch view {
    case .command:
      guard !options.json, !options.quiet, let line = formatting.line(outcome) else { return }
      if case .retrying = outcome {
        output.error(line, style: .pending)
      } else {
        output.line(line, style: Self.style(of: outcome))
      }
    case .watch:
      if options.json {
        Console.line(Self.stamped(formatting.json(outcome)).rendered)
      } else if case .failed(let failure) = outcome {
        output.line(
          Self.stamped("failed: \(formatting.mask(failure.description))"), style: .failure)
      } else if !options.quiet, let line = formatting.line(outcome) {
        output.line(Self.stamped(line), style: Self.style(of: outcome))
      }
    }
  }

  /// `line` after the time it is printed: `2026-12-01T05:14:00Z synced 3 UIDs …`.
  /// The colour of an outcome's line: done is green, waiting or retrying
  /// yellow, failed red; news that changes nothing (already present) none.
  static func style(of outcome: Outcome) -> Palette.Style? {
    switch outcome {
    case .registered, .synced, .mapped, .unmapped, .added, .removed, .sent, .unregistered,
      .settingsChanged:
      return .success
    case .waitingForRegistration, .retrying, .registrationLost, .storeDeleted, .storeAbsent:
      return .pending
    case .failed:
      return .failure
    default:
      return nil
    }
  }

  static func stamped(_ line: String, at date: Date = Date()) -> String {
    "\(ISO8601.format(date)) \(line)"
  }

  /// An event with its `time` after its `event`: `{"event":"synced","time":"2026-…Z",…}`.
  static func stamped(_ event: OrderedJSON, at date: Date = Date()) -> OrderedJSON {
    guard case .object(var members) = event else { return event }
    members.insert(("time", .string(ISO8601.format(date))), at: members.isEmpty ? 0 : 1)
    return .object(members)
  }
}
