"""End-to-end test of tpns-server's dashboard in a real browser.

Playwright for Python drives Debian's Chromium (nothing is downloaded at run time):
it opens the dashboard, runs `tpns` from the shell, and checks that the page follows
live. Each step saves a screenshot under .build/dashboard-screenshots/.

Usage: test_dashboard.py BIN_DIR [CHROMIUM]   (run by Scripts/browser-test.sh)
The last line printed is `N passed, N failed`.
"""

import json
import shutil
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.request
from http.server import HTTPServer, SimpleHTTPRequestHandler
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build/debug"
CHROMIUM = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/chromium"
SHOTS = ROOT / ".build/dashboard-screenshots"
SCRATCH = Path(tempfile.mkdtemp(prefix="tpns-browser-"))
UIDS = ["ABCDEFGHJK1234567890", "ZYXWVUTSRQ0987654321"]
HOSTILE = '<img src=x onerror="window.__xss=1">&amp;"\'</td>'


class Emulator:
    """tpns-server on a port of its own choosing, restartable on the same port."""

    def __init__(self):
        self.port = 0
        self.process = None

    def start(self):
        port_file = SCRATCH / "port"
        port_file.unlink(missing_ok=True)
        self.process = subprocess.Popen(
            [str(BIN / "tpns-server"), "--port", str(self.port), "--port-file", str(port_file), "--quiet"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if port_file.exists() and port_file.read_text().strip():
                self.port = int(port_file.read_text().strip())
                return
            time.sleep(0.05)
        raise RuntimeError("tpns-server did not start")

    def stop(self):
        if self.process:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=5) as response:
            return json.load(response)


emulator = Emulator()


def tpns(*arguments):
    environment = dict(os.environ, TPNS_SERVER=emulator.url + "/tpns",
                       TPNS_STORE=str(SCRATCH / "store.plist"), TPNS_TOKEN="a1b2c3d4e5f60718293a4b5c6d7e8f90")
    result = subprocess.run([str(BIN / "tpns"), *arguments], env=environment, capture_output=True, text=True,
                            timeout=60)
    return result


def shot(page, name):
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def tab(page, name):
    page.get_by_role("tab", name=name).click()


# The steps, in order; each one builds on the previous.

def test_opens_live(page):
    page.goto(emulator.url + "/")
    expect(page.locator("#connection")).to_have_text("live", timeout=5000)
    expect(page.locator("#o-status")).to_have_text("ok")
    expect(page.locator("#o-database")).to_have_text("memory")
    shot(page, "01-overview")


def test_register_and_add_appear_without_reload(page):
    tab(page, "Phones")
    result = tpns("register", "--os", "android", "--udid", "phone-1", "--appid", "com.example.app")
    assert result.returncode == 0, result.stderr
    result = tpns("add", *UIDS)
    assert result.returncode == 0, result.stderr
    rows = page.locator("#phones-rows tr")
    expect(rows).to_have_count(1, timeout=2000)
    expect(rows.first).to_contain_text("phone-1", timeout=2000)
    for uid in UIDS:
        expect(rows.first).to_contain_text(uid, timeout=2000)
    # The token is masked until revealed.
    expect(rows.first).not_to_contain_text("a1b2c3d4e5f60718293a4b5c6d7e8f90")
    rows.first.get_by_role("button", name="reveal token").click()
    expect(rows.first).to_contain_text("a1b2c3d4e5f60718293a4b5c6d7e8f90")
    page.fill("#phones-filter", "no-such-phone")
    expect(rows).to_have_count(0)
    page.fill("#phones-filter", UIDS[1][:8])
    expect(rows).to_have_count(1)
    page.fill("#phones-filter", "")
    shot(page, "02-phones")


def test_event_from_the_page_matches_notifications(page):
    tab(page, "Overview")
    page.locator("#event-form [name=uid]").fill(UIDS[0])
    page.locator("#event-form [name=event_type]").fill("2")
    page.locator("#event-form [name=msg]").fill(HOSTILE)
    page.get_by_role("button", name="Send event").click()
    expect(page.locator("#action-result")).to_contain_text("200", timeout=2000)
    tab(page, "Devices and notifications")
    rows = page.locator("#notifications-rows tr")
    expect(rows).to_have_count(1, timeout=2000)
    expect(rows.first).to_contain_text(HOSTILE)  # shown as text, not run as HTML
    recorded = emulator.get("/_emulator/notifications")["notifications"]
    assert len(recorded) == 1 and recorded[0]["msg"] == HOSTILE and recorded[0]["uid"] == UIDS[0], recorded
    assert recorded[0]["udid"] == "phone-1"
    expect(rows.first).to_contain_text(recorded[0]["udid"])
    assert page.evaluate("window.__xss") is None, "a message ran as HTML"
    assert page.locator("#notifications-rows img").count() == 0
    shot(page, "03-notification")


def test_fault_from_the_page_shows_retries(page):
    tab(page, "Overview")
    page.get_by_label("Status", exact=True).fill("503")
    page.get_by_label("Count", exact=True).fill("2")
    page.get_by_label("Retry-After (s)").fill("0")
    page.get_by_role("button", name="Arm rule").click()
    expect(page.locator("#o-fault")).to_contain_text("#1 503, × 2", timeout=2000)
    assert emulator.get("/_emulator/faults")["fault"]["remaining"] == 2
    result = tpns("sync")
    assert result.returncode == 0, result.stderr
    tab(page, "Request monitor")
    page.fill("#r-cmd", "mapsync")
    rows = page.locator("#requests-rows tr")
    # tpns add's mapsync, then sync's: two 503s and the retry that passed (newest first).
    expect(rows).to_have_count(4, timeout=2000)
    expect(rows.nth(0)).to_contain_text("200")
    expect(rows.nth(1)).to_contain_text("503")
    expect(rows.nth(2)).to_contain_text("503")
    # A row opens from the keyboard: its parameters and decoded map.
    rows.nth(0).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#detail-map")).to_contain_text(UIDS[0])
    expect(page.locator("#detail-raw")).to_contain_text("cmd=mapsync")
    shot(page, "04-requests")
    page.fill("#r-cmd", "")


def test_reset(page):
    tab(page, "Overview")
    page.get_by_role("button", name="Reset emulator").click()
    expect(page.locator("#o-phones")).to_have_text("0", timeout=2000)
    expect(page.locator("#o-notifications")).to_have_text("0")
    tab(page, "Phones")
    expect(page.locator("#phones-rows tr")).to_have_count(0)
    expect(page.locator("#phones-empty")).to_be_visible()
    assert emulator.get("/_emulator/registry")["clients"] == []
    shot(page, "05-reset")


def test_reconnects_after_restart(page):
    emulator.stop()
    expect(page.locator("#connection")).to_contain_text("reconnecting", timeout=5000)
    shot(page, "06-disconnected")
    emulator.start()  # same port
    expect(page.locator("#connection")).to_have_text("live", timeout=10000)
    result = tpns("register", "--os", "android", "--udid", "phone-2", "--appid", "com.example.app")
    assert result.returncode == 0, result.stderr
    expect(page.locator("#phones-rows tr")).to_have_count(1, timeout=2000)
    expect(page.locator("#phones-rows")).to_contain_text("phone-2")
    shot(page, "07-reconnected")


def test_keyboard_tabs(page):
    page.get_by_role("tab", name="Phones").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Devices and notifications")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#devices")).to_be_visible()
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_role("tab", name="Phones")).to_be_focused()


