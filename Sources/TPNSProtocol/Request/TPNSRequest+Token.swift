extension TPNSRequest {
  /// Whether the request carries a push token: `client` always; a phone's
  /// request when it is an iOS phone whose udid is a token. What decides the
  /// cleartext warning and the `--method get` refusal.
  ///
  ///     TPNSRequest.mapsync(iosPhone, uids: []).carriesToken  // true
  public var carriesToken: Bool {
    switch self {
    case .client:
      return true
    case .mapsync(let phone, _, _), .mapping(let phone, _, _, _), .removeMapping(let phone, _),
      .unregisterMapping(let phone, _):
      return phone.os == .ios && (try? PushToken(phone.udid, os: .ios)) != nil
    case .device, .event:
      return false
    }
  }
}
