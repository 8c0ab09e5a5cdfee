import TPNSProtocol

/// The file `tpns import` reads: a property list, XML or binary, whose top
/// dictionary holds the list under `UIDs`, an array of strings. That is the
/// quickstart app's preferences file (`UserDefaults`, binary on a device
/// and in a backup) and a tpns store alike; nothing else in it is read.
///
///     try ImportFile.contents(of: bytes, name: "prefs.plist").uids
///     // [UIDInput("ABCDEFGHJKLMNPRSTUVW", location: "prefs.plist › UIDs item 0")]
///
/// Whether each string is a UID is the pipeline's decision (``UIDInput``):
/// each keeps its place in the file, which a failure names. A tpns store's
/// settings of its UIDs (`UIDSettings`: `interval`, `format`) come along.
public enum ImportFile {
  /// The key the list is under, in the app's preferences and in a store.
  public static let key = StoreContents.Key.uids

  /// What `tpns import` takes from a file: its UIDs, and the settings of
  /// those it has settings for (nil: the file has no `UIDSettings`, as an
  /// app's preferences file has none).
  public struct Contents: Sendable, Equatable {
    public var uids: [UIDInput]
    public var settings: [String: MappingSettings]?
  }

  /// The strings of the `UIDs` array of the property list in `bytes`, each
  /// with its place (`name › UIDs item 3`), and its `UIDSettings`, checked as
  /// a store's are (those of a UID not in the list are no matter).
  public static func contents(of bytes: [UInt8], name: String) throws(Failure) -> Contents {
    let value: PropertyListValue
    do {
      value = try PropertyList.read(bytes)
    } catch {
      throw Failure("\(name) is not a property list: \(error)")
    }
    guard case .dictionary(let members) = value else {
      throw Failure(
        "\(name) holds no '\(key)' list: its top level is \(withArticle(value.typeName)), "
          + "not a dictionary")
    }
    guard let list = members[key] else {
      // Keys are exact: a list under `uids` is named, not taken.
      let near = members.keys.sorted().first { StoreContents.isMisspelt($0, as: key) }
      let hint = near.map {
        " ('\(PropertyList.shown(key: $0))': keys are exact, case and spaces included)"
      }
      throw Failure("\(name) holds no '\(key)' list" + (hint ?? ""))
    }
    guard case .array(let items) = list else {
      throw Failure(
        "\(name) holds no '\(key)' list: '\(key)' is \(withArticle(list.typeName)), not an array")
    }
    let inputs = try items.indices.map { (index) throws(Failure) in
      guard case .string(let text) = items[index] else {
        throw Failure(
          "\(name): '\(key)' item \(index) is \(withArticle(items[index].typeName)), "
            + "not a string")
      }
      return UIDInput(text, location: "\(name) › \(key) item \(index)")
    }
    guard members[StoreContents.Key.settings] != nil else {
      return Contents(uids: inputs, settings: nil)
    }
    do {
      let settings = try StoreContents.settings(in: members, listKey: key, of: nil)
      return Contents(uids: inputs, settings: settings)
    } catch {
      throw Failure("\(name) holds settings tpns cannot use: \(error)")
    }
  }

  /// Why a file holds no list to import: the message names the file (as the
  /// user named it, `<stdin>` for standard input).
  public struct Failure: Error, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
      self.description = description
    }

    /// What to do about it.
    public var suggestion: String {
      "Pass the app's preferences file or a tpns store: a property list (XML or binary) whose "
        + "'\(ImportFile.key)' is an array of UID strings."
    }
  }
}
