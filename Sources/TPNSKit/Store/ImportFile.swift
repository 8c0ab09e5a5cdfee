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
  /// with its place (`name › UIDs item 3`), and the settings of its UIDs by UID (its `UIDSettings`, as a store holds
  /// them and checked as a store's are). Settings of a UID not in its list
  /// are no matter: only listed UIDs are imported.
  public static func contents(of bytes: [UInt8], name: String) throws(Failure) -> Contents {
    let value: PropertyListValue
    do {
      value = try PropertyList.read(bytes)
    } catch {
      throw Failure(file: name, reason: .notAPropertyList(error))
    }
    guard case .dictionary(let members) = value else {
      throw Failure(file: name, reason: .notADictionary(found: value.typeName))
    }
    guard let list = members[key] else { throw Failure(file: name, reason: .noList) }
    guard case .array(let items) = list else {
      throw Failure(file: name, reason: .notAnArray(found: list.typeName))
    }
    let inputs = try items.indices.map { (index) throws(Failure) in
      guard case .string(let text) = items[index] else {
        throw Failure(file: name, reason: .notAString(index: index, found: items[index].typeName))
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
      throw Failure(file: name, reason: .badSettings(error))
    }
  }

  /// Why a file holds no list to import; it names the file.
  public struct Failure: Error, Equatable, CustomStringConvertible {
    /// The file, as the user named it (`<stdin>` for standard input).
    public let file: String
    public let reason: Reason

    /// What is wrong with the file.
    public enum Reason: Equatable, Sendable {
      /// It is no property list (the reader's reason).
      case notAPropertyList(PropertyListParseError)
      /// Its top level is not a dictionary (what it is).
      case notADictionary(found: String)
      /// Its dictionary has no `UIDs`.
      case noList
      /// `UIDs` is not an array.
      case notAnArray(found: String)
      /// An item of `UIDs` is not a string.
      case notAString(index: Int, found: String)
      /// Its `UIDSettings` are not a store's (what is wrong).
      case badSettings(StoreFormatError)
    }

    public var description: String {
      switch reason {
      case .notAPropertyList(let error): "\(file) is not a property list: \(error)"
      case .notADictionary(let found):
        "\(file) holds no '\(ImportFile.key)' list: its top level is \(withArticle(found)), "
          + "not a dictionary"
      case .noList: "\(file) holds no '\(ImportFile.key)' list"
      case .notAnArray(let found):
        "\(file) holds no '\(ImportFile.key)' list: '\(ImportFile.key)' is "
          + "\(withArticle(found)), not an array"
      case .notAString(let index, let found):
        "\(file): '\(ImportFile.key)' item \(index) is \(withArticle(found)), not a string"
      case .badSettings(let error): "\(file) holds settings tpns cannot use: \(error)"
      }
    }

    /// What to do about it.
    public var suggestion: String {
      "Pass the app's preferences file or a tpns store: a property list (XML or binary) whose "
        + "'\(ImportFile.key)' is an array of UID strings."
    }
  }
}
