import Locking
import TPNSProtocol

/// The UIDs activated in the vendor's console, which the service alone maps
/// (`mapping`, `rm_mapping`, `mapsync` answer the others with
/// ``NotActivatedAnswer``): off by default, every UID activated.
/// `tpns-server --whitelist FILE` turns it on, `/_emulator/whitelist`
/// changes it while the emulator runs; `/_emulator/reset` leaves it, as it
/// leaves `--strict`: it is the console's, not the registry's.
///
///     whitelist.replace(with: try Whitelist.parse("ABCDEFGHJKLMNPRSTUVW # hall\n"))
///     whitelist.isActivated("ABCDEFGHJKLMNPRSTUVW")  // true
public final class Whitelist: Sendable {
  /// Nil when the whitelist is off.
  private let activated = LockedState<Set<String>?>(nil)

  /// Whether the whitelist is on: only then may a UID be refused.
  var isOn: Bool { activated.value != nil }

  /// Whether the service maps `uid` (canonical, or lower case as some clients send it).
  func isActivated(_ uid: String) -> Bool {
    guard let activated = activated.value else { return true }
    return activated.contains(uid) || activated.contains(uid.uppercased())
  }

  /// The activated UIDs, sorted; nil when the whitelist is off.
  var uids: [String]? { activated.value?.sorted() }

  /// Turns the whitelist on with `uids`, or off with nil.
  func replace(with uids: [DeviceUID]?) {
    activated.withLock { $0 = uids.map { Set($0.map(\.rawValue)) } }
  }

  /// The UIDs of a whitelist's text: one a line, `#` to the end of a line a
  /// comment, blank lines skipped. A line that is not a UID is an error
  /// naming its number.
  public static func parse(_ text: String) throws(WhitelistError) -> [DeviceUID] {
    var uids: [DeviceUID] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
      guard !content.trimmingWhitespace().isEmpty else { continue }
      do {
        uids.append(try DeviceUID(String(content)))
      } catch {
        let shown = Printable(content.trimmingWhitespace(), limit: 40)
        throw .notAUID(line: index + 1, reason: "'\(shown)' is not a UID: \(error)")
      }
    }
    return uids
  }

  /// The UIDs of the whitelist file at `path` (`tpns-server --whitelist`).
  public static func load(file path: String) throws(WhitelistError) -> [DeviceUID] {
    let text: String
    do {
      text = String(decoding: try InputFile.read(path, limit: 1 << 20), as: UTF8.self)
    } catch {
      throw .unreadable(error.description)
    }
    return try parse(text)
  }
}

/// Why a whitelist cannot be read.
public enum WhitelistError: Error, Equatable, CustomStringConvertible {
  /// The file cannot be read, and why.
  case unreadable(String)
  /// Line `line` (from 1) is not a UID.
  case notAUID(line: Int, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let reason): reason
    case .notAUID(let line, let reason): "line \(line): \(reason)"
    }
  }
}
