import Locking
import TPNSProtocol
import Testing

@testable import TPNSKit

@Suite struct TPNSClientTests {
  static func exchange(_ url: String) -> TPNSClient.Exchange {
    TPNSClient.Exchange(
      method: .get, url: url, command: .client, status: 200, failure: nil,
      duration: .milliseconds(3))
  }

  @Test(
    "an exchange's masked URL keeps the last 6 characters of the token and udid values",
    arguments: [
      ("http://h/tpns", "http://h/tpns"),
      (
        "http://h/tpns?cmd=client&os=ios&udid=0123456789abcdef&token=0123456789abcdef&lang=en",
        "http://h/tpns?cmd=client&os=ios&udid=…abcdef&token=…abcdef&lang=en"
      ),
      ("http://h/tpns?token=short&udid=", "http://h/tpns?token=short&udid="),
      (
        "http://h/tpns?cmd=event&uid=ABCDEFGHJKLMNPRSTUVW",
        "http://h/tpns?cmd=event&uid=ABCDEFGHJKLMNPRSTUVW"
      ),
      // The server URL's own query values and credentials are hidden too.
      ("http://h/tpns?x=1&&token=abcdefghij", "http://h/tpns?x=***&&token=…efghij"),
      (
        "http://me:pw@h/tpns?key=k3y&cmd=client&token=abcdefghij",
        "http://***@h/tpns?key=***&cmd=client&token=…efghij"
      ),
    ])
  func maskedURL(url: String, masked: String) {
    #expect(Self.exchange(url).shownURL() == masked)
  }

  @Test("the log hears of every attempt: its status, or why no answer came")
  func log() throws {
    let exchanges = LockedState<[TPNSClient.Exchange]>([])
    let transport = try CurlTransport(options: TransportOptions(timeout: .seconds(2)))
    let client = TPNSClient(
      server: "http://127.0.0.1:1/tpns", method: .get, transport: transport,
      log: { exchange in exchanges.withLock { $0.append(exchange) } })
    let uid = try DeviceUID("ABCDEFGHJKLMNPRSTUVW")
    #expect(throws: RequestFailure.self) { try client.send(.device(uid: uid)) }
    let logged = exchanges.value
    #expect(logged.count == 1)
    #expect(logged.first?.url == "http://127.0.0.1:1/tpns?cmd=device&uid=ABCDEFGHJKLMNPRSTUVW")
    #expect(logged.first?.command == .device)
    #expect(logged.first?.status == nil)
    #expect(logged.first?.failure?.isTransient == true)
  }
}
