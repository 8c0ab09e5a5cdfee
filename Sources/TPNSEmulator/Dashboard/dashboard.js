"use strict";
// State: what the page shows, refreshed from /_emulator/ and kept live by the stream.
const state = { overview: null, registry: { clients: [], mappings: [], devices: [] },
  notifications: [], requests: [], selected: null, whitelist: null };
const $ = (id) => document.getElementById(id);

// An element with text (never HTML) and an optional class.
function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}
function row(cells) {
  const tr = document.createElement("tr");
  for (const c of cells) {
    const td = document.createElement("td");
    if (c instanceof Node) td.appendChild(c); else td.textContent = c === null || c === undefined ? "—" : String(c);
    tr.appendChild(td);
  }
  return tr;
}
function replaceRows(id, rows) { $(id).replaceChildren(...rows); }
const has = (value, filter) => !filter || String(value ?? "").toLowerCase().includes(filter.toLowerCase());
const time = (iso) => iso ? iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "") : "—";

// Tabs: buttons in a tablist; arrows move between them, Enter/Space/click selects.
const tabs = Array.from(document.querySelectorAll('[role="tab"]'));
function selectTab(tab) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute("aria-selected", on ? "true" : "false");
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
  tab.focus();
}
tabs.forEach((tab, i) => {
  tab.addEventListener("click", () => selectTab(tab));
  tab.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") selectTab(tabs[(i + 1) % tabs.length]);
    if (e.key === "ArrowLeft") selectTab(tabs[(i + tabs.length - 1) % tabs.length]);
  });
});

async function getJSON(path) {
  const response = await fetch(path, { cache: "no-store" });
  if (!response.ok) throw new Error(path + ": " + response.status);
  return response.json();
}

// Loads everything (on opening and on every reconnection).
async function loadAll() {
  await Promise.all([loadOverview(), loadRegistry(), loadNotifications(), loadRequests(), loadWhitelist()]);
}
async function loadWhitelist() { state.whitelist = await getJSON("/_emulator/whitelist"); renderWhitelist(); }
async function loadOverview() { state.overview = await getJSON("/_emulator/overview"); renderOverview(); }
async function loadRegistry() { state.registry = await getJSON("/_emulator/registry"); renderPhones(); renderDevices(); }
async function loadNotifications() {
  state.notifications = (await getJSON("/_emulator/notifications")).notifications;
  renderNotifications();
}
async function loadRequests() {
  const page = await getJSON("/_emulator/requests?limit=500");
  mergeRequests(page.requests);
}
// Requests by their sequence number, newest first: a page loaded while the
// stream delivers (on opening, on reconnecting) neither loses nor repeats
// one; the streamed copy wins.
function mergeRequests(incoming) {
  const bySeq = new Map();
  for (const r of incoming) bySeq.set(r.seq, r);
  for (const r of state.requests) bySeq.set(r.seq, r);
  state.requests = Array.from(bySeq.values()).sort((x, y) => y.seq - x.seq).slice(0, 500);
  scheduleRequests();
}
// One render of the monitor per 100 ms at most: a flood of requests must not
// rebuild 500 rows per event and freeze the page.
let requestsTimer = null;
function scheduleRequests() {
  if (requestsTimer) return;
  requestsTimer = setTimeout(() => { requestsTimer = null; renderRequests(); }, 100);
}

// Reloads coalesced: a burst of events costs one fetch of each kind.
const pending = new Set();
let timer = null;
function reload(kind) {
  pending.add(kind);
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    const kinds = Array.from(pending);
    pending.clear();
    for (const k of kinds) ({ overview: loadOverview, registry: loadRegistry,
      notifications: loadNotifications, requests: loadRequests, whitelist: loadWhitelist })[k]().catch(() => {});
  }, 100);
}

