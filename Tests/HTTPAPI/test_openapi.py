"""Holds tpns-server to its OpenAPI description, and the description to the server.

It starts tpns-server on a free port, reads GET /_emulator/openapi.json, validates it
as OpenAPI 3.1 (openapi-spec-validator), then makes every request of EXAMPLES in
order over real HTTP and checks each answer against the document: the status is one
the operation lists, the content type is the one listed for it, a JSON body is valid
against its schema (jsonschema, draft 2020-12) and a text body matches its pattern; a
request that is meant to succeed must itself be valid against the operation's
parameters or body schema. Then, so that neither side can drift:

- every operation the document lists is made at least once (a documented endpoint
  that no example reaches fails, as does one the server does not answer);
- every endpoint the server names (its 404 for an unknown /_emulator/ path lists
  them) is in the document.

Usage: test_openapi.py BIN_DIR   (run by Scripts/api-test.sh)
The last line printed is `N passed, N failed`; exit 1 when one failed.
"""

import base64
import http.client
import json
import re
import sys
from pathlib import Path

from harness import Checks, emulator
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_spec

BIN = Path(sys.argv[1])
TOKEN = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
UID = "ABCDEFGHJKLMNPRSTUVW"
PHONE = {"os": "ios", "appid": "com.tutk.cc.samples.tpns.ios", "udid": TOKEN}
MAP = base64.b64encode(json.dumps([{"uid": UID, "interval": 60}]).encode()).decode()


def form(**fields):
    return fields


