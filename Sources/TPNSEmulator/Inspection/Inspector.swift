import TPNSProtocol

/// The `/_emulator/` endpoints: what tests and users look at to see what the emulator
/// received and would have pushed, and the knobs they turn (reset, faults, whitelist,
/// snapshot). docs/EMULATOR.md and `openapi.json` (beside this file) describe each;
/// HEAD is answered wherever GET is, with the same status and headers and no body.
struct Inspector: Sendable {
  static let prefix = "/_emulator/"
  /// The path Prometheus scrapes, as exporters serve it (outside `/_emulator/`).
  static let metricsPath = "/metrics"

  let registry: Registry
  let log: RequestLog
  let faults: FaultInjector
  /// What `/metrics` counts; the router records each `/tpns` request in it.
  let counters: Metrics
  let databaseName: String
  let events: EventHub
  /// When the emulator started (milliseconds since 1970, and monotonic nanoseconds).
  let startedAt: Int64
  let startedMonotonic: UInt64

  func handle(_ request: IncomingRequest) throws(RequestError) -> OutgoingResponse {
    if request.path == Self.metricsPath { return try metrics(request) }
    // The server drops a body over the limit: a knob must not be turned as if it had
    // been sent without one, nor a target over the limit read.
    let name = String(request.path.dropFirst(Self.prefix.count))
    if name == "snapshot", request.isBodyTooLarge {
      throw RequestError(
        413,
        "a snapshot PUT is at most 1 MiB; start tpns-server with --import FILE for a larger one")
    }
    try request.checkSize()
    if ["health", "overview", "stream", "openapi.json", "registry"].contains(name) {
      try only(["GET"], request)
      _ = try form(request, allowed: [])
    }
    switch name {
    case "health":
      let fileError = registry.fileError
      return .json(JSONObject(health(fileError)), status: fileError == nil ? 200 : 503)
    case "overview":
      return try overview()
    case "stream":
      var response = OutgoingResponse(
        status: 200, contentType: "text/event-stream; charset=utf-8",
        header: HTTPHeader(name: "Cache-Control", value: "no-store"), body: [])
      if request.method == "GET" { response.stream = events.open() }
      return response
    case "openapi.json":
      // A file beside this one, embedded at build time; Scripts/api-test.sh holds
      // every endpoint to what it says.
      return OutgoingResponse(
        status: 200, contentType: "application/json", header: nil,
        body: request.method == "HEAD" ? [] : PackageResources.openapi_json)
    case "registry":
      return .json(
        try RequestError.mappingDatabaseFailures {
          try registry.read { store in
            JSONObject([
              ("clients", try store.clients().map(JSONValue.init(record:))),
              ("mappings", try store.mappings().map(JSONValue.init(record:))),
              ("devices", try store.devices().map(JSONValue.init(record:))),
            ])
          }
        })
    case "notifications":
      try only(["GET"], request)
      let query = try form(request, allowed: ["udid", "appid"])
      let records = try RequestError.mappingDatabaseFailures {
        try registry.read { try $0.notifications(udid: query["udid"], appid: query["appid"]) }
      }
      return .json(JSONObject([("notifications", records.map(JSONValue.init(record:)))]))
    case "requests":
      try only(["GET", "DELETE"], request)
      if request.method == "DELETE" {
        // The journal only: the registry, the faults and the whitelist stay.
        guard try form(request, allowed: RequestFilter.names).pairs.isEmpty else {
          throw .badRequest(
            "DELETE \(request.path) empties the whole log and takes no filters (GET takes them)")
        }
        log.reset()
        events.publish("requests_cleared", ["reset": true])
        return .json(["cleared": true])
      }
      let query = try form(request, allowed: RequestFilter.names.union(["since", "limit"]))
      let since = try Self.integer(query, "since", 0...Int.max)
      let limit =
        try Self.integer(query, "limit", 1...RequestLogStream.maximumLimit)
        ?? RequestLogStream.defaultLimit
      var response = OutgoingResponse(
        status: 200, contentType: "application/json", header: nil, body: [])
      response.stream = RequestLogStream(
        log: log, since: since, limit: limit, filter: try RequestFilter(query))
      return response
    case "requests/count":
      try only(["GET"], request)
      let filter = try RequestFilter(try form(request, allowed: RequestFilter.names))
      return .json(["count": log.count(matching: filter)])
    case "reset":
      try only(["POST"], request)
      _ = try form(request, allowed: [])
      try RequestError.mappingDatabaseFailures { try registry.write { try $0.reset() } }
      log.reset()
      faults.disarm()
      events.publish("reset", ["reset": true])
      return .json(["reset": true])
    case "faults":
      return try faultRules(request)
    case "whitelist":
      return try whitelist(request)
    case "snapshot":
      return try snapshot(request)
    default:
      throw RequestError(
        404,
        "no such path '\(Printable(request.path))' (try \(Self.prefix)health, registry, "
          + "notifications, requests, requests/count, reset, faults, whitelist, snapshot, "
          + "overview, stream, openapi.json)")
    }
  }

