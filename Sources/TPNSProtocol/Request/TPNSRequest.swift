/// One request of the TPNS protocol, with its values (a row of docs/ARCHITECTURE.md's
/// protocol table): the form parameters in wire order, a POST body, or a GET URL.
///
///     let sync = TPNSRequest.mapsync(phone, uids: [uid])
///     sync.formBody  // "cmd=mapsync&os=ios&appid=…&udid=…&map=W3sidWlkIjoi…%3D"
public enum TPNSRequest: Hashable, Sendable {
  /// Registers a token (`cmd=client`).
  case client(
    Phone, token: PushToken, language: String? = nil, sandbox: Bool? = nil,
    backgroundFetch: Bool? = nil)
  /// Replaces the phone's whole UID set (`cmd=mapsync`); each UID's entry
  /// carries its settings, if it has any.
  case mapsync(Phone, uids: [DeviceUID], settings: [DeviceUID: MappingSettings] = [:])
  /// Maps one UID (`cmd=mapping`).
  case mapping(Phone, uid: DeviceUID, interval: Int? = nil, format: String? = nil)
  /// Removes one mapping (`cmd=rm_mapping`).
  case removeMapping(Phone, uid: DeviceUID)
  /// Removes one mapping, or all of them (`cmd=unreg_mapping`).
  case unregisterMapping(Phone, uid: DeviceUID? = nil)
  /// A device announces itself (`cmd=device`).
  case device(uid: DeviceUID)
  /// A device reports an event (`cmd=event`).
  case event(uid: DeviceUID, type: Int, message: String? = nil, time: Int? = nil)

  /// The request's `cmd` value.
  public var name: CommandName {
    switch self {
    case .client: .client
    case .mapsync: .mapsync
    case .mapping: .mapping
    case .removeMapping: .rmMapping
    case .unregisterMapping: .unregMapping
    case .device: .device
    case .event: .event
    }
  }

  /// The form parameters, in wire order, `cmd` first; absent options are left out.
  public var parameters: [(name: String, value: String)] {
    var list: [(String, String)] = [("cmd", name.rawValue)]
    func add(_ parameter: CommandParameter, _ value: String?) {
      if let value { list.append((parameter.name, value)) }
    }
    func add(_ phone: Phone) {
      add(.os, phone.os.rawValue)
      add(.appid, phone.appID)
      add(.udid, phone.udid)
    }
    switch self {
    case .client(let phone, let token, let language, let sandbox, let backgroundFetch):
      add(phone)
      add(.token, token.rawValue)
      add(.lang, language)
      add(.dev, sandbox.map { $0 ? "1" : "0" })
      add(.bgfetch, backgroundFetch.map { $0 ? "1" : "0" })
    case .mapsync(let phone, let uids, let settings):
      add(phone)
      add(
        .map,
        MapPayload.encode(entries: uids.map { (settings[$0] ?? MappingSettings()).entry(for: $0) }))
    case .mapping(let phone, let uid, let interval, let format):
      add(phone)
      add(.uid, uid.rawValue)
      add(.interval, interval.map(String.init))
      add(.format, format)
    case .removeMapping(let phone, let uid):
      add(phone)
      add(.uid, uid.rawValue)
    case .unregisterMapping(let phone, let uid):
      add(phone)
      add(.uid, uid?.rawValue)
    case .device(let uid):
      add(.uid, uid.rawValue)
    case .event(let uid, let type, let message, let time):
      add(.uid, uid.rawValue)
      add(.eventType, String(type))
      add(.msg, message)
      add(.eventTime, time.map(String.init))
    }
    return list
  }

  /// Whether the request carries a push token: `client` always; a phone's
  /// request when it is an iOS phone whose udid is a token. What decides the
  /// cleartext warning and the `--method get` refusal.
  ///
  ///     TPNSRequest.mapsync(iosPhone, uids: []).carriesToken  // true
  public var carriesToken: Bool {
    switch self {
    case .client: true
    case .mapsync(let phone, _, _), .mapping(let phone, _, _, _), .removeMapping(let phone, _),
      .unregisterMapping(let phone, _):
      phone.os == .ios && (try? PushToken(phone.udid, os: .ios)) != nil
    case .device, .event: false
    }
  }

  /// ``parameters`` with `cmd` as the command's older name, where it has one
  /// (``CommandName/legacyName``): `cmd=raise_event&uid=…`.
  public var legacyParameters: [(name: String, value: String)] {
    var list = parameters
    list[0].value = name.legacyName ?? name.rawValue
    return list
  }

  /// `name=value&…`, every name and value percent-encoded.
  public var formBody: String {
    String(decoding: formBodyBytes, as: UTF8.self)
  }

  /// ``formBody`` as the bytes of a POST body.
  public var formBodyBytes: [UInt8] { Self.formBody(of: parameters) }

  /// `parameters` as `name=value&…`, every name and value percent-encoded.
  public static func formBody(of parameters: [(name: String, value: String)]) -> [UInt8] {
    var body: [UInt8] = []
    for (index, parameter) in parameters.enumerated() {
      if index > 0 { body.append(UInt8(ascii: "&")) }
      body += PercentEncoding.encode(parameter.name)
      body.append(UInt8(ascii: "="))
      body += PercentEncoding.encode(parameter.value)
    }
    return body
  }

  /// The GET URL: `server` with the form body as its query.
  public func url(server: String) -> String {
    Self.url(server: server, query: formBodyBytes)
  }

  /// `server` with `query` (a form body) as its query, or after its own.
  public static func url(server: String, query: [UInt8]) -> String {
    server + (server.contains("?") ? "&" : "?") + String(decoding: query, as: UTF8.self)
  }
}