# The requests, in order (each may depend on the state the ones before left):
# (name, method, path, query, body, headers, expected status). A dict body is sent
# as a form; bytes as they are, with the Content-Type of headers.
EXAMPLES = [
    ("the document", "GET", "/_emulator/openapi.json", None, None, {}, 200),
    ("hello", "POST", "/tpns", None, form(cmd="hello"), {}, 200),
    ("client", "POST", "/tpns", None, form(cmd="client", **PHONE, token=TOKEN, lang="enUS", dev="0"), {}, 200),
    ("client of an Android phone, with bgfetch", "POST", "/tpns", None,
     form(cmd="client", os="android", appid="com.example.app", udid="ANDROID0001", token="fcm-token:1",
          bgfetch="1"), {}, 200),
    ("mapsync as GET", "GET", "/tpns", form(cmd="mapsync", **PHONE, map=MAP), None, {}, 200),
    ("reg_mapping on the legacy path", "POST", "/apns/apns.php", None,
     form(cmd="reg_mapping", **PHONE, uid=UID, interval="300"), {}, 200),
    ("raise_event as firmware sends it", "GET", "/tpns/apns.php",
     form(cmd="raise_event", uid=UID, event_type="2", event_time="1700000000"), None, {}, 200),
    ("device", "POST", "/tpns", None, form(cmd="device", uid=UID), {}, 200),
    ("event", "POST", "/tpns", None, form(cmd="event", uid=UID, event_type="1", msg="hi"), {}, 200),
    ("rm_mapping", "POST", "/tpns", None, form(cmd="rm_mapping", **PHONE, uid=UID), {}, 200),
    ("unreg_mapping", "POST", "/tpns", None, form(cmd="unreg_mapping", **PHONE), {}, 200),
    ("mapping", "POST", "/tpns", None, form(cmd="mapping", **PHONE, uid=UID), {}, 200),
    ("HEAD /tpns", "HEAD", "/tpns", None, None, {}, 200),
    ("HEAD of a legacy path", "HEAD", "/apns/apns.php", None, None, {}, 200),
    ("HEAD of the other legacy path", "HEAD", "/tpns/apns.php", None, None, {}, 200),
    ("POST to the other legacy path", "POST", "/tpns/apns.php", None, form(cmd="hello"), {}, 200),
    ("GET of the legacy path", "GET", "/apns/apns.php", form(cmd="hello"), None, {}, 200),
    ("client without a token", "POST", "/tpns", None, form(cmd="client", **PHONE), {}, 400),
    ("an unknown command", "GET", "/tpns", form(cmd="nope"), None, {}, 400),
    ("PUT /tpns", "PUT", "/tpns", None, b"", {}, 405),
    ("a JSON body", "POST", "/tpns", None, b"{}", {"Content-Type": "application/json"}, 415),
    ("a body over 1 MiB", "POST", "/tpns", None, form(cmd="hello", pad="x" * (1 << 20)), {}, 413),
    ("a query over 8 KiB", "GET", "/tpns", form(cmd="hello", pad="x" * 9000), None, {}, 414),
    ("a page of another origin", "POST", "/tpns", None, form(cmd="hello"),
     {"Origin": "http://evil.example"}, 403),
    ("another Host", "GET", "/tpns", form(cmd="hello"), None, {"Host": "evil.example"}, 421),
    ("health", "GET", "/_emulator/health", None, None, {}, 200),
    ("overview", "GET", "/_emulator/overview", None, None, {}, 200),
    ("registry", "GET", "/_emulator/registry", None, None, {}, 200),
    ("notifications", "GET", "/_emulator/notifications", None, None, {}, 200),
    ("one phone's notifications", "GET", "/_emulator/notifications", form(udid=TOKEN), None, {}, 200),
    ("requests", "GET", "/_emulator/requests", None, None, {}, 200),
    ("requests, a page", "GET", "/_emulator/requests", form(since="0", limit="3"), None, {}, 200),
    ("requests, a limit too large", "GET", "/_emulator/requests", form(limit="1001"), None, {}, 400),
    ("requests, filtered", "GET", "/_emulator/requests", form(cmd="mapsync", uid=UID, status="200", path="/tpns"),
     None, {}, 200),
    ("requests of one phone, counted", "GET", "/_emulator/requests/count", form(udid=TOKEN, cmd="client"), None, {}, 200),
    ("requests, a bad status filter", "GET", "/_emulator/requests/count", form(status="abc"), None, {}, 400),
    ("faults, none armed", "GET", "/_emulator/faults", None, None, {}, 200),
    ("faults, armed", "POST", "/_emulator/faults", form(status="503", count="1", retry_after="1"), None, {}, 200),
    ("a request answered by the fault", "POST", "/tpns", None, form(cmd="hello"), {}, 503),
    ("faults, armed again", "POST", "/_emulator/faults", form(status="500", count="2"), None, {}, 200),
    ("a chaos rule", "POST", "/_emulator/faults",
     form(cmd="mapsync", probability="0.5", seed="7", delay_ms="10", count="3"), None, {}, 200),
    ("a rule that drops", "POST", "/_emulator/faults", form(drop="1", cmd="device"), None, {}, 200),
    ("a rule with a bad probability", "POST", "/_emulator/faults", form(status="503", probability="2"),
     None, {}, 400),
    ("faults, disarmed", "DELETE", "/_emulator/faults", None, None, {}, 200),
    ("faults without a status", "POST", "/_emulator/faults", form(count="1"), None, {}, 400),
    ("faults from another origin", "POST", "/_emulator/faults", form(status="503"), None,
     {"Origin": "http://evil.example"}, 403),
    ("stream", "GET", "/_emulator/stream", None, None, {}, 200),
    ("HEAD of health", "HEAD", "/_emulator/health", None, None, {}, 200),
    ("DELETE of health", "DELETE", "/_emulator/health", None, None, {}, 405),
    ("metrics", "GET", "/metrics", None, None, {}, 200),
    ("metrics with a query", "GET", "/metrics", form(x="1"), None, {}, 400),
    ("the dashboard", "GET", "/", None, None, {}, 200),
    ("its style sheet", "GET", "/dashboard.css", None, None, {}, 200),
    ("its script", "GET", "/dashboard.js", None, None, {}, 200),
    ("whitelist, off", "GET", "/_emulator/whitelist", None, None, {}, 200),
    ("whitelist, on", "PUT", "/_emulator/whitelist", None, b"# the console's list\nZYXWVUTSRQ0987654321\n",
     {"Content-Type": "text/plain"}, 200),
    ("mapping of a UID not activated: 200, a body starting 422", "POST", "/tpns", None,
     form(cmd="mapping", **PHONE, uid=UID), {}, 200),
    ("whitelist with a line that is no UID", "PUT", "/_emulator/whitelist", None, b"front door\n",
     {"Content-Type": "text/plain"}, 400),
    ("whitelist from another origin", "PUT", "/_emulator/whitelist", None, b"",
     {"Content-Type": "text/plain", "Origin": "http://evil.example"}, 403),
    ("whitelist, off again", "DELETE", "/_emulator/whitelist", None, None, {}, 200),
    ("snapshot", "GET", "/_emulator/snapshot", None, None, {}, 200),
    ("snapshot loaded", "PUT", "/_emulator/snapshot", None,
     b'{"version":1,"clients":[],"mappings":[],"devices":[],"notifications":[]}',
     {"Content-Type": "application/json"}, 200),
    ("snapshot of another version", "PUT", "/_emulator/snapshot", None,
     b'{"version":2,"clients":[],"mappings":[],"devices":[],"notifications":[]}',
     {"Content-Type": "application/json"}, 400),
    ("requests, emptied", "DELETE", "/_emulator/requests", None, None, {}, 200),
    ("reset", "POST", "/_emulator/reset", None, None, {}, 200),
    ("reset from another site", "POST", "/_emulator/reset", None, None, {"Sec-Fetch-Site": "cross-site"}, 403),
]