function ruleText(r) {
  const parts = ["#" + r.id + " " + (r.drop ? "drop" : r.status === null ? "as usual" : r.status)];
  parts.push(r.remaining === null ? "until disarmed" : "× " + r.remaining);
  if (r.cmd !== null) parts.push("cmd=" + r.cmd);
  if (r.probability !== null) parts.push("p " + r.probability + " (seed " + r.seed + ")");
  if (r.delay_ms) parts.push("after " + r.delay_ms + " ms");
  if (r.retry_after !== null) parts.push("Retry-After " + r.retry_after + " s");
  parts.push(r.hits + " hit" + (r.hits === 1 ? "" : "s"));
  return parts.join(", ");
}
function faultText(faults) {
  return faults.rules.length ? faults.rules.map(ruleText).join("; ") : "none";
}
function uptimeText(seconds) {
  const h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
  return (h ? h + " h " : "") + (h || m ? m + " min " : "") + s + " s";
}
let startedAt = null;
function renderOverview() {
  const o = state.overview;
  if (!o) return;
  $("o-status").textContent = o.status;
  $("o-status").className = o.status === "ok" ? "ok" : "bad";
  $("o-database").textContent = o.database === ":memory:" ? "memory" : "file " + o.database;
  for (const k of ["phones", "mappings", "devices", "notifications", "requests"]) $("o-" + k).textContent = o.counts[k];
  $("o-fault").textContent = faultText(o.fault);
  $("o-fault").className = o.fault.rules.length ? "warn" : "";
  startedAt = Date.now() - o.uptime_seconds * 1000;
  tick();
}
// Off: every UID activated (the default); on: only those listed.
function renderWhitelist() {
  const w = state.whitelist;
  if (!w) return;
  $("o-whitelist").textContent = w.enabled ? w.uids.length + " UID" + (w.uids.length === 1 ? "" : "s") + " activated" : "off";
  $("o-whitelist").className = w.enabled ? "warn" : "";
  $("whitelist-uids").textContent = w.enabled ? w.uids.join(", ") || "none" : "every UID (whitelist off)";
  // Off, activating one UID turns the whitelist on: every other UID stops being activated.
  $("whitelist-activate").textContent = w.enabled ? "Activate UID" : "Turn on with only this UID";
}
function tick() { if (startedAt !== null) $("o-uptime").textContent = uptimeText(Math.floor((Date.now() - startedAt) / 1000)); }
setInterval(tick, 1000);

// A token shown as its ends only, with a button that reveals it.
function maskedToken(token) {
  const span = el("span", null, "mono");
  if (!token) { span.textContent = "—"; return span; }
  const masked = token.length > 10 ? token.slice(0, 4) + "…" + token.slice(-4) : "…";
  const text = el("span", masked);
  const button = el("button", "reveal", "reveal");
  button.type = "button";
  button.setAttribute("aria-label", "reveal token");
  button.addEventListener("click", () => {
    const shown = button.textContent === "hide";
    text.textContent = shown ? masked : token;
    button.textContent = shown ? "reveal" : "hide";
    button.setAttribute("aria-label", shown ? "reveal token" : "hide token");
  });
  span.append(text, button);
  return span;
}
function renderPhones() {
  const filter = $("phones-filter").value.trim();
  const rows = [];
  for (const c of state.registry.clients) {
    const maps = state.registry.mappings.filter((m) => m.appid === c.appid && m.udid === c.udid);
    const fields = [c.os, c.appid, c.udid, c.token, c.lang, c.dev, c.registered_at, ...maps.map((m) => m.uid)];
    if (filter && !fields.some((f) => has(f, filter))) continue;
    const uids = el("div");
    for (const m of maps) {
      const settings = [m.interval === null ? null : "interval " + m.interval, m.format === null ? null : "format " + m.format]
        .filter((x) => x).join(", ");
      uids.appendChild(el("span", m.uid + (settings ? " (" + settings + ")" : ""), "uid"));
    }
    if (!maps.length) uids.textContent = "none";
    // An iOS phone's udid is its token: masked the same way.
    const udid = c.os === "ios" ? maskedToken(c.udid) : el("span", c.udid, "mono");
    rows.push(row([c.os, c.appid, udid, maskedToken(c.token), c.lang, c.dev, time(c.registered_at), uids]));
  }
  replaceRows("phones-rows", rows);
  $("phones-empty").hidden = state.registry.clients.length > 0;
}
function renderDevices() {
  replaceRows("devices-rows", state.registry.devices.map((d) =>
    row([el("span", d.uid, "mono"), d.announcements, time(d.first_seen), time(d.last_seen)])));
}
function renderNotifications() {
  const [udid, uid, type] = ["n-udid", "n-uid", "n-type"].map((id) => $(id).value.trim());
  const list = state.notifications.slice().sort((a, b) => b.id - a.id)
    .filter((n) => has(n.udid, udid) && has(n.uid, uid) && has(n.event_type, type));
  replaceRows("notifications-rows", list.map((n) =>
    row([time(n.created_at), el("span", n.uid, "mono"), n.event_type, n.msg, n.appid, el("span", n.udid, "mono"), n.os])));
}

