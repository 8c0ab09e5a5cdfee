import Foundation
import Testing

@testable import TPNSEmulator

/// Every open stream holds one of the server's connections: a thousand idle ones
/// held them all, and every other client was kept out.
extension DashboardTests {
  @Test("past the most streams from one address, a new one ends the oldest with a closed event")
  func streamsPerPeer() throws {
    let server = try TestEmulator()
    let extra = 3
    var streams: [StreamReader] = []
    for _ in 0..<(EventHub.maximumStreamsPerPeer + extra) {
      let stream = try StreamReader(port: server.port)
      #expect(stream.waitFor("event: hello"))
      streams.append(stream)
    }
    for stream in streams.prefix(extra) {
      #expect(stream.waitForEnd(), "the oldest streams are closed")
      #expect(stream.received.contains("event: closed\ndata: {\"reason\":\"more than"))
    }
    for stream in streams.dropFirst(extra) {
      #expect(!stream.received.contains("event: closed"))
    }
    let overview = try #require(try server.inspect("overview").json as? [String: Any])
    #expect(overview["streams"] as? Int == EventHub.maximumStreamsPerPeer)
  }

  @Test("300 streams opened at once leave /tpns and health answering promptly")
  func streamFlood() throws {
    let server = try TestEmulator()
    var streams: [StreamReader] = []
    for _ in 0..<300 { streams.append(try StreamReader(port: server.port)) }
    _ = streams.last?.waitFor("event: hello")
    let started = Date()
    #expect(try server.inspect("health").status == 200)
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(1))").status == 200)
    #expect(Date().timeIntervalSince(started) < 2)
    let overview = try #require(try server.inspect("overview").json as? [String: Any])
    #expect((overview["streams"] as? Int ?? .max) <= EventHub.maximumStreamsPerPeer)
    let open = streams.filter { !$0.waitForEnd(seconds: 0.01) }.count
    #expect(open <= EventHub.maximumStreamsPerPeer)
  }
}