check = Checks()


def request(port, method, path, query, body, headers):
    """The answer's status, headers (lower-case names) and body; a stream's first bytes."""
    target = path
    if query:
        # As firmware builds it: unencoded where nothing needs it.
        target += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    headers = dict(headers)
    if isinstance(body, dict):
        body = "&".join(f"{k}={v}" for k, v in body.items()).encode()
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest(method, target, skip_host="Host" in headers)
    for name, value in headers.items():
        connection.putheader(name, value)
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    try:
        connection.endheaders(body)
    except (BrokenPipeError, ConnectionResetError):
        pass  # answered (413) and closed before the whole body was read: read the answer
    response = connection.getresponse()
    answer_headers = {k.lower(): v for k, v in response.getheaders()}
    if answer_headers.get("content-type", "").startswith("text/event-stream"):
        data = response.read1(64)  # endless: its first event is enough
    else:
        data = response.read()
    connection.close()
    return response.status, answer_headers, data


def resolve(document, node):
    while isinstance(node, dict) and "$ref" in node:
        target = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def operation(document, path, method):
    item = document["paths"].get(path)
    if item is None:
        return None
    item = resolve(document, item)
    # Every GET is answered to HEAD as well (the document's info says so).
    return item.get(method.lower()) or (item.get("get") if method == "HEAD" else None)


def response_for(document, op, status):
    responses = op["responses"]
    found = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX")
    return resolve(document, found) if found else None


def errors(validator, instance):
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
            for e in validator.iter_errors(instance)][:3]


