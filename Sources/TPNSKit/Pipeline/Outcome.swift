import TPNSProtocol

/// What the pipeline did, as a stream of values: errors are outcomes too and never
/// end the pipeline.
public enum Outcome: Sendable, Equatable {
  /// A UID was stored, with its settings (none by default).
  case added(DeviceUID, settings: MappingSettings = MappingSettings())
  /// A UID was already in the list; nothing changed.
  case alreadyPresent(DeviceUID)
  /// A UID already in the list was given other settings, these.
  case settingsChanged(DeviceUID, MappingSettings)
  /// An entry was removed from the list; `index` is where it was.
  case removed(String, index: Int)
  /// A UID to remove was no longer stored, but the server still held it.
  case alreadyRemoved(DeviceUID)
  /// The server removed every mapping of a former phone (`cmd=unreg_mapping`).
  case unregistered(Phone, response: String)
  /// The server no longer knows the phone (a restart, say); it is registered again.
  case registrationLost(server: String)
  /// The server acknowledged the token (`client`); `response` is its body.
  case registered(PushToken, response: String)
  /// The server acknowledged another command (`event`, say).
  case sent(CommandName, response: String)
  /// The server acknowledged the list (`mapsync`).
  case synced([DeviceUID], response: String)
  /// The server mapped one UID with these settings (`cmd=mapping`).
  case mapped(DeviceUID, MappingSettings, response: String)
  /// The server removed the mapping of one UID, or (nil) every one of the phone.
  case unmapped(DeviceUID?, CommandName, response: String)
  /// The list is stored but cannot be sent until a token is registered.
  case waitingForRegistration([DeviceUID])
  /// The store file was deleted; the last good state stands (`watch`).
  case storeDeleted
  /// The store file does not exist yet (`watch` waits for it to be created).
  case storeAbsent
  /// An attempt failed and another follows after `delay`.
  case retrying(CommandName, attempt: Int, of: Int, delay: Duration, reason: String)
  /// Something failed; the pipeline goes on.
  case failed(PipelineFailure)
}

/// Why a step of the pipeline failed.
public enum PipelineFailure: Error, Equatable, CustomStringConvertible {
  /// A UID given by the user is not valid, read at `location` (`uids.txt:3`) if any.
  case invalidUID(String, IdentifierError, location: String? = nil)
  /// A token given by the user is not valid.
  case invalidToken(IdentifierError)
  /// An index is not one of the list's (`count` entries).
  case invalidIndex(Int, count: Int)
  /// A UID to remove is not in the list.
  case notInList(DeviceUID)
  /// A phone of this OS (any but iOS) needs its own ID.
  case missingUDID(OperatingSystem)
  /// The store could not be read or written.
  case store(StoreError)
  /// A request failed for good.
  case request(CommandName, RequestFailure)
  /// The server rejected a new token; the store keeps `kept`, the previous one.
  case registrationRejected(PushToken, kept: PushToken?, RequestFailure)
  /// The server refused to unmap a former phone; its mappings may remain there.
  case formerPhoneNotUnmapped(Phone, RequestFailure)
  /// The server refused these UIDs as not activated in the vendor's console
  /// (``NotActivatedAnswer``): it holds none of them; they stay stored.
  case notActivated([DeviceUID], CommandName)
  /// The server refused `rm_mapping` of this UID as not activated: it removed
  /// nothing, and still maps it if `stillMapped`.
  case removalNotActivated(DeviceUID, stillMapped: Bool)

  public var description: String {
    switch self {
    case .invalidUID(let input, let error, let location):
      "invalid UID '\(input.quotedStart)'\(location.map { " at \($0)" } ?? ""): \(error)"
    case .invalidToken(let error): "invalid token: \(error)"
    case .invalidIndex(let index, let count):
      count == 0
        ? "no UID at index \(index): the list is empty"
        : "no UID at index \(index): the list has indexes 0 to \(count - 1)"
    case .notInList(let uid): "\(uid) is not in the list"
    case .missingUDID(.android): "an Android phone needs its own ID: pass --udid"
    case .missingUDID(let os):
      "a phone of os '\(os.rawValue)' needs its own ID (only an iOS phone's is its token): "
        + "pass --udid"
    case .store(let error): error.description
    case .request(let command, let failure): "\(command.rawValue) failed: \(failure)"
    case .registrationRejected(let token, let kept, let failure):
      "the server rejected the token \(token): \(failure); "
        + (kept.map { "the store keeps the previous token \($0)" }
          ?? "it stays stored, not acknowledged")
    case .formerPhoneNotUnmapped(let phone, let failure):
      "the server refused to unmap the former phone "
        + "\(MaskedSecret(phone.udid)) "
        + "(\(phone.os.rawValue), \(phone.appID)): \(failure); its mappings may remain there"
    case .notActivated(let uids, let command):
      "\(command.rawValue): the server refused \(uids.count == 1 ? "UID" : "UIDs") "
        + "\(uids.map(\.rawValue).joined(separator: ", ")) as not activated"
    case .removalNotActivated(let uid, _):
      PipelineFailure.notActivated([uid], .rmMapping).description
    }
  }
}

extension String {
  /// The text, or its first 40 Unicode scalars and `…`: what a message quotes of
  /// text that may be anything (a line of a file, a megabyte of one character).
  var quotedStart: String {
    let scalars = unicodeScalars.prefix(41)
    return scalars.count > 40 ? String(String.UnicodeScalarView(scalars.dropLast())) + "…" : self
  }
}