// The UIDs a request names: its uid, or those in its base64 JSON map.
function decodedMap(r) {
  const map = r.params && r.params.map;
  if (!map) return null;
  try {
    const bytes = Uint8Array.from(atob(map.replace(/ /g, "+")), (ch) => ch.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) { return "(not valid base64 JSON: " + e.message + ")"; }
}
function requestUIDs(r) {
  const uids = [];
  if (r.params && r.params.uid) uids.push(r.params.uid);
  const map = decodedMap(r);
  if (Array.isArray(map)) for (const m of map) if (m && m.uid) uids.push(String(m.uid));
  return uids;
}
function renderRequests() {
  const [cmd, status, udid, uid] = ["r-cmd", "r-status", "r-udid", "r-uid"].map((id) => $(id).value.trim());
  const rows = [];
  for (const r of state.requests) {
    const p = r.params || {};
    if (!has(p.cmd, cmd) || !has(r.status, status) || !has(p.udid, udid)) continue;
    if (uid && !requestUIDs(r).some((u) => has(u, uid))) continue;
    const statusCell = el("span", r.status, r.status >= 400 ? "bad" : "ok");
    // A refusal's reason and what a canonical client would not have sent, apart.
    const tr = row([time(r.time), r.method, r.path || "", p.cmd, statusCell,
      r.duration_ms === undefined ? "—" : r.duration_ms + " ms", r.error || "",
      (r.warnings || []).join("; ")]);
    tr.tabIndex = 0;
    tr.setAttribute("aria-label", "request " + r.seq + ": " + (p.cmd || r.path || "") + " " + r.status + ", open details");
    tr.addEventListener("click", () => openRequest(r));
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); openRequest(r); } });
    rows.push(tr);
  }
  replaceRows("requests-rows", rows);
}
function openRequest(r) {
  const detail = $("request-detail");
  $("detail-title").textContent = "Request " + r.seq + " (" + (r.params && r.params.cmd || r.path || "unread") + ", " + r.status + ")";
  $("detail-params").textContent = JSON.stringify(r.params, null, 2);
  const map = decodedMap(r);
  $("detail-map").textContent = map === null ? "(no map)" : JSON.stringify(map, null, 2);
  $("detail-raw").textContent = r.raw ?? "—";
  detail.hidden = false;
  detail.focus();
}
$("detail-close").addEventListener("click", () => { $("request-detail").hidden = true; });
$("phones-filter").addEventListener("input", renderPhones);
for (const id of ["n-udid", "n-uid", "n-type"]) $(id).addEventListener("input", renderNotifications);
for (const id of ["r-cmd", "r-status", "r-udid", "r-uid"]) $(id).addEventListener("input", renderRequests);

