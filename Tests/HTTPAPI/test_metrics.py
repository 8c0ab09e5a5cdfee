"""Checks tpns-server's GET /metrics with a real parser, against the request log.

It starts tpns-server on a free port, drives a run through it (a phone registers
and syncs, a legacy mapping, an event, a request refused, one answered by an armed
fault, one without a cmd, one with a cmd the protocol does not know), then reads
/metrics with prometheus_client's parser (the Prometheus text format, as Prometheus
reads it) and checks: every family has its type; each `tpns_requests_total{cmd,
status}` equals the request log's count of the same (GET /_emulator/requests/count),
and their sum the log's total; the histogram's buckets are cumulative and its count
is that total; the registry's sizes equal /_emulator/registry's lists; faults
injected and stream connections are what the run did.

Usage: test_metrics.py BIN_DIR   (run by Scripts/api-test.sh)
The last line printed is `N passed, N failed`; exit 1 when one failed.
"""

import base64
import http.client
import json
import sys
from pathlib import Path

from harness import Checks, emulator
from prometheus_client.parser import text_string_to_metric_families

BIN = Path(sys.argv[1])
TOKEN = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
UIDS = ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK"]
PHONE = f"os=ios&appid=com.tutk.cc.samples.tpns.ios&udid={TOKEN}"

check = Checks()


def request(port, method, target, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = dict(headers or {})
    if body is not None:
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
    connection.request(method, target, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    content_type = response.getheader("Content-Type", "")
    connection.close()
    return response.status, content_type, data


def json_of(port, target):
    status, _, data = request(port, "GET", target)
    assert status == 200, f"{target}: {status} {data!r}"
    return json.loads(data)


def main():
    with emulator(BIN) as port:
        run(port)
    return check.summary()


def run(port):
    map_ = base64.b64encode(json.dumps([{"uid": u} for u in UIDS]).encode()).decode()
    sent = [
        ("POST", "/tpns", f"cmd=client&{PHONE}&token={TOKEN}"),
        ("POST", "/tpns", f"cmd=mapsync&{PHONE}&map={map_.replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')}"),
        ("GET", f"/apns/apns.php?cmd=reg_mapping&{PHONE}&uid={UIDS[0]}", None),
        ("GET", f"/tpns/apns.php?cmd=raise_event&uid={UIDS[0]}&event_type=2&event_time=1700000000", None),
        ("POST", "/tpns", f"cmd=event&uid={UIDS[1]}&event_type=1&msg=hi"),
        ("POST", "/tpns", f"cmd=client&{PHONE}"),  # no token: 400
        ("POST", "/tpns", "uid=x"),  # no cmd: 400
        ("POST", "/tpns", "cmd=nope"),  # a cmd the protocol does not know: 400
    ]
    for method, target, body in sent:
        request(port, method, target, body)
    request(port, "POST", "/_emulator/faults?status=503&count=2")
    request(port, "POST", "/tpns", "cmd=hello")
    request(port, "POST", "/tpns", "cmd=hello")
    request(port, "POST", "/tpns", "cmd=hello")

    status, content_type, data = request(port, "GET", "/metrics")
    check("GET /metrics answers the text format",
          [] if status == 200 and content_type.startswith("text/plain; version=0.0.4")
          else [f"{status} {content_type!r}"])
    families = {f.name: f for f in text_string_to_metric_families(data.decode())}
    expected_types = {
        "tpns_requests": "counter", "tpns_request_duration_seconds": "histogram",
        "tpns_faults_injected": "counter", "tpns_registry_clients": "gauge",
        "tpns_registry_mappings": "gauge", "tpns_registry_devices": "gauge",
        "tpns_notifications": "gauge", "tpns_stream_connections": "gauge",
    }
    check("every family is there with its type",
          [f"{name}: {families[name].type if name in families else 'missing'}, expected {kind}"
           for name, kind in expected_types.items()
           if name not in families or families[name].type != kind])

    counted = {(s.labels["cmd"], s.labels["status"]): s.value
               for s in families["tpns_requests"].samples if s.name == "tpns_requests_total"}
    problems = []
    for (cmd, status), value in sorted(counted.items()):
        if cmd in ("other", "none"):
            continue  # labels of their own; checked below
        logged = json_of(port, f"/_emulator/requests/count?cmd={cmd}&status={status}")["count"]
        if logged != value:
            problems.append(f"cmd={cmd} status={status}: {value} counted, {logged} logged")
    total = json_of(port, "/_emulator/requests?limit=1")["total"]
    if sum(counted.values()) != total:
        problems.append(f"{sum(counted.values())} counted in all, the log's total is {total}")
    for label, status in (("none", "400"), ("other", "400")):
        if counted.get((label, status)) != 1:
            problems.append(f"cmd={label} status={status}: {counted.get((label, status))}, expected 1")
    if counted.get(("hello", "503")) != 2 or counted.get(("hello", "200")) != 1:
        problems.append(f"hello: {counted.get(('hello', '503'))} x 503, {counted.get(('hello', '200'))} x 200")
    check("each request counter equals the request log's count of it", problems)

    samples = {s.name + json.dumps(s.labels, sort_keys=True): s.value
               for s in families["tpns_request_duration_seconds"].samples}
    buckets = [(float(s.labels["le"]), s.value)
               for s in families["tpns_request_duration_seconds"].samples
               if s.name.endswith("_bucket")]
    problems = []
    if any(b[1] > a[1] for a, b in zip(buckets[1:], buckets)) or buckets[-1][0] != float("inf"):
        problems.append(f"buckets not cumulative up to +Inf: {buckets}")
    count = samples.get('tpns_request_duration_seconds_count{}')
    # Every request was read and timed (none answered unread by libmicrohttpd).
    if count != total or buckets[-1][1] != total:
        problems.append(f"count {count}, +Inf {buckets[-1][1]}, the log's total {total}")
    check("the duration histogram counts every request, cumulatively", problems)

    registry = json_of(port, "/_emulator/registry")
    notifications = json_of(port, "/_emulator/notifications")["notifications"]
    gauges = {f.name: f.samples[0].value for f in families.values() if f.type == "gauge"}
    wanted = {
        "tpns_registry_clients": len(registry["clients"]),
        "tpns_registry_mappings": len(registry["mappings"]),
        "tpns_registry_devices": len(registry["devices"]),
        "tpns_notifications": len(notifications),
        "tpns_stream_connections": 0,
    }
    check("the gauges equal the registry's sizes",
          [f"{k}: {gauges.get(k)}, expected {v}" for k, v in wanted.items() if gauges.get(k) != v])
    faults = families["tpns_faults_injected"].samples[0].value
    check("faults injected: the two answered 503", [] if faults == 2 else [f"{faults}"])
    check("no token or udid in any label",
          [s.name for f in families.values() for s in f.samples
           if any(TOKEN in v for v in s.labels.values())])


if __name__ == "__main__":
    sys.exit(main())
