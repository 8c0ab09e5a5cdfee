#!/usr/bin/env python3
"""Sends N malformed HTTP requests to a running tpns-server and reports what came back.

Used by Scripts/stress/emulator.sh; standard library only. Every request goes on its
own connection, from many threads at once. The requests are generated from a fixed
seed (so a failure replays with --seed), cycling through categories of hostile input:
random bytes, truncated requests, oversized headers/targets/bodies, bad
percent-encoding, NUL bytes, non-UTF-8, bad Content-Length and chunking, slowloris
half requests closed early, unknown commands, wrong methods, missing, unknown,
duplicate and countless parameters, and "almost valid" protocol requests (a mapsync
for an unregistered udid, a client with a bad token, a map that is not a JSON array,
more than 10,000 UIDs, a body over 1 MiB). None of them is valid: none may get a 2xx.

Prints one JSON object on stdout:
  {"seed", "count", "seconds", "statuses": {"400": n, ..., "closed": n, "timeout": n},
   "answered", "offenders": [{"category", "outcome", "request"}...]}
where an offender is a 2xx, a 5xx (but 505 for an unknown HTTP version), a timeout (the server neither answered nor closed
in time), or a request that must be answered (it is complete) but was closed without
one.
"""

import argparse
import base64
import collections
import json
import random
import socket
import threading
import time

APPID = "com.tutk.cc.samples.tpns.ios"
FORM = "application/x-www-form-urlencoded"


def uid(number):
    return "ABCDEFGHJK%010d" % number


def map_value(payload_bytes):
    return base64.b64encode(payload_bytes).decode()


def map_of(uids):
    """The percent-encoded `map` value for `uids`: base64 of [{"uid": ...}, ...]."""
    return pct(map_value(json.dumps([{"uid": each} for each in uids]).encode()))


def pct(text):
    """Percent-encodes everything but unreserved characters."""
    out = []
    for byte in text.encode() if isinstance(text, str) else text:
        char = chr(byte)
        if char.isascii() and (char.isalnum() or char in "-._~"):
            out.append(char)
        else:
            out.append("%%%02X" % byte)
    return "".join(out)


