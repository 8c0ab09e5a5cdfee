#!/usr/bin/env python3
"""Abusive HTTP clients against a running tpns-server, for Scripts/stress/security/http.sh.

Each scenario prints one JSON object of figures on stdout (the part decides):

  memory PORT PID     fills the request log with 1 MiB refused requests, then ten
                      clients ask for /_emulator/requests (and ten more for
                      ?limit=1000) and never read: the server's RSS before and while
                      they wait, and the size of one answer.
  slowloris PORT      1,000 connections each send a request line and then a header line
                      every 2 s; then a new client asks for /_emulator/health: how long
                      it waited, and how many of the 1,000 are still open 12 s after
                      they connected (the head deadline is 10 s).
  framing PORT        requests whose headers frame the body two ways (or hide a header:
                      a space before its colon, a folded line), each followed by
                      a second request on the same connection: the statuses answered,
                      whether the server closed, and the devices announced.
  streams PORT        1,000 connections open /_emulator/stream and never read: how long
                      health and a /tpns request then take, and how many of the
                      streams the server left open.
"""

import json
import resource
import socket
import sys
import time

FORM = b"application/x-www-form-urlencoded"


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def read_all(sock, timeout):
    """Everything until the server closes, or until `timeout` seconds of silence."""
    sock.settimeout(timeout)
    data = b""
    closed = False
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                closed = True
                break
            data += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    return data, closed


def request(port, head, body=b"", timeout=10):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(head + body)
    data, _ = read_all(sock, timeout)
    sock.close()
    return data


def memory(port, pid):
    body = b"cmd=x&a=" + b"\x01" * ((1 << 20) - 8)  # control bytes: six bytes of JSON each
    head = (b"POST /tpns HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: " + FORM
            + b"\r\nContent-Length: %d\r\n\r\n" % len(body))
    statuses = set()
    for _ in range(20):
        statuses.add(request(port, head, body).split(b"\r\n")[0].decode())
    answer = request(port, b"GET /_emulator/requests HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    before = rss_kb(pid)
    waiting = []
    for target in [b"/_emulator/requests"] * 10 + [b"/_emulator/requests?limit=1000"] * 10:
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: localhost\r\n\r\n")
        waiting.append(sock)
    # The RSS once it stops growing (1 s steady), at most 20 s.
    peak = rss_kb(pid)
    steady_since = time.monotonic()
    deadline = steady_since + 20
    while time.monotonic() < deadline and time.monotonic() - steady_since < 1:
        time.sleep(0.1)
        now = rss_kb(pid)
        if now > peak + 256:
            steady_since = time.monotonic()
        peak = max(peak, now)
    for sock in waiting:
        sock.close()
    print(json.dumps({"statuses": sorted(statuses), "answer_bytes": len(answer),
                      "rss_before_kb": before, "rss_waiting_kb": peak, "clients": len(waiting)}))


def slowloris(port, count=1000, interval=2.0, settle=12.0):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 100), hard))
    crowd = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"GET /tpns?cmd=device HTTP/1.1\r\nHost: localhost\r\n")
        crowd.append(sock)
    opened = time.monotonic()
    started = time.monotonic()
    answer = request(port, b"GET /_emulator/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                     timeout=5)
    waited = time.monotonic() - started
    status = answer.split(b"\r\n")[0].decode() if answer else None
    # A header line every `interval` s from each, until `settle` s after they connected.
    line = 0
    while time.monotonic() - opened < settle:
        time.sleep(interval)
        line += 1
        for sock in crowd:
            try:
                sock.send(b"X-Line-%d: x\r\n" % line, socket.MSG_DONTWAIT)
            except OSError:
                pass
    still_open = 0
    for sock in crowd:
        sock.setblocking(False)
        try:
            if sock.recv(4096) != b"":
                still_open += 1  # an answer: not closed
        except BlockingIOError:
            still_open += 1
        except OSError:
            pass
        sock.close()
    print(json.dumps({"connections": count, "status": status, "waited_s": round(waited, 2),
                      "open_after_s": settle, "still_open": still_open}))


def framing(port):
    form = b"cmd=device&uid=ABCDEFGHJK0000000001"
    chunked = b"23\r\n" + form + b"\r\n0\r\n\r\n"
    smuggled = b"GET /tpns?cmd=device&uid=ABCDEFGHJK0000000002 HTTP/1.1\r\nHost: localhost\r\n\r\n"
    cases = {
        "two lengths": (b"Content-Length: 10\r\nContent-Length: 35\r\n", form),
        "one length twice": (b"Content-Length: 35\r\nContent-Length: 35\r\n", form),
        "length and chunked": (b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n", chunked),
        "chunked twice": (b"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", chunked),
        "another coding": (b"Transfer-Encoding: gzip\r\n", form),
        "space before the colon": (b"Content-Length: 4\r\nTransfer-Encoding : chunked\r\n", chunked),
        "folded line": (b"Content-Length: 4\r\nX-Note: a\r\n Transfer-Encoding: chunked\r\n", chunked),
        "folded value": (b"Content-Length: 35\r\nX-Note: a\r\n\tb\r\n", form),
    }
    results = {}
    for name, (headers, body) in cases.items():
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"POST /tpns HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + FORM + b"\r\n"
                     + headers + b"\r\n" + body + smuggled)
        started = time.monotonic()
        data, closed = read_all(sock, 3)
        sock.close()
        statuses = [line.split(b" ")[1].decode() for line in data.split(b"\r\n")
                    if line.startswith(b"HTTP/1.1 ")]
        results[name] = {"statuses": statuses,
                         "closed_s": round(time.monotonic() - started, 2) if closed else None}
    registry = request(port, b"GET /_emulator/registry HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    devices = json.loads(registry.split(b"\r\n\r\n", 1)[1])["devices"]
    print(json.dumps({"cases": results, "devices": len(devices)}))


def streams(port):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    opened = []
    for _ in range(1000):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"GET /_emulator/stream HTTP/1.1\r\nHost: localhost\r\n\r\n")
        opened.append(sock)
    time.sleep(1)  # let the server take them all in
    timings = {}
    statuses = {}
    for name, target in [("health", b"/_emulator/health"),
                         ("tpns", b"/tpns?cmd=device&uid=ABCDEFGHJK0000000009")]:
        started = time.monotonic()
        try:
            answer = request(port, b"GET " + target + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                             timeout=5)
            statuses[name] = answer.split(b"\r\n", 1)[0].decode()
        except OSError as error:
            statuses[name] = f"no answer ({error})"
        timings[name] = round(time.monotonic() - started, 3)
    still_open = 0
    for sock in opened:
        sock.setblocking(False)
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break  # closed by the server
        except BlockingIOError:
            still_open += 1
        except OSError:
            pass
        sock.close()
    print(json.dumps({"streams": len(opened), "still_open": still_open, "seconds": timings,
                      "statuses": statuses}))


if __name__ == "__main__":
    scenario, port = sys.argv[1], int(sys.argv[2])
    if scenario == "memory":
        memory(port, int(sys.argv[3]))
    elif scenario == "slowloris":
        slowloris(port)
    elif scenario == "framing":
        framing(port)
    elif scenario == "streams":
        streams(port)
    else:
        sys.exit(f"unknown scenario {scenario}")
