/// The body of `GET /_emulator/overview`: what the dashboard's overview shows.
///
/// ```json
/// {"counts": {"devices": 0, "mappings": 2, "notifications": 0, "phones": 1, "requests": 3},
///  "database": ":memory:", "fault": null, "started_at": "…", "status": "ok",
///  "streams": 1, "uptime_seconds": 12}
/// ```
struct OverviewJSON: Encodable {
  struct Counts: Encodable {
    var phones: Int
    var mappings: Int
    var devices: Int
    var notifications: Int
    var requests: Int
  }

  var status: String
  var database: String
  var error: String?
  var startedAt: String
  var uptimeSeconds: Int64
  var counts: Counts
  var fault: FaultJSON
  var streams: Int

  func encode(to encoder: any Encoder) throws {
    try JSONObject([
      ("status", status), ("database", database), ("error", error), ("started_at", startedAt),
      ("uptime_seconds", uptimeSeconds), ("counts", counts), ("fault", fault),
      ("streams", streams),
    ]).encode(to: encoder)
  }
}

/// The data of a `registry` or `notification` event: the command that caused it.
struct CommandEventJSON: Encodable {
  var cmd: String
}
