import TPNSProtocol

extension StoreState {
  /// The registered phone, if the store holds a complete registration.
  public var phone: Phone? {
    guard let os = os.flatMap(OperatingSystem.init(rawValue:)), let udid, !udid.isEmpty else {
      return nil
    }
    return Phone(os: os, appID: appID ?? Phone.defaultAppID, udid: udid)
  }

  /// The stored token, if it is a valid one.
  public var pushToken: PushToken? {
    guard let token, let os = os.flatMap(OperatingSystem.init(rawValue:)) else { return nil }
    return try? PushToken(token, os: os)
  }

  /// The stored UIDs as identifiers; a stored entry that is not a UID fails.
  func deviceUIDs() throws(PipelineFailure) -> [DeviceUID] {
    var result: [DeviceUID] = []
    for text in uids {
      do { result.append(try DeviceUID(text)) } catch { throw .storedUIDInvalid(text, error) }
    }
    return result
  }
}