class Generator:
    """Builds (category, request bytes, must_answer, pause) for request number i.

    `must_answer`: the request is complete, so the server must send an HTTP answer (a
    closed connection without one is an offence). `pause`: a slowloris request is sent
    in pieces with this many seconds between them, then the connection is closed.
    """

    def __init__(self, seed, port, udid, token):
        self.rng = random.Random(seed)
        self.host = "127.0.0.1:%d" % port
        self.udid = udid
        self.token = token
        self.categories = [
            (name[len("case_"):], getattr(self, name))
            for name in sorted(dir(self))
            if name.startswith("case_")
        ]

    # Helpers -------------------------------------------------------------------

    def request(self, method, target, body=b"", headers=None, content_type=FORM,
                content_length=True):
        if isinstance(target, str):
            target = target.encode()
        if isinstance(body, str):
            body = body.encode()
        head = b"%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n" % (
            method.encode() if isinstance(method, str) else method, target,
            self.host.encode())
        if body or method == "POST":
            if content_type:
                head += b"Content-Type: %s\r\n" % content_type.encode()
            if content_length:
                head += b"Content-Length: %d\r\n" % len(body)
        for header in headers or []:
            head += header if isinstance(header, bytes) else header.encode()
            head += b"\r\n"
        return head + b"\r\n" + body

    def get(self, query, **kwargs):
        return self.request("GET", "/tpns?" + query if isinstance(query, str)
                            else b"/tpns?" + query, **kwargs)

    def post(self, body, **kwargs):
        return self.request("POST", "/tpns", body, **kwargs)

    def either(self, query):
        """A GET with `query`, or a POST with it as the body."""
        return self.get(query) if self.rng.random() < 0.5 else self.post(query)

    def phone(self, udid=None, os="ios"):
        return "os=%s&appid=%s&udid=%s" % (os, APPID, udid or self.udid)

    def unregistered_udid(self):
        return "%064x" % self.rng.getrandbits(250)

    def random_uids(self, count):
        return [uid(self.rng.randrange(10**9)) for _ in range(count)]

    # Categories: each returns (request, must_answer[, pause]) ------------------

    def case_random_bytes(self):
        size = self.rng.choice([1, 2, 8, 64, 512, 4096, 20000])
        return bytes(self.rng.getrandbits(8) for _ in range(size)), False

    def case_random_line(self):
        # Printable garbage shaped like a request line.
        junk = "".join(chr(self.rng.randrange(33, 127)) for _ in range(self.rng.randrange(1, 60)))
        return ("%s\r\n\r\n" % junk).encode(), False

    def case_truncated(self):
        # A request cut before it is complete (inside the headers, or inside a body whose
        # length is declared), then the connection is closed.
        full = self.post("cmd=client&os=ios&appid=%s&udid=%s&token=%s" % (
            APPID, self.unregistered_udid(), "%064x" % self.rng.getrandbits(256)))
        return full[: self.rng.randrange(1, len(full) - 1)], False

    def case_oversized_header(self):
        size = self.rng.choice([20_000, 70_000, 300_000])
        return self.get("cmd=client", headers=["X-Big: " + "a" * size]), True

    def case_many_headers(self):
        headers = ["X-H%d: %d" % (index, index) for index in range(self.rng.choice([500, 3000]))]
        return self.get("cmd=device&uid=" + uid(1), headers=headers), True

    def case_oversized_target(self):
        size = self.rng.choice([17_000, 100_000])
        return self.get("cmd=client&udid=" + "a" * size), True

    def case_oversized_body(self):
        # Over 1 MiB, declared honestly: 413. (A valid-looking client upsert, padded.)
        body = "cmd=client&%s&token=%s&lang=%s" % (
            self.phone(self.unregistered_udid()), "%064x" % 1, "a" * (1 << 20))
        return self.post(body), True

    def case_oversized_map(self):
        # A mapsync for the registered phone with more than 10,000 UIDs: 413.
        count = self.rng.choice([10_001, 12_000])
        value = map_of(self.random_uids(count))
        return self.post("cmd=mapsync&%s&map=%s" % (self.phone(), value)), True

    def case_declared_huge_length(self):
        # Content-Length claims far more than is sent; the connection is then closed.
        body = b"cmd=client"
        length = self.rng.choice([2 << 20, 1 << 40, 2**63 - 1])
        head = self.request("POST", "/tpns", b"", content_length=False,
                            headers=["Content-Length: %d" % length])
        return head + body, False

    def case_bad_content_length(self):
        value = self.rng.choice(["-1", "abc", "1x", " ", "0x10", "99999999999999999999999",
                                 "10, 20", "+5", "1e3"])
        head = self.request("POST", "/tpns", b"", content_length=False,
                            headers=["Content-Length: " + value])
        return head + b"cmd=nope&a=b", False

    def case_double_content_length(self):
        head = self.request("POST", "/tpns", b"", content_length=False,
                            headers=["Content-Length: 8", "Content-Length: 9"])
        return head + b"cmd=nope&", False

    def case_short_content_length(self):
        # The body is longer than declared: what follows is garbage as a next request.
        body = b"cmd=nope&x=1" + b"GARBAGE / HTTP/9.9\r\n\r\n"
        head = self.request("POST", "/tpns", b"", content_length=False,
                            headers=["Content-Length: 12"])
        return head + body, True

    def case_bad_chunked(self):
        chunks = self.rng.choice([
            b"zz\r\ncmd=nope\r\n0\r\n\r\n",
            b"ffffffffffffffffff\r\nabc\r\n0\r\n\r\n",
            b"5\r\ncmd=client\r\n0\r\n\r\n",
            b"-1\r\nabc\r\n0\r\n\r\n",
            b"3\r\nabc",
        ])
        head = self.request("POST", "/tpns", b"", content_length=False,
                            headers=["Transfer-Encoding: chunked"])
        return head + chunks, False

    def case_slowloris(self):
        # Headers trickled in, then the connection is closed before they end.
        full = self.get("cmd=client&%s&token=%064x" % (self.phone(self.unregistered_udid()), 1))
        cut = full.index(b"\r\n\r\n")
        pieces = [full[i:i + 16] for i in range(0, cut, 16)][: self.rng.randrange(2, 6)]
        return pieces, False, 0.01

    def case_bad_percent(self):
        bad = self.rng.choice(["%", "%2", "%G1", "%zz", "%%", "%-1", "%+2"])
        where = self.rng.randrange(3)
        if where == 0:
            query = "cmd=client&%s&token=%s%s" % (self.phone(), self.token, bad)
        elif where == 1:
            query = "cm%sd=client&%s" % (bad, self.phone())
        else:
            query = "cmd=mapsync&%s&map=%s" % (self.phone(), bad)
        return self.either(query), True

    def case_non_utf8(self):
        if self.rng.random() < 0.5:
            query = "cmd=client&%s&lang=%%FF%%FE&token=%s" % (self.phone(), self.token)
            return self.either(query), True
        raw = b"cmd=client&" + self.phone().encode() + b"&lang=\xc3\x28&token=" + self.token.encode()
        return self.post(raw), True

    def case_nul_bytes(self):
        choice = self.rng.randrange(4)
        if choice == 0:
            return self.either("cmd=client&%s&lang=e%%00n&token=%s" % (self.phone(), self.token)), True
        if choice == 1:
            return self.post(b"cmd=client\x00&" + self.phone().encode()), True
        if choice == 2:
            return self.get(b"cmd=client\x00&x=1"), False
        return self.get("cmd=device", headers=[b"X-Nul: a\x00b"]), False

    def case_bad_base64(self):
        value = self.rng.choice(["!!!!", "abc", "YWJj=", "=====", "a" * 5, "%E2%82%AC%E2%82%AC"])
        return self.either("cmd=mapsync&%s&map=%s" % (self.phone(), value)), True

    def case_bad_json(self):
        payload = self.rng.choice([b"[", b"[\"A\",", b"{\"a\": 1}", b"\"ABCDEFGHJK0000000001\"",
                                   b"42", b"null", b"[1, 2]", b"[[\"ABCDEFGHJK0000000001\"]]",
                                   b"\xff\xfe", b"[\"ABCDEFGHJK0000000001\"] x", b"",
                                   b"[\"abc\"]", b"[{\"uid\": 1}]", b"[{\"uid\": \"abc\"}]",
                                   b"[{\"uid\": \"ABCDEFGHJK0000000001\", \"x\": 1}]",
                                   b"[{\"uid\": \"ABCDEFGHJK000000000\\u0000\"}]",
                                   b"[{\"uid\": \"ABCDEFGHJK0000000001\"}, 1]",
                                   b"{\"uid\": \"ABCDEFGHJK0000000001\"}"])
        if payload == b"":
            value = ""
        else:
            value = pct(map_value(payload))
        return self.either("cmd=mapsync&%s&map=%s" % (self.phone(), value)), True

    def case_mapsync_unregistered(self):
        value = map_of(self.random_uids(3))
        return self.either("cmd=mapsync&%s&map=%s" % (self.phone(self.unregistered_udid()), value)), True

    def case_wrong_os(self):
        # The registered phone, with the other os: refused, and not even touched.
        value = map_of(self.random_uids(2))
        command = self.rng.choice([
            "cmd=mapsync&%s&map=%s" % (self.phone(os="android"), value),
            "cmd=mapping&%s&uid=%s" % (self.phone(os="android"), uid(5)),
            "cmd=rm_mapping&%s&uid=%s" % (self.phone(os="android"), uid(5)),
            "cmd=unreg_mapping&%s" % self.phone(os="android"),
        ])
        return self.either(command), True

    def case_bad_token(self):
        token = self.rng.choice(["abc", "z" * 64, "0" * 63, "0" * 65, "%20" * 64, "g" * 64])
        os = self.rng.choice(["ios", "android"])
        if os == "android":
            token = self.rng.choice(["has space", "a" * 4097, "%E2%82%AC", "a/b"])
        return self.either("cmd=client&%s&token=%s" % (self.phone(os=os), token)), True

    def case_bad_values(self):
        query = self.rng.choice([
            "cmd=client&os=windows&appid=%s&udid=%s&token=%s" % (APPID, self.udid, self.token),
            "cmd=client&%s&token=%s&dev=2" % (self.phone(), self.token),
            "cmd=client&%s&token=%s&lang=" % (self.phone(), self.token),
            "cmd=client&os=ios&appid=a%%2Fb&udid=%s&token=%s" % (self.udid, self.token),
            "cmd=device&uid=abc",
            "cmd=event&uid=%s&event_type=99999999999" % uid(1),
            "cmd=event&uid=%s&event_time=-1" % uid(1),
            "cmd=mapping&%s&uid=%s&interval=-5" % (self.phone(), uid(1)),
            "cmd=mapping&%s&uid=%s&format=a%%0Ab" % (self.phone(), uid(1)),
            "cmd=event&uid=%s&msg=%s" % (uid(1), "m" * 5000),
        ])
        return self.either(query), True

    def case_unknown_command(self):
        name = self.rng.choice(["nope", "CLIENT", "client ", "", "%00", "mapsync2", "map%20sync"])
        return self.either("cmd=%s&%s" % (name, self.phone())), True

    def case_missing_parameters(self):
        query = self.rng.choice([
            "", "os=ios", "cmd=client", "cmd=client&%s" % self.phone(),
            "cmd=mapsync&%s" % self.phone(), "cmd=event", "cmd=device",
            "cmd=mapping&%s" % self.phone(), "cmd=client&os=ios&token=%s" % self.token,
        ])
        return self.either(query), True

    def case_unknown_and_duplicate_parameters(self):
        query = self.rng.choice([
            "cmd=client&%s&token=%s&extra=1" % (self.phone(), self.token),
            "cmd=client&%s&token=%s&token=%s" % (self.phone(), self.token, self.token),
            "cmd=client&cmd=client&%s&token=%s" % (self.phone(), self.token),
            "cmd=client&%s&token=%s&noequals" % (self.phone(), self.token),
            "cmd=client&%s&token=%s&=value" % (self.phone(), self.token),
        ])
        return self.either(query), True

    def case_huge_parameter_count(self):
        count = self.rng.choice([10_000, 100_000])
        body = "cmd=client&%s&token=%s&" % (self.phone(), self.token) + "&".join(
            "p%d=1" % index for index in range(count))
        return self.post(body), True

    def case_huge_duplicate_count(self):
        body = "cmd=event&" + "&".join(["uid=%s" % uid(1)] * self.rng.choice([1000, 50_000]))
        return self.post(body), True

    def case_wrong_method(self):
        method = self.rng.choice(["PUT", "DELETE", "PATCH", "get", "FOO", "OPTIONS", "TRACE",
                                  "CONNECT"])
        target = self.rng.choice(["/tpns?cmd=client&%s&token=%s" % (self.phone(), self.token),
                                  "/_emulator/reset", "/_emulator/faults?status=503"])
        return self.request(method, target), method not in ("CONNECT",)

    def case_inspection_misuse(self):
        # Inspection endpoints must not change state on a bad request either.
        target, method = self.rng.choice([
            ("/_emulator/reset?x=1", "POST"),
            ("/_emulator/reset", "GET"),
            ("/_emulator/faults?status=200", "POST"),
            ("/_emulator/faults?status=503&count=-1", "POST"),
            ("/_emulator/faults?status=503", "GET"),
            ("/_emulator/registry?x=%ZZ", "GET"),
            ("/_emulator/nope", "GET"),
        ])
        return self.request(method, target), True

    def case_oversized_inspection(self):
        # A body over 1 MiB to an inspection knob must be refused like one to /tpns,
        # not dropped and the knob turned anyway.
        target = self.rng.choice(["/_emulator/reset", "/_emulator/faults?status=503&count=9"])
        return self.request("POST", target, "x=" + "a" * (1 << 20)), True

    def case_wrong_content_type(self):
        content_type = self.rng.choice(["application/json", "text/plain", "multipart/form-data",
                                        "application/x-www-form-urlencodedX", None])
        body = "cmd=client&%s&token=%s" % (self.phone(self.unregistered_udid()), self.token)
        return self.post(body, content_type=content_type), True

    def case_bad_paths(self):
        # "/" is the dashboard's page (a GET of it runs no command), so not here.
        target = self.rng.choice(["/tpn", "/tpns/", "/TPNS", "/tpns%00", "*", "tpns",
                                  "/tpns/../tpns", "//tpns", "/tpns#x", "/%ff"])
        return self.request("GET", target + "?cmd=device&uid=" + uid(2)), target != "*"

    def case_bad_request_line(self):
        line = self.rng.choice([b"GET /tpns HTTP/9.9", b"GET /tpns", b"GET  /tpns HTTP/1.1",
                                b"GET /tpns HTTP/1.1 extra", b"\r\nGET /tpns HTTP/1.1",
                                b"GET /tp ns HTTP/1.1", b"GET /tpns?cmd=device\xff HTTP/1.1"])
        return line + b"\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", False

    def case_pipelined(self):
        # A malformed request on a kept-alive connection, then another behind it: the
        # first answer must be a refusal, and the second request must not slip through.
        first = self.get("cmd=client&%s&token=%s&dev=9" % (self.phone(), self.token))
        first = first.replace(b"Connection: close\r\n", b"")
        second = self.post("cmd=mapsync&%s&map=%%%%" % self.phone())
        return first + second, True

    def case_http10_no_host(self):
        return b"GET /tpns?cmd=nope HTTP/1.0\r\n\r\n", True

    def case_bad_header_syntax(self):
        header = self.rng.choice([b"NoColon", b": empty-name", b" leading-space: x",
                                  b"X-A\x01: b", b"Host: a\r\nHost: b"])
        return b"GET /tpns?cmd=nope HTTP/1.1\r\n" + header + b"\r\nConnection: close\r\n\r\n", False

    # Categories that cost the server (or this script) far more than the others are
    # drawn less often, so that the whole run stays within seconds: a 10,001-UID map
    # is decoded in full before it is refused (about 0.1 s in a debug build).
    WEIGHTS = {"oversized_map": 0.1, "oversized_body": 0.3, "oversized_inspection": 0.1,
               "huge_parameter_count": 0.3,
               "huge_duplicate_count": 0.5, "oversized_header": 0.5, "slowloris": 0.5}

    def make(self):
        weights = [self.WEIGHTS.get(name, 1) for name, _ in self.categories]
        name, function = self.rng.choices(self.categories, weights)[0]
        made = function()
        request, must_answer = made[0], made[1]
        pause = made[2] if len(made) > 2 else 0
        return name, request, must_answer, pause


