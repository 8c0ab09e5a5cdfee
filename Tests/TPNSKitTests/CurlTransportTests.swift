import Foundation
import Locking
import Reactive
import TPNSEmulator
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSKit

@Suite struct CurlTransportTests {
  static let token = try! PushToken(String(repeating: "0f", count: 32), os: .ios)
  static let phone = Phone(os: .ios, udid: token.rawValue)
  static let uids = try! ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK", "ZZZZZZZZZZZZZZZZZZZ9"]
    .map { try DeviceUID($0) }

  @Test(
    "every command arrives with exactly the parameters sent, in order, and has its effect",
    arguments: [HTTPRequest.Method.post, .get])
  func everyCommand(method: HTTPRequest.Method) throws {
    let server = try RunningEmulator()
    let client = TPNSClient(server: server.server, method: method, transport: server.transport)
    let commands: [TPNSRequest] = [
      .client(Self.phone, token: Self.token, language: "ja", sandbox: true, backgroundFetch: false),
      .mapsync(Self.phone, uids: [Self.uids[0], Self.uids[1]]),
      .mapping(Self.phone, uid: Self.uids[2], interval: 30, format: "json"),
      .removeMapping(Self.phone, uid: Self.uids[0]),
      .device(uid: Self.uids[1]),
      .event(uid: Self.uids[1], type: 3, message: "motion & sound = 100%", time: 1_700_000_000),
      .unregisterMapping(Self.phone, uid: Self.uids[2]),
    ]
    var mappedAfter: [[String]] = []
    for command in commands {
      let response = try client.send(command)
      #expect(response.status == 200)
      mappedAfter.append(try server.mappedUIDs(udid: Self.phone.udid))
    }
    let seen = try server.requests()
    #expect(seen.map(\.method) == Array(repeating: method.rawValue, count: commands.count))
    #expect(seen.map(\.raw) == commands.map(\.formBody))
    #expect(seen.map(\.status) == Array(repeating: 200, count: commands.count))
    let (a, b, c) = (Self.uids[0].rawValue, Self.uids[1].rawValue, Self.uids[2].rawValue)
    #expect(mappedAfter == [[], [a, b], [a, b, c], [b, c], [b, c], [b, c], [b]])
  }

  @Test("503 twice with Retry-After: 1, then success: the policy waits 1 s each time, 3 requests")
  func retryAfterFaults() throws {
    let server = try RunningEmulator()
    _ = try server.inspect("faults?status=503&count=2&retry_after=1", method: .post)
    let client = TPNSClient(server: server.server, transport: server.transport)
    let policy = RetryPolicy(random: { 0.5 })
    let command = TPNSRequest.client(Self.phone, token: Self.token)
    var decisions: [Duration] = []
    var attempt = 0
    var succeeded = false
    while !succeeded {
      attempt += 1
      do {
        _ = try client.send(command)
        succeeded = true
      } catch {
        guard case .retry(let delay) = policy.decide(error, attempt: attempt) else {
          Issue.record("gave up on attempt \(attempt): \(error)")
          return
        }
        decisions.append(delay)
      }
    }
    #expect(attempt == 3)
    #expect(decisions == [.seconds(1), .seconds(1)])
    #expect(try server.requests().map(\.status) == [503, 503, 200])
  }

  @Test("400 is a rejection: not retried, one request, the server's reason kept")
  func rejection() throws {
    let server = try RunningEmulator()
    let client = TPNSClient(server: server.server, transport: server.transport)
    // A mapsync for a phone that never registered is refused.
    #expect {
      try client.send(.mapsync(Self.phone, uids: [Self.uids[0]]))
    } throws: { error in
      guard case .status(400, let body, _) = error as? RequestFailure else { return false }
      guard case .fail = RetryPolicy().decide(error as! RequestFailure, attempt: 1) else {
        return false
      }
      return !body.isEmpty
    }
    #expect(try server.requests().count == 1)
  }

  @Test("a listener that accepts and never answers fails within the timeout")
  func hangingServer() throws {
    let listener = try SilentListener()
    let transport = try CurlTransport(options: TransportOptions(timeout: .seconds(1)))
    let started = ContinuousClock.now
    #expect {
      try transport.perform(
        HTTPRequest(method: .get, url: "http://127.0.0.1:\(listener.port)/tpns"))
    } throws: { error in
      guard case .timedOut(_, let after) = error as? TransportError else { return false }
      return after == .seconds(1) && (error as! TransportError).isTransient
    }
    let elapsed = ContinuousClock.now - started
    #expect(elapsed >= .milliseconds(900))
    #expect(elapsed < .seconds(3))
  }

  @Test("the scheme is case-insensitive, as for libcurl: HTTP:// reaches the server")
  func upperCaseScheme() throws {
    let server = try RunningEmulator()
    let url = server.server.replacingOccurrences(of: "http://", with: "HTTP://")
    let response = try server.transport.perform(HTTPRequest(method: .get, url: url + "?cmd=x"))
    #expect(response.status == 400)
    #expect(try server.requests().count == 1)
  }

  @Test("a closed port fails as unreachable, which is transient")
  func closedPort() throws {
    let closed = try SilentListener(listening: false)  // bound, not listening: refused
    let transport = try CurlTransport()
    let url = "http://127.0.0.1:\(closed.port)/tpns"
    #expect {
      try transport.perform(HTTPRequest(method: .post, url: url))
    } throws: { error in
      guard case .unreachable(let failedURL, _)? = error as? TransportError else { return false }
      return failedURL == url && "\(error)".hasPrefix("cannot reach \(url)")
    }
  }

  @Test("an error names the server without the query, which holds the token on a GET")
  func errorWithoutQuery() throws {
    let closed = try SilentListener(listening: false)
    let server = "http://127.0.0.1:\(closed.port)/tpns"
    let token = String(repeating: "ab", count: 32)
    #expect {
      try CurlTransport().perform(HTTPRequest(method: .get, url: "\(server)?token=\(token)"))
    } throws: { error in
      guard case .unreachable(let failedURL, _)? = error as? TransportError else { return false }
      return failedURL == server && !"\(error)".contains(token)
    }
  }

  @Test("a request's own timeout, when shorter, replaces the transport's")
  func requestTimeout() throws {
    let listener = try SilentListener()
    let transport = try CurlTransport(options: TransportOptions(timeout: .seconds(20)))
    let started = ContinuousClock.now
    var request = HTTPRequest(method: .get, url: "http://127.0.0.1:\(listener.port)/tpns")
    request.timeout = .milliseconds(500)
    #expect {
      try transport.perform(request)
    } throws: { error in
      guard case .timedOut(_, let after) = error as? TransportError else { return false }
      return after == .milliseconds(500)
    }
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  @Test("cancellation aborts a request in flight")
  func cancellation() throws {
    let listener = try SilentListener()
    let transport = try CurlTransport(options: TransportOptions(timeout: .seconds(20)))
    // Cancelled from the second poll on: the first finds the transfer under way.
    let polls = LockedState(0)
    let started = ContinuousClock.now
    #expect(throws: TransportError.cancelled) {
      try transport.perform(
        HTTPRequest(method: .get, url: "http://127.0.0.1:\(listener.port)/"),
        isCancelled: {
          polls.withLock { count in
            count += 1
            return count > 1
          }
        })
    }
    #expect(polls.value == 2)
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  @Test("only http and https URLs are used")
  func invalidURL() throws {
    #expect(throws: TransportError.invalidURL("file:///etc/passwd")) {
      try CurlTransport().perform(HTTPRequest(method: .get, url: "file:///etc/passwd"))
    }
  }
}
