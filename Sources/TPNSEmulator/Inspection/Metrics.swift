import Locking
import TPNSProtocol

/// What `GET /metrics` reports, in Prometheus' text format (docs/EMULATOR.md lists the
/// series), counted since the emulator started; the registry's sizes and the open
/// streams are read when scraped (``Inspector/metrics(_:)``).
///
/// No label holds what a client chose: a command the protocol does not know is
/// counted as `other` (and a request without one as `none`), so the series stay few
/// whatever is sent, and no token or udid is ever a label.
///
///     metrics.record(command: "client", status: 200, seconds: 0.0004)
final class Metrics: @unchecked Sendable {
  // @unchecked: every stored property is only touched with `lock` held.

  /// The histogram's upper bounds, in seconds (`+Inf` follows).
  static let durationBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

  /// The registry's sizes and the requests received (also the overview's `counts`).
  struct Counts: Encodable, Sendable {
    var phones: Int
    var mappings: Int
    var devices: Int
    var notifications: Int
    var requests: Int
  }

  private struct Series: Hashable {
    var command: String
    var status: Int
  }

  private let lock = Lock()
  private var requests: [Series: Int] = [:]
  /// Requests whose duration fell in each bucket (not cumulative).
  private var bucketCounts = [Int](repeating: 0, count: durationBuckets.count + 1)
  private var durationSum = 0.0
  private var durationCount = 0
  private var faultsInjected = 0

  /// Counts one `/tpns` request: its `cmd` as sent (nil when it had none or could not
  /// be read), the status answered, and how long the answer took (nil when
  /// libmicrohttpd answered it unread).
  func record(command: String?, status: Int, seconds: Double?) {
    let label = command.map { CommandName(wireName: $0) == nil ? "other" : $0 } ?? "none"
    lock.withLock {
      requests[Series(command: label, status: status), default: 0] += 1
      guard let seconds else { return }
      let bucket = Self.durationBuckets.firstIndex { seconds <= $0 } ?? Self.durationBuckets.count
      bucketCounts[bucket] += 1
      durationSum += seconds
      durationCount += 1
    }
  }

  func recordFault() {
    lock.withLock { faultsInjected += 1 }
  }

  /// The exposition text (format 0.0.4), with the registry's sizes and the open
  /// streams as read now.
  func text(_ counts: Counts, streams: Int) -> String {
    let (requests, buckets, sum, count, faults) = lock.withLock {
      (self.requests, bucketCounts, durationSum, durationCount, faultsInjected)
    }
    var text = ""
    func family(_ name: String, _ type: String, _ help: String) {
      text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }
    family("tpns_requests_total", "counter", "/tpns requests answered, by cmd and status.")
    for (series, value) in requests.sorted(by: {
      ($0.key.command, $0.key.status) < ($1.key.command, $1.key.status)
    }) {
      text +=
        "tpns_requests_total{cmd=\"\(series.command)\",status=\"\(series.status)\"} \(value)\n"
    }
    family(
      "tpns_request_duration_seconds", "histogram", "Time to answer a /tpns request.")
    var cumulative = 0
    for (index, bound) in Self.durationBuckets.enumerated() {
      cumulative += buckets[index]
      text += "tpns_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
    }
    text += "tpns_request_duration_seconds_bucket{le=\"+Inf\"} \(count)\n"
    text += "tpns_request_duration_seconds_sum \(sum)\n"
    text += "tpns_request_duration_seconds_count \(count)\n"
    family("tpns_faults_injected_total", "counter", "/tpns requests answered by an armed fault.")
    text += "tpns_faults_injected_total \(faults)\n"
    let sizes = [
      ("tpns_registry_clients", "Phones registered.", counts.phones),
      ("tpns_registry_mappings", "UIDs mapped to phones.", counts.mappings),
      ("tpns_registry_devices", "Devices that announced themselves.", counts.devices),
      (
        "tpns_notifications", "Notifications recorded (what cmd=event would push).",
        counts.notifications
      ),
      ("tpns_stream_connections", "Open dashboard streams (/_emulator/stream).", streams),
    ]
    for (name, help, value) in sizes {
      family(name, "gauge", help)
      text += "\(name) \(value)\n"
    }
    return text
  }
}
