import TPNSProtocol
import Testing

@Suite struct TPNSRequestTests {
  static let token = try! PushToken(String(repeating: "ab", count: 32), os: .ios)
  static let phone = Phone(os: .ios, udid: token.rawValue)
  static let uid = try! DeviceUID("ABCDEFGHIJKLMNOPQRST")

  @Test("mapsync of one UID is byte-exact: compact JSON, padded base64, %3D")
  func mapsyncOne() {
    let body = TPNSRequest.mapsync(Self.phone, uids: [Self.uid]).formBody
    #expect(body.hasSuffix("&map=W3sidWlkIjoiQUJDREVGR0hJSktMTU5PUFFSU1QifV0%3D"))
    #expect(
      body
        == "cmd=mapsync&os=ios&appid=com.tutk.cc.samples.tpns.ios&udid=\(Self.token.rawValue)"
        + "&map=W3sidWlkIjoiQUJDREVGR0hJSktMTU5PUFFSU1QifV0%3D")
  }

  @Test(
    "mapsync's body carries the map's base64 percent-encoded, for every padding and base64's + and /",
    arguments: 0...7)
  func mapsyncBodyEncoding(count: Int) throws {
    let uids = try (0..<count).map {
      try DeviceUID("UID" + String(repeating: "0", count: 16) + "\($0)")
    }
    var settings: [DeviceUID: MappingSettings] = [:]
    // Formats whose UTF-8 (ÿ, û, ?, >) puts + and / in the base64.
    for (index, uid) in uids.enumerated() where index % 2 == 0 {
      settings[uid] = try MappingSettings(format: String(repeating: "ÿû?>", count: index + 1))
    }
    let request = TPNSRequest.mapsync(Self.phone, uids: uids, settings: settings)
    let map = try #require(request.parameters.last)
    #expect(map.name == "map")
    let encoded = map.value.replacing("+", with: "%2B").replacing("/", with: "%2F")
      .replacing("=", with: "%3D")
    #expect(
      request.formBody
        == "cmd=mapsync&os=ios&appid=com.tutk.cc.samples.tpns.ios&udid=\(Self.token.rawValue)"
        + "&map=" + encoded)
    if count == 7 {
      #expect(map.value.contains("+") && map.value.contains("/"))
    }
  }

  @Test("mapsync of an empty list sends base64 of []")
  func mapsyncEmpty() {
    let map = TPNSRequest.mapsync(Self.phone, uids: []).parameters.last
    #expect(map?.name == "map")
    #expect(map?.value == "W10=")
    #expect(TPNSRequest.mapsync(Self.phone, uids: []).formBody.hasSuffix("&map=W10%3D"))
  }

  @Test("mapsync keeps the list order, and + and / of base64 are percent-encoded")
  func mapsyncOrderAndEncoding() throws {
    let uids = try ["ZZZZZZZZZZZZZZZZZZZZ", "AAAAAAAAAAAAAAAAAAAA", "00000000000000000001"]
      .map { try DeviceUID($0) }
    let request = TPNSRequest.mapsync(Self.phone, uids: uids)
    let map = try #require(request.parameters.last?.value)
    #expect(try MapPayload.decode(map) == uids.map(\.rawValue))
    #expect(!request.formBody.contains("+"))
    #expect(!request.formBody.contains("/"))
  }

  @Test(
    "every request's parameters come in wire order, cmd first, optional ones left out when absent",
    arguments: [
      (
        TPNSRequest.client(phone, token: token),
        ["cmd", "os", "appid", "udid", "token"]
      ),
      (
        .client(phone, token: token, language: "ja", sandbox: true, backgroundFetch: false),
        ["cmd", "os", "appid", "udid", "token", "lang", "dev", "bgfetch"]
      ),
      (.mapsync(phone, uids: [uid]), ["cmd", "os", "appid", "udid", "map"]),
      (.mapping(phone, uid: uid), ["cmd", "os", "appid", "udid", "uid"]),
      (
        .mapping(phone, uid: uid, interval: 30, format: "json"),
        ["cmd", "os", "appid", "udid", "uid", "interval", "format"]
      ),
      (.removeMapping(phone, uid: uid), ["cmd", "os", "appid", "udid", "uid"]),
      (.unregisterMapping(phone), ["cmd", "os", "appid", "udid"]),
      (.unregisterMapping(phone, uid: uid), ["cmd", "os", "appid", "udid", "uid"]),
      (.device(uid: uid), ["cmd", "uid"]),
      (.event(uid: uid, type: 1), ["cmd", "uid", "event_type"]),
      (
        .event(uid: uid, type: 2, message: "motion", time: 1_700_000_000),
        ["cmd", "uid", "event_type", "msg", "event_time"]
      ),
    ])
  func parameterOrder(request: TPNSRequest, names: [String]) {
    #expect(request.parameters.map(\.name) == names)
    #expect(request.parameters.first?.value == request.name.rawValue)
  }

  @Test("values with reserved characters are percent-encoded in body and URL")
  func percentEncoding() {
    let request = TPNSRequest.event(uid: Self.uid, type: 1, message: "a b&c=d%e+f/é")
    #expect(request.formBody.hasSuffix("&msg=a%20b%26c%3Dd%25e%2Bf%2F%C3%A9"))
    #expect(
      request.url(server: "http://127.0.0.1:7380/tpns")
        == "http://127.0.0.1:7380/tpns?" + request.formBody)
    #expect(request.url(server: "http://h/tpns?key=1") == "http://h/tpns?key=1&" + request.formBody)
  }

}
