import DurationFormatting
import Glibc
import TPNSProtocol

/// Routes each HTTP request: `/tpns` (and the legacy paths) to the protocol commands'
/// handlers, `/_emulator/` to the inspector, anything else to a 404, once
/// ``AccessPolicy`` has refused what a web page sent. Every `/tpns` request is recorded
/// in the log, and so is every request too large for libmicrohttpd to read. Called
/// concurrently from libmicrohttpd's threads; everything it holds is thread-safe.
struct Router: Sendable {
  static let servicePath = "/tpns"

  /// The older paths firmware and older apps send the same commands to,
  /// answered as ``servicePath`` (with a warning; refused with `--strict`).
  static let legacyServicePaths = ["/apns/apns.php", "/tpns/apns.php"]

  static func isServicePath(_ path: String) -> Bool {
    path == servicePath || legacyServicePaths.contains(path)
  }

  /// The methods `/tpns` answers; HEAD runs nothing.
  static let serviceMethods = ["GET", "HEAD", "POST"]

  let registry: Registry
  let log: RequestLog
  let faults: FaultInjector
  let inspector: Inspector
  let access: AccessPolicy
  let events: EventHub
  let logger: Emulator.Logger?
  /// Whether what a canonical client would not send is refused (`--strict`) rather
  /// than accepted with warnings.
  let isStrict: Bool

  func handle(_ request: IncomingRequest) -> OutgoingResponse {
    let started = logger == nil ? 0 : Clock.monotonicNanoseconds()
    let response: OutgoingResponse
    var command: String?
    var warnings: [String] = []
    if let refusal = access.refusal(of: request) {
      response = .error(refusal)  // from a web page: nothing is run, read or recorded
    } else if Self.isServicePath(request.path) {
      (response, command, warnings) = handleService(request)
    } else if let page = DashboardPage.response(to: request) {
      response = page
    } else if request.path == Inspector.metricsPath || request.path.hasPrefix(Inspector.prefix) {
      do {
        response = try inspector.handle(request)
      } catch {
        response = .error(error)
      }
    } else {
      response = .error(
        RequestError(
          404, "no such path '\(Printable(request.path))' (the service is at \(Self.servicePath))"))
    }
    if let logger {
      let elapsed = Duration.nanoseconds(Int64(Clock.monotonicNanoseconds() - started))
      var line = "\(Clock.iso8601(milliseconds: Clock.nowMilliseconds())) \(request.method) "
      line += "\(Printable(request.path))"
      if let command { line += " cmd=\(Printable(command))" }
      line +=
        " \(response.status) \(elapsed.decimal(in: .milliseconds, fractionDigits: 2, keepingZeros: true))ms"
      if response.status >= 400, response.contentType.hasPrefix("text/plain") {
        let body =
          response.body.last == UInt8(ascii: "\n") ? response.body.dropLast() : response.body[...]
        line += " " + String(decoding: body, as: UTF8.self)
      }
      if !warnings.isEmpty {
        line += " warning\(warnings.count == 1 ? "" : "s"): " + warnings.joined(separator: "; ")
      }
      logger(line)
    }
    return response
  }

  /// Records a request libmicrohttpd answered with `status` by itself, unread (a
  /// request line or header larger than ``HTTPServer/connectionMemoryLimit``): in the
  /// request log, with no method or path (most likely a long GET of `/tpns`), and on
  /// the log line. A refusal of another kind (a malformed request) is not recorded.
  func handleUnread(status: Int) {
    guard let failure = RequestError.unread(status: status) else { return }
    let now = Clock.nowMilliseconds()
    let recorded = log.append(
      RequestLogEntry(
        sequence: 0, time: now, method: nil, path: nil, form: [], isDecoded: false,
        status: status, error: failure.reason))
    inspector.counters.record(command: nil, status: status, seconds: nil)
    events.publish("request", JSONObject(request: recorded))
    logger?("\(Clock.iso8601(milliseconds: now)) - - \(status) error: \(failure.reason)")
  }