def main():
    with emulator(BIN) as port:
        status, headers, data = request(port, "GET", "/_emulator/openapi.json", None, None, {})
        document = json.loads(data)
        problems = []
        try:
            validate_spec(document)
        except Exception as error:  # the validator's own error types
            problems.append(f"not valid OpenAPI 3.1: {error}")
        if document.get("openapi", "").split(".")[:2] != ["3", "1"]:
            problems.append(f"openapi is {document.get('openapi')!r}, not 3.1")
        check("the document is valid OpenAPI 3.1", problems)

        def validator(schema):
            # A schema's $refs point into the document's components: they go along.
            return Draft202012Validator({**schema, "components": document["components"]})

        made = set()
        for name, method, path, query, body, headers, expected in EXAMPLES:
            problems = []
            op = operation(document, path, method)
            status, answer_headers, data = request(port, method, path, query, body, headers)
            if status != expected:
                problems.append(f"answered {status}, expected {expected}: {data[:200]!r}")
            if op is None:
                if status != 405:  # a method a path does not take is not documented
                    problems.append(f"{method} {path} is not in the document")
                check(f"{name} ({method} {path})", problems)
                continue
            made.add((path, method if method != "HEAD" or "head" in resolve(document, document["paths"][path]) else "GET"))
            if 200 <= expected < 300:
                problems += request_problems(document, op, query, body, validator)
            documented = response_for(document, op, status)
            if documented is None:
                problems.append(f"status {status} is not among the operation's responses")
            elif method != "HEAD" and "content" in documented:
                content_type = answer_headers.get("content-type", "")
                media = documented["content"].get(content_type)
                if media is None:
                    problems.append(f"Content-Type {content_type!r}, documented: {list(documented['content'])}")
                else:
                    problems += body_problems(media.get("schema", {}), content_type, data, validator, document)
            check(f"{name} ({method} {path} -> {status})", problems)

        documented = {(path, method.upper())
                      for path, item in document["paths"].items()
                      for method in resolve(document, item)
                      if method in ("get", "put", "post", "delete", "head", "patch")}
        check("every documented operation was made and answered",
              [f"{m} {p} has no example" for p, m in sorted(documented - made)])

        status, _, data = request(port, "GET", "/_emulator/no-such-endpoint", None, None, {})
        named = re.search(r"\(try (/_emulator/)(.*)\)", data.decode())
        problems = [] if status == 404 and named else [f"the 404 names no endpoints: {status} {data!r}"]
        if named:
            for endpoint in named.group(2).split(", "):
                if named.group(1) + endpoint not in document["paths"]:
                    problems.append(f"the server answers {named.group(1) + endpoint}, the document does not list it")
        check("every endpoint the server names is documented", problems)
    return check.summary()


def request_problems(document, op, query, body, validator):
    """What of a request meant to succeed the document does not allow."""
    problems = []
    if isinstance(body, bytes) and body.startswith(b"{"):
        media = resolve(document, op.get("requestBody", {})).get("content", {}).get("application/json")
        if media is None:
            problems.append("the operation documents no JSON body")
        else:
            problems += [f"request body: {e}" for e in errors(validator(media["schema"]), json.loads(body))]
    if isinstance(body, dict):
        media = resolve(document, op.get("requestBody", {})).get("content", {}).get(
            "application/x-www-form-urlencoded")
        if media is None:
            problems.append("the operation documents no form body")
        else:
            problems += [f"request body: {e}" for e in errors(validator(media["schema"]), body)]
    for parameter in map(lambda p: resolve(document, p), op.get("parameters", [])):
        if parameter["in"] != "query":
            continue
        if parameter.get("explode") and resolve(document, parameter["schema"]).get("type", "object") == "object" \
                or "oneOf" in resolve(document, parameter["schema"]):
            problems += [f"query: {e}" for e in errors(validator(parameter["schema"]), query or {})]
        elif query and parameter["name"] in query:
            value = query[parameter["name"]]
            kind = resolve(document, parameter["schema"]).get("type")
            typed = int(value) if kind == "integer" else float(value) if kind == "number" else value
            problems += [f"query {parameter['name']}: {e}" for e in errors(validator(parameter["schema"]), typed)]
    names = {p["name"] for p in map(lambda p: resolve(document, p), op.get("parameters", []))}
    if query and not any(p.get("explode") and p["in"] == "query" and p["name"] == "form"
                         for p in map(lambda p: resolve(document, p), op.get("parameters", []))):
        for name in query:
            if name not in names:
                problems.append(f"query parameter {name!r} is not documented")
    return problems


def body_problems(schema, content_type, data, validator, document):
    if content_type == "application/json":
        try:
            instance = json.loads(data)
        except ValueError as error:
            return [f"the body is not JSON: {error}"]
        return errors(validator(schema), instance)
    schema = resolve(document, schema)
    if "pattern" in schema and not re.search(schema["pattern"], data.decode(errors="replace")):
        return [f"the body {data[:80]!r} does not match {schema['pattern']!r}"]
    return []


if __name__ == "__main__":
    sys.exit(main())
