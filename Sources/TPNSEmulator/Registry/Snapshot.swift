import FoundationEssentials
import Glibc
import TPNSProtocol

/// The emulator's whole state as one JSON document: the registry (phones, their
/// mappings in each phone's order with their settings, devices), the notifications
/// recorded and the whitelist, each record as the registry holds it (times in
/// milliseconds since 1970, `extra` as the JSON text stored). `GET /_emulator/snapshot`
/// and `--export-on-exit` write it; `PUT /_emulator/snapshot` and `--import` replace the
/// state with one, checked whole first. A snapshot imported and exported again is the
/// same document.
///
///     let document = try Snapshot(json: bytes)  // a bad document names what is wrong
public struct Snapshot: Codable, Equatable, Sendable {
  /// The format's version; a document of another is refused.
  public static let currentVersion = 1

  var version: Int
  var clients: [ClientRecord]
  /// Each phone's in its order.
  var mappings: [MappingRecord]
  var devices: [DeviceRecord]
  var notifications: [NotificationRecord]
  /// The activated UIDs; absent when the whitelist is off.
  var whitelist: [String]?
}

extension Snapshot {
  /// Reads a document and checks it whole; ``SnapshotError`` says what is wrong.
  public init(json: [UInt8]) throws(SnapshotError) {
    do {
      self = try JSONDecoder().decode(Snapshot.self, from: Data(json))
    } catch {
      throw SnapshotError("not a snapshot document: \(Self.describe(error))")
    }
    // A key misspelt would be dropped without a word: each must be one it reads.
    if let document = try? JSONDecoder().decode(JSONValue.self, from: Data(json)) {
      try Self.checkKeys(document)
    }
    try check()
  }

  /// The document, pretty-printed with its keys sorted (so that one state has one text).
  public func json() -> [UInt8] { OutgoingResponse.json(self).body }

  /// What the store rejects, found before anything is changed.
  private func check() throws(SnapshotError) {
    guard version == Self.currentVersion else {
      throw SnapshotError(
        "version \(version) is not one this emulator reads (\(Self.currentVersion))")
    }
    var phones = Set<[String]>()
    var tokens = Set<String>()
    for client in clients {
      guard !client.os.isEmpty, !client.appid.isEmpty, !client.udid.isEmpty,
        client.token?.isEmpty != true
      else {
        throw SnapshotError("a client has an empty os, appid, udid or token")
      }
      try Self.checkText(
        [client.os, client.appid, client.udid, client.token, client.lang], "a client")
      guard phones.insert([client.appid, client.udid]).inserted else {
        throw SnapshotError("client (\(client.appid), \(client.udid)) is given twice")
      }
      if let token = client.token, let key = client.tokenKey, !tokens.insert(key).inserted {
        throw SnapshotError("token …\(token.suffix(6)) is held by two clients")
      }
    }
    var mapped = Set<[String]>()
    for mapping in mappings {
      guard phones.contains([mapping.appid, mapping.udid]) else {
        throw SnapshotError(
          "mapping of \(mapping.uid) names phone (\(mapping.appid), \(mapping.udid)), "
            + "which is not among the clients")
      }
      try Self.checkUID(mapping.uid, "a mapping")
      try Self.checkText([mapping.format], "a mapping's format")
      if let interval = mapping.interval, !MapEntry.intervals.contains(Int(interval)) {
        throw SnapshotError(
          "the mapping of \(mapping.uid) has interval \(interval), not 0 to 2147483647")
      }
      guard mapped.insert([mapping.appid, mapping.udid, mapping.uid]).inserted else {
        throw SnapshotError("\(mapping.uid) is mapped twice to (\(mapping.appid), \(mapping.udid))")
      }
    }
    var devices = Set<String>()
    for device in self.devices {
      try Self.checkUID(device.uid, "a device")
      guard device.announcements > 0 else {
        throw SnapshotError(
          "device \(device.uid) has \(device.announcements) announcements, not 1 or more")
      }
      guard devices.insert(device.uid).inserted else {
        throw SnapshotError("device \(device.uid) is given twice")
      }
    }
    var ids = Set<Int64>()
    for sent in notifications {
      guard sent.id > 0, ids.insert(sent.id).inserted else {
        throw SnapshotError("notification id \(sent.id) is not a new positive number")
      }
      try Self.checkUID(sent.uid, "a notification")
      try Self.checkText([sent.appid, sent.udid, sent.os, sent.token, sent.msg], "a notification")
    }
    for uid in whitelist ?? [] { try Self.checkUID(uid, "the whitelist") }
  }