EVIL = """<!doctype html><title>another site</title>
<form id="f" method="POST" action="EMU/_emulator/faults?status=500&count=9"></form>
<script>
window.results = {};
fetch("EMU/_emulator/registry").then(r => r.text()).then(t => results.read = t, e => results.read = "refused: " + e);
fetch("EMU/_emulator/reset", {method: "POST", mode: "no-cors"}).then(() => results.reset = "sent", e => results.reset = "refused");
fetch("EMU/tpns", {method: "POST", mode: "no-cors", body: new URLSearchParams({cmd: "client", os: "android",
  appid: "com.example.app", udid: "phone-2", token: "evil"})}).then(() => results.client = "sent", () => results.client = "refused");
setTimeout(() => { results.done = true; }, 500);
</script>"""


def test_monitor_shows_a_legacy_request_with_its_path(page):
    # As firmware sends it: the legacy path, the older name, a GET.
    query = f"/apns/apns.php?cmd=raise_event&uid={UIDS[1]}&event_type=2&event_time=1700000000"
    with urllib.request.urlopen(emulator.url + query, timeout=5) as response:
        assert response.status == 200
        assert response.read().decode().startswith("200 ok: ")
    tab(page, "Request monitor")
    page.fill("#r-cmd", "raise_event")
    rows = page.locator("#requests-rows tr")
    expect(rows).to_have_count(1, timeout=2000)
    expect(rows.nth(0)).to_contain_text("/apns/apns.php")
    expect(rows.nth(0)).to_contain_text("legacy path")
    page.fill("#r-cmd", "")


