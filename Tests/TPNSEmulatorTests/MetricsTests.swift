import Testing

@testable import TPNSEmulator

@Suite("Metrics: /metrics's counters")
struct MetricsTests {
  static let counts = Metrics.Counts(
    phones: 2, mappings: 3, devices: 1, notifications: 4, requests: 0)

  @Test(
    "a cmd the protocol knows is its own label; any other is 'other', none is 'none'",
    arguments: [
      ("client", "client"), ("reg_client", "reg_client"), ("raise_event", "raise_event"),
      ("x\"} 1\nevil", "other"), (nil, "none"),
    ] as [(String?, String)])
  func commandLabel(sent: String?, label: String) {
    let metrics = Metrics()
    metrics.record(command: sent, status: 400, seconds: 0.001)
    #expect(
      metrics.text(Self.counts, streams: 0).contains(
        "\ntpns_requests_total{cmd=\"\(label)\",status=\"400\"} 1\n"))
  }

  @Test("the histogram is cumulative; a request answered unread is counted but not timed")
  func histogram() {
    let metrics = Metrics()
    metrics.record(command: "hello", status: 200, seconds: 0.0003)
    metrics.record(command: "hello", status: 200, seconds: 0.02)
    metrics.record(command: "hello", status: 200, seconds: 5)
    metrics.record(command: nil, status: 431, seconds: nil)
    let text = metrics.text(Self.counts, streams: 0)
    for line in [
      "tpns_request_duration_seconds_bucket{le=\"0.0005\"} 1",
      "tpns_request_duration_seconds_bucket{le=\"0.025\"} 2",
      "tpns_request_duration_seconds_bucket{le=\"1.0\"} 2",
      "tpns_request_duration_seconds_bucket{le=\"+Inf\"} 3",
      "tpns_request_duration_seconds_count 3",
      "tpns_requests_total{cmd=\"hello\",status=\"200\"} 3",
      "tpns_requests_total{cmd=\"none\",status=\"431\"} 1",
      "tpns_registry_mappings 3",
    ] {
      #expect(text.contains("\n\(line)\n"), "\(line)")
    }
  }
}