  /// The keys each object of a snapshot may hold.
  private static let keys: [String: Set<String>] = [
    "": ["version", "clients", "mappings", "devices", "notifications", "whitelist"],
    "clients": Set(ClientRecord.CodingKeys.allCases.map(\.rawValue)),
    "mappings": Set(MappingRecord.CodingKeys.allCases.map(\.rawValue)),
    "devices": Set(DeviceRecord.CodingKeys.allCases.map(\.rawValue)),
    "notifications": Set(NotificationRecord.CodingKeys.allCases.map(\.rawValue)),
  ]

  /// Refuses a key the document's objects may not hold (`extra` holds anything).
  private static func checkKeys(_ document: JSONValue) throws(SnapshotError) {
    guard case .object(let top) = document else { return }
    for (list, allowed) in keys {
      let objects: [[String: JSONValue]]
      if list.isEmpty {
        objects = [top]
      } else if case .array(let items)? = top[list] {
        objects = items.compactMap { if case .object(let object) = $0 { object } else { nil } }
      } else {
        continue
      }
      for (index, object) in objects.enumerated() {
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
          let place = list.isEmpty ? "the document" : "\(list)[\(index)]"
          throw SnapshotError(
            "\(place) has a key '\(Printable(unknown, limit: 40))' a snapshot does not")
        }
      }
    }
  }

  /// Refuses text the protocol never lets in (`/tpns` refuses it in every mode):
  /// control characters, which a terminal or a log would act on.
  private static func checkText(_ values: [String?], _ place: String) throws(SnapshotError) {
    for case let value? in values
    where value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      throw SnapshotError(
        "\(place) holds '\(Printable(value, limit: 40))', with a control character")
    }
  }

  /// `text` as a UID `/tpns` stores (canonical, or lower case kept as sent), or an
  /// error naming `place`: the emulator reads back every snapshot it writes.
  private static func checkUID(_ text: String, _ place: String) throws(SnapshotError) {
    if case .refused = ParameterRules.judge(uid: text) {
      throw SnapshotError("\(place) holds '\(Printable(text, limit: 40))', which is not a UID")
    }
  }

  /// A decoding error as one line: where, and what.
  private static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    let (path, reason): ([any CodingKey], String)
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      (path, reason) = (context.codingPath, context.debugDescription)
    case .keyNotFound(let key, let context):
      (path, reason) = (context.codingPath + [key], "it is missing")
    @unknown default:
      return "\(error)"
    }
    let place = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    return place.isEmpty ? reason : "\(place): \(reason)"
  }

  /// The snapshot in the file at `path` (`--import`), of at most 256 MiB.
  public static func read(file path: String) throws(SnapshotError) -> Snapshot {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(path, limit: 256 << 20)
    } catch {
      throw SnapshotError("\(error)", isUnreadable: true)
    }
    do {
      return try Snapshot(json: bytes)
    } catch {
      throw SnapshotError("\(path): \(error)")
    }
  }

  /// Why a snapshot could not be written to `path` when asked now, before a run that
  /// ends by writing it: its directory is missing or not writable, or it names a
  /// directory. Nil when it looks writable.
  public static func exportProblem(_ path: String) -> String? {
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
      // A FIFO or a device (/dev/null) would be replaced by a regular file.
      return status.st_mode & S_IFMT == S_IFDIR
        ? "\(path) is a directory: name the snapshot's file"
        : "\(path) is not a regular file; refusing to replace it"
    }
    let directory = DatabaseTrust.directoryName(of: path)
    guard access(directory, W_OK | X_OK) == 0 else {
      return "cannot write in \(directory): \(String(cString: strerror(errno)))"
    }
    return nil
  }
}

/// Why a snapshot document was refused, or its file could not be read or written.
public struct SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
  public var description: String
  /// Whether the file could not be read at all (rather than read and refused).
  public var isUnreadable = false

  init(_ description: String, isUnreadable: Bool = false) {
    self.description = description
    self.isUnreadable = isUnreadable
  }
}