  /// `health`'s answer: `database missing` when the file was deleted or replaced.
  private func health(_ fileError: DatabaseFileError?) -> JSONObject.Members {
    [
      ("status", fileError == nil ? "ok" : "database missing"), ("database", databaseName),
      ("error", fileError?.description),
    ]
  }

  /// What the dashboard's overview shows: the health, uptime, counts, the armed fault.
  private func overview() throws(RequestError) -> OutgoingResponse {
    let fileError = registry.fileError
    let counts = try self.counts()
    let uptime = (Clock.monotonicNanoseconds() - startedMonotonic) / 1_000_000_000
    return .json(
      JSONObject(
        health(fileError) + [
          ("started_at", Clock.iso8601(milliseconds: startedAt)),
          ("uptime_seconds", Int64(uptime)), ("counts", counts),
          ("fault", JSONObject(faults: faults.current)), ("streams", events.count),
        ]))
  }

  /// The registry's sizes and the requests received, read now (the overview, `/metrics`).
  func counts() throws(RequestError) -> Metrics.Counts {
    try RequestError.mappingDatabaseFailures {
      try registry.read { store in
        Metrics.Counts(
          phones: try store.clients().count, mappings: try store.mappings().count,
          devices: try store.devices().count,
          notifications: try store.notifications(udid: nil, appid: nil).count,
          requests: log.snapshot().total)
      }
    }
  }

  /// `GET /metrics`: ``Metrics`` in Prometheus' text format, the registry's sizes read
  /// now.
  func metrics(_ request: IncomingRequest) throws(RequestError) -> OutgoingResponse {
    try only(["GET"], request)
    _ = try form(request, allowed: [])
    let body =
      request.method == "HEAD" ? [] : Array(counters.text(try counts(), streams: events.count).utf8)
    return OutgoingResponse(
      status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", header: nil,
      body: body)
  }

  /// Refuses a method not in `methods`; HEAD goes wherever GET does.
  func only(_ methods: [String], _ request: IncomingRequest) throws(RequestError) {
    var allowed = methods
    if let get = allowed.firstIndex(of: "GET") { allowed.insert("HEAD", at: get + 1) }
    guard allowed.contains(request.method) else {
      throw .methodNotAllowed(request.method, allowed: allowed)
    }
  }

  /// The query (and a form body, unless not `readingBody`) of an inspection request,
  /// refusing unknown names.
  func form(_ request: IncomingRequest, allowed: Set<String>, readingBody: Bool = true)
    throws(RequestError) -> FormParameters
  {
    var request = request
    if !readingBody { request.body = [] }
    // A name in both the query and a POST's form body is a duplicate.
    try FormDecoding.checkContentType(of: request)
    let form = try FormParameters(decoding: FormDecoding.formBytes(of: request))
    if let duplicate = form.firstDuplicateName {
      throw .badRequest("parameter '\(Printable(duplicate))' is given more than once")
    }
    for pair in form.pairs where !allowed.contains(pair.name) {
      throw .badRequest("unknown parameter '\(Printable(pair.name))' for \(request.path)")
    }
    return form
  }

  /// The integer value of `name` within `range`; nil when it was not sent.
  static func integer(_ form: FormParameters, _ name: String, _ range: ClosedRange<Int>)
    throws(RequestError) -> Int?
  {
    guard let text = form[name] else { return nil }
    guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text),
      range.contains(value)
    else {
      throw .badRequest(
        "parameter '\(name)' must be an integer from \(range.lowerBound) to "
          + "\(range.upperBound), not '\(Printable(text))'")
    }
    return value
  }
}