def test_another_origin_can_neither_read_nor_act(browser):
    directory = SCRATCH / "evil"
    directory.mkdir(exist_ok=True)
    (directory / "index.html").write_text(EVIL.replace("EMU", emulator.url))
    handler = lambda *a, **k: SimpleHTTPRequestHandler(*a, directory=str(directory), **k)
    SimpleHTTPRequestHandler.log_message = lambda *a: None
    server = HTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    before = emulator.get("/_emulator/registry")
    page = browser.new_page()
    try:
        page.goto(f"http://127.0.0.1:{server.server_port}/index.html")
        page.wait_for_function("window.results && window.results.done", timeout=5000)
        results = page.evaluate("window.results")
        assert "phone-2" not in str(results.get("read")), results  # could not read the registry
        with page.expect_navigation():
            page.evaluate("document.getElementById('f').submit()")  # a form POST to the emulator
        shot(page, "08-foreign-origin")
        # Nothing changed: the phone, its token, no fault.
        after = emulator.get("/_emulator/registry")
        assert after == before, (before, after)
        assert emulator.get("/_emulator/faults")["fault"] is None
        # The form POST was answered 403.
        assert "requests from web pages are refused" in page.content(), page.content()[:300]
    finally:
        page.close()
        server.shutdown()


# What the page's own files did wrong while the steps ran: an uncaught exception or
# syntax error in dashboard.js, or anything the Content-Security-Policy refused.
script_errors = []


def watch_for_script_errors(page):
    page.on("pageerror", lambda error: script_errors.append(f"pageerror: {error}"))
    page.on("console", lambda message: script_errors.append(f"console: {message.text}")
            if message.type == "error" and "Content Security Policy" in message.text else None)


def test_no_script_errors(page):
    assert script_errors == [], script_errors


def test_dark(page):
    page.emulate_media(color_scheme="dark")
    tab(page, "Phones")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background != "rgb(246, 247, 249)", background
    shot(page, "09-dark")
    page.emulate_media(color_scheme="light")


