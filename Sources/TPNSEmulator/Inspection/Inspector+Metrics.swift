extension Inspector {
  /// The path Prometheus scrapes, as exporters serve it (outside `/_emulator/`).
  static let metricsPath = "/metrics"

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
}