  /// Answers a `/tpns` request and logs it; also returns its `cmd` and warnings for
  /// the log line.
  private func handleService(_ request: IncomingRequest) -> (OutgoingResponse, String?, [String]) {
    let started = Clock.monotonicNanoseconds()
    let now = Clock.nowMilliseconds()
    var entry = RequestLogEntry(
      sequence: 0, time: now, method: request.method, path: request.path,
      form: FormDecoding.formBytes(of: request), isDecoded: false, status: 0, error: nil)

    // Decoded first, so that even a refused or faulted request shows what it carried.
    var decoded: Result<FormParameters, RequestError> = .success(FormParameters())
    if !request.isBodyTooLarge {
      do {
        try FormDecoding.checkContentType(of: request)
        decoded = .success(try FormParameters(decoding: entry.form))
        entry.isDecoded = true
      } catch {
        decoded = .failure(error)
      }
    }

    let command = try? decoded.get()[CommandParameter.cmd.name]
    let response: OutgoingResponse
    var conformance = Conformance(isStrict: isStrict)
    do throws(RequestError) {
      response = try answer(
        request, decoded, command: command, conformance: &conformance,
        faultRule: &entry.faultRule, now: now)
    } catch {
      entry.error = error.reason
      response = .error(error)
    }
    entry.status = response.status
    entry.warnings = conformance.allWarnings
    entry.durationMilliseconds =
      (Double(Clock.monotonicNanoseconds() - started) / 10_000).rounded() / 100
    entry = log.append(entry)
    inspector.counters.record(
      command: command, status: response.status,
      seconds: entry.durationMilliseconds.map { $0 / 1000 })
    events.publish("request", JSONObject(request: entry))
    if response.status == 200, request.method != "HEAD", let command,
      let name = CommandName(wireName: command), name != .hello
    {
      events.publish(name == .event ? "notification" : "registry", ["cmd": command])
    }
    return (response, command, entry.warnings)
  }

  /// The answer to a `/tpns` request: a chaos rule that takes it (its number put in
  /// `faultRule`), or, once the method, the size and the parameters are checked, the
  /// command's. A success's body starts with its status, `200 ok: …`, for
  /// clients that look for `200` in it.
  private func answer(
    _ request: IncomingRequest, _ decoded: Result<FormParameters, RequestError>,
    command: String?, conformance: inout Conformance, faultRule: inout Int?, now: Int64
  ) throws(RequestError) -> OutgoingResponse {
    if request.method == "HEAD" {
      // A GET's headers without running it: a probe changes nothing and takes no fault.
      try request.checkSize()
      var response = OutgoingResponse.text(200, "")
      response.header = HTTPHeader(
        name: "Allow", value: Self.serviceMethods.joined(separator: ", "))
      return response
    }
    if let rule = faults.take(command: command) {
      inspector.counters.recordFault()
      faultRule = rule.id
      events.publish("fault", JSONObject(faults: faults.current))
      // A plain wait: it holds this serving thread, as a slow service would.
      if rule.delayMilliseconds > 0 { usleep(UInt32(rule.delayMilliseconds) * 1000) }
      let left = rule.remaining.map { "\($0) more" } ?? "until disarmed"
      if rule.drops {
        var dropped = RequestError(0, "connection dropped by fault rule \(rule.id) (\(left))")
        dropped.drops = true
        throw dropped
      }
      if let status = rule.status {
        var failure = RequestError(status, "injected fault, rule \(rule.id) (\(left))")
        if let retryAfter = rule.retryAfter {
          failure.header = HTTPHeader(name: "Retry-After", value: String(retryAfter))
        }
        throw failure
      }
    }
    guard Self.serviceMethods.contains(request.method) else {
      throw RequestError.methodNotAllowed(request.method, allowed: Self.serviceMethods)
    }
    try request.checkSize()
    if request.path != Self.servicePath {
      try conformance.tolerate(
        "path '\(request.path)' is the legacy path of the service (\(Self.servicePath))",
        "answered as \(Self.servicePath)")
    }
    let validated = try ValidatedRequest(try decoded.get(), conformance: &conformance)
    // Every command records something (a phone, a mapping, its last_seen, a device,
    // notifications), so each is a write: refused while the file is gone.
    let text = try RequestError.mappingDatabaseFailures {
      try validated.run(on: registry, now: now, conformance: &conformance)
    }
    // A whitelist's refusal carries its own `422`; any other answer starts with `200`.
    let line = NotActivatedAnswer.isRefusal(text) ? "\(text)\n" : "200 \(text)\n"
    return OutgoingResponse(
      status: 200, contentType: OutgoingResponse.plainText, header: nil, body: Array(line.utf8))
  }
}