def test_whitelist_from_the_page(page):
    tab(page, "Overview")
    expect(page.locator("#o-whitelist")).to_have_text("off", timeout=2000)
    page.get_by_label("UID to activate").fill(UIDS[0])
    # Off, activating one UID turns the whitelist on: the button says so.
    page.get_by_role("button", name="Turn on with only this UID").click()
    expect(page.locator("#o-whitelist")).to_have_text("1 UID activated", timeout=2000)
    expect(page.locator("#whitelist-activate")).to_have_text("Activate UID")
    expect(page.locator("#whitelist-uids")).to_have_text(UIDS[0])
    assert emulator.get("/_emulator/whitelist") == {"enabled": True, "uids": [UIDS[0]]}
    # The UID left out is refused: tpns names it, with the fix, and exits 76.
    result = tpns("sync")
    assert result.returncode == 76, result.stderr
    assert f"Activate UID {UIDS[1]} in your TPNS console" in result.stderr, result.stderr
    shot(page, "04b-whitelist")
    page.get_by_role("button", name="Activate every UID").click()
    expect(page.locator("#o-whitelist")).to_have_text("off", timeout=2000)
    result = tpns("sync")
    assert result.returncode == 0, result.stderr


def test_chaos_rule_from_the_page(page):
    tab(page, "Overview")
    page.get_by_label("Status", exact=True).fill("")
    page.get_by_label("Count", exact=True).fill("")
    page.get_by_label("Only cmd").fill("mapsync")
    page.get_by_label("Probability").fill("0.5")
    page.get_by_label("Seed").fill("7")
    page.get_by_label("Delay (ms)").fill("50")
    page.get_by_label("Retry-After (s)").fill("")
    page.get_by_role("button", name="Arm rule").click()
    expect(page.locator("#o-fault")).to_contain_text(
        "as usual, until disarmed, cmd=mapsync, p 0.5 (seed 7), after 50 ms, 0 hits", timeout=2000)
    rule = emulator.get("/_emulator/faults")["rules"][0]
    assert (rule["cmd"], rule["probability"], rule["seed"], rule["delay_ms"]) == ("mapsync", 0.5, 7, 50), rule
    shot(page, "04a-chaos-rule")
    page.get_by_role("button", name="Disarm all").click()
    expect(page.locator("#o-fault")).to_have_text("none", timeout=2000)


def test_snapshot_from_the_page(page):
    tab(page, "Overview")
    before = emulator.get("/_emulator/snapshot")
    assert before["clients"], before
    with page.expect_download() as download:
        page.get_by_role("link", name="Download snapshot").click()
    path = download.value.path()
    saved = json.loads(Path(path).read_text())
    assert saved == before, saved
    request = urllib.request.Request(emulator.url + "/_emulator/reset", method="POST")
    urllib.request.urlopen(request, timeout=5).read()
    assert emulator.get("/_emulator/registry")["clients"] == []
    page.get_by_label("Load snapshot").set_input_files(path)
    expect(page.locator("#action-result")).to_contain_text("load snapshot: 200", timeout=2000)
    assert emulator.get("/_emulator/snapshot") == before
    shot(page, "04c-snapshot")


def main():
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    passed = failed = 0
    started = time.monotonic()
    emulator.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1100, "height": 720}, color_scheme="light")
            watch_for_script_errors(page)
            steps = [test_opens_live, test_register_and_add_appear_without_reload,
                     test_event_from_the_page_matches_notifications, test_fault_from_the_page_shows_retries,
                     test_chaos_rule_from_the_page, test_whitelist_from_the_page,
                     test_snapshot_from_the_page,
                     test_reset, test_reconnects_after_restart, test_keyboard_tabs,
                     test_monitor_shows_a_legacy_request_with_its_path,
                     test_another_origin_can_neither_read_nor_act, test_dark, test_no_script_errors]
            for step in steps:
                step_started = time.monotonic()
                try:
                    step(browser if step is test_another_origin_can_neither_read_nor_act else page)
                    passed += 1
                    print(f"ok   {step.__name__} ({time.monotonic() - step_started:.1f} s)", flush=True)
                except Exception:
                    failed += 1
                    print(f"FAIL {step.__name__}", flush=True)
                    traceback.print_exc()
                    try:
                        shot(page, f"failed-{step.__name__}")
                    except Exception:
                        pass
            browser.close()
    finally:
        emulator.stop()
    print(f"browser suite: {time.monotonic() - started:.1f} s, screenshots in {SHOTS}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