// Actions: POSTs from this page carry its Origin, which the emulator accepts as its own.
async function act(description, path, init) {
  const result = $("action-result");
  try {
    const response = await fetch(path, init);
    const text = (await response.text()).trim();
    // The whole answer on one line (the JSON ones are pretty-printed), without
    // a status the body repeats.
    let shown = text.replace(/\s+/g, " ");
    if (shown.startsWith(response.status + " ")) shown = shown.slice(String(response.status).length + 1);
    result.textContent = description + ": " + response.status + " " + (shown.length > 300 ? shown.slice(0, 300) + "…" : shown);
    result.className = response.ok ? "ok" : "bad";
  } catch (e) {
    result.textContent = description + " failed: " + e.message;
    result.className = "bad";
  }
}
$("event-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  const body = new URLSearchParams({ cmd: "event", uid: form.get("uid"), event_type: form.get("event_type") || "0" });
  if (form.get("msg")) body.set("msg", form.get("msg"));
  act("event", "/tpns", { method: "POST", body });
});
$("fault-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  const query = new URLSearchParams();
  for (const name of ["status", "count", "cmd", "probability", "seed", "delay_ms", "retry_after"]) {
    if (form.get(name)) query.set(name, form.get(name));
  }
  if (form.get("drop")) { query.set("drop", "1"); query.delete("status"); query.delete("retry_after"); }
  act("rule", "/_emulator/faults?" + query, { method: "POST" });
});
// Adding is a PUT of the list shown with the new UID: the endpoint takes the whole text.
$("whitelist-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const uid = new FormData(e.target).get("uid").trim();
  const listed = state.whitelist && state.whitelist.enabled ? state.whitelist.uids : [];
  act("activate", "/_emulator/whitelist", { method: "PUT", headers: { "Content-Type": "text/plain" },
    body: listed.concat([uid]).join("\n") + "\n" });
});
$("whitelist-off").addEventListener("click", () => act("whitelist off", "/_emulator/whitelist", { method: "DELETE" }));
$("disarm").addEventListener("click", () => act("disarm", "/_emulator/faults", { method: "DELETE" }));
$("reset").addEventListener("click", () => act("reset", "/_emulator/reset", { method: "POST" }));
// Snapshots: the state downloaded as a file (the link), or loaded from one.
$("snapshot-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  await act("load snapshot", "/_emulator/snapshot", { method: "PUT", headers: { "Content-Type": "application/json" }, body: await file.text() });
  e.target.value = "";
});

// The live stream; EventSource reconnects by itself (the server sends retry: 1000).
function setConnection(text, cls) { const c = $("connection"); c.textContent = text; c.className = "status " + cls; }
function connect() {
  const source = new EventSource("/_emulator/stream");
  source.addEventListener("open", () => {
    setConnection("live", "live");
    // A new emulator numbers its requests from 1 again: what this stream
    // brings from now on is merged with the page loaded now.
    state.requests = [];
    loadAll().catch(() => {});
  });
  source.addEventListener("error", () => {
    setConnection("disconnected, reconnecting…", "down");
    // What the overview said is no longer known: health unknown, uptime stopped.
    startedAt = null;
    $("o-status").textContent = "unknown (disconnected)";
    $("o-status").className = "warn";
    // EventSource gives up for good on an answer that is not a stream (another
    // server on the port): start a new one.
    if (source.readyState === EventSource.CLOSED) {
      source.close();
      setTimeout(connect, 2000);
    }
  });
  source.addEventListener("request", (e) => {
    mergeRequests([JSON.parse(e.data)]);
    reload("overview");
  });
  source.addEventListener("registry", () => { reload("registry"); reload("overview"); });
  source.addEventListener("notification", () => { reload("notifications"); reload("registry"); reload("overview"); });
  source.addEventListener("fault", () => reload("overview"));
  source.addEventListener("whitelist", () => reload("whitelist"));
  source.addEventListener("snapshot", () => { for (const k of ["overview", "registry", "notifications", "whitelist"]) reload(k); });
  // Events were dropped (this page fell behind a flood): reload what they would have told.
  source.addEventListener("overflow", () => { loadAll().catch(() => {}); });
  source.addEventListener("reset", () => { state.requests = []; for (const k of ["overview", "registry", "notifications", "requests"]) reload(k); });
  // DELETE /_emulator/requests: the log only.
  source.addEventListener("requests_cleared", () => { state.requests = []; reload("requests"); reload("overview"); });
  // The emulator ended this stream (too many open): reconnecting would end another.
  source.addEventListener("closed", (e) => {
    source.close();
    let reason = "";
    try { reason = JSON.parse(e.data).reason || ""; } catch (_) {}
    setConnection("closed by the emulator (" + reason + "): reload the page to reconnect", "down");
  });
}
connect();
