import ArgumentParsing
import Posix
import TPNSKit
import TPNSProtocol

/// Which outcomes are printed, where and how: for a one-shot command (whose
/// failure ends it, and is not printed here) and for `watch` (each line
/// stamped with its time; a failure printed even with `--quiet`).
///
///     outcomes.subscribe(onNext: OutcomePrinter(view: .watch, formatting: f, output: o).print)
struct OutcomePrinter: Sendable {
  enum View: Sendable {
    case command, watch
  }

  let view: View
  let formatting: OutcomeFormatting
  let output: TextOutput

  func print(_ outcome: Outcome) {
    let options = formatting.options
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

  /// `line` after the time it is printed: `2026-12-01T05:14:00Z synced 3 UIDs …`.
  static func stamped(_ line: String) -> String {
    "\(now) \(line)"
  }

  /// The time now, to the second: `2026-12-01T05:14:00Z`.
  private static var now: String { CivilDate.iso8601(seconds: Int(WallClock.secondsSince1970())) }

  /// An event with its `time` after its `event`: `{"event":"synced","time":"2026-…Z",…}`.
  static func stamped(_ event: OrderedJSON) -> OrderedJSON {
    guard case .object(var members) = event else { return event }
    members.insert(
      ("time", .string(now)),
      at: members.isEmpty ? 0 : 1)
    return .object(members)
  }
}
