extension Inspector {
  /// The path Prometheus scrapes, as exporters serve it (outside `/_emulator/`).
  static let metricsPath = "/metrics"

  /// `GET /metrics`: ``Metrics`` in Prometheus' text format, the registry's sizes read
  /// now.
  func metrics(_ request: IncomingRequest) throws(RequestError) -> OutgoingResponse {
    try only(["GET"], request)
    _ = try form(request, allowed: [])
    let gauges = try RequestError.mappingDatabaseFailures {
      try registry.read { store in
        Metrics.Gauges(
          clients: try store.clients().count, mappings: try store.mappings().count,
          devices: try store.devices().count,
          notifications: try store.notifications(udid: nil, appid: nil).count,
          streams: events.count)
      }
    }
    let body = request.method == "HEAD" ? [] : Array(counters.text(gauges).utf8)
    return OutgoingResponse(
      status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", header: nil,
      body: body)
  }
}