def send(port, request, pause, timeout):
    """Sends one request; returns its outcome: the status as a string, or closed/timeout."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(("127.0.0.1", port))
        try:
            if isinstance(request, list):
                for piece in request:
                    sock.sendall(piece)
                    time.sleep(pause)
                return "closed"  # closed early on purpose: no answer expected
            sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server answered early (413, 431) and closed: read what it sent
        received = b""
        while b"\r\n" not in received:
            chunk = sock.recv(4096)
            if not chunk:
                break
            received += chunk
        if received.startswith(b"HTTP/1.") and len(received) >= 12:
            return received[9:12].decode("ascii", "replace")
        return "closed" if not received else "garbage"
    except socket.timeout:
        return "timeout"
    except OSError:
        return "closed"  # reset, or not connected any more
    finally:
        sock.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=32)
    parser.add_argument("--timeout", type=float, default=10)
    parser.add_argument("--udid", required=True, help="the registered phone's udid")
    parser.add_argument("--token", required=True, help="its token")
    arguments = parser.parse_args()

    generator = Generator(arguments.seed, arguments.port, arguments.udid, arguments.token)
    # Generated up front, in one thread, so that the seed alone fixes every request.
    requests = [generator.make() for _ in range(arguments.count)]

    statuses = collections.Counter()
    offenders = []
    lock = threading.Lock()
    next_index = [0]

    def worker():
        while True:
            with lock:
                index = next_index[0]
                if index >= len(requests):
                    return
                next_index[0] += 1
            name, request, must_answer, pause = requests[index]
            outcome = send(arguments.port, request, pause, arguments.timeout)
            # 505 is libmicrohttpd's right answer to `HTTP/9.9`; any other 5xx is not.
            offence = (outcome.startswith("2") or (outcome.startswith("5") and outcome != "505")
                       or outcome in ("timeout", "garbage")
                       or (must_answer and outcome == "closed"))
            with lock:
                statuses[outcome] += 1
                if offence:
                    shown = b"".join(request) if isinstance(request, list) else request
                    offenders.append({"index": index, "category": name, "outcome": outcome,
                                      "request": shown[:300].decode("latin-1")})

    started = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(arguments.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.monotonic() - started

    answered = sum(count for outcome, count in statuses.items() if outcome.isdigit())
    offenders.sort(key=lambda offender: offender["index"])
    print(json.dumps({
        "seed": arguments.seed, "count": len(requests), "seconds": round(seconds, 1),
        "statuses": dict(sorted(statuses.items())), "answered": answered,
        "offenders": offenders,
    }))


if __name__ == "__main__":
    main()
