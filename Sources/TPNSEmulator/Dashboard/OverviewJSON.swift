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

  private enum Keys: String, CodingKey {
    case status, database, error, counts, fault, streams
    case startedAt = "started_at"
    case uptimeSeconds = "uptime_seconds"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(status, forKey: .status)
    try container.encode(database, forKey: .database)
    try container.encode(error, forKey: .error)
    try container.encode(startedAt, forKey: .startedAt)
    try container.encode(uptimeSeconds, forKey: .uptimeSeconds)
    try container.encode(counts, forKey: .counts)
    try container.encode(fault, forKey: .fault)
    try container.encode(streams, forKey: .streams)
  }
}

/// The data of a `registry` or `notification` event: the command that caused it.
struct CommandEventJSON: Encodable {
  var cmd: String
}
