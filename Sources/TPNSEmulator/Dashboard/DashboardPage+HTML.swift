extension DashboardPage {
  /// The page: a header with the connection status, the actions, and four tabs.
  static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>tpns-server dashboard</title>
    <link rel="stylesheet" href="/dashboard.css">
    <script src="/dashboard.js" defer></script>
    </head>
    <body>
    <header>
      <h1>tpns-server</h1>
      <p id="connection" class="status" role="status" aria-live="polite">connecting…</p>
    </header>
    <main>
    <nav role="tablist" aria-label="Sections">
      <button role="tab" id="tab-overview" aria-controls="overview" aria-selected="true">Overview</button>
      <button role="tab" id="tab-phones" aria-controls="phones" aria-selected="false" tabindex="-1">Phones</button>
      <button role="tab" id="tab-devices" aria-controls="devices" aria-selected="false" tabindex="-1">Devices and notifications</button>
      <button role="tab" id="tab-requests" aria-controls="requests" aria-selected="false" tabindex="-1">Request monitor</button>
    </nav>

    <section id="overview" role="tabpanel" aria-labelledby="tab-overview">
      <h2>Overview</h2>
      <dl class="cards">
        <div><dt>Health</dt><dd id="o-status">…</dd></div>
        <div><dt>Uptime</dt><dd id="o-uptime">…</dd></div>
        <div><dt>Database</dt><dd id="o-database">…</dd></div>
        <div><dt>Phones</dt><dd id="o-phones">…</dd></div>
        <div><dt>Mappings</dt><dd id="o-mappings">…</dd></div>
        <div><dt>Devices</dt><dd id="o-devices">…</dd></div>
        <div><dt>Notifications</dt><dd id="o-notifications">…</dd></div>
        <div><dt>Requests</dt><dd id="o-requests">…</dd></div>
        <div><dt>Armed fault</dt><dd id="o-fault">…</dd></div>
      </dl>
      <h2>Actions</h2>
      <div class="actions">
        <form id="event-form" aria-labelledby="event-title">
          <h3 id="event-title">Act as a device: send an event</h3>
          <label>UID <input name="uid" required autocomplete="off"></label>
          <label>Type <input name="event_type" type="number" min="0" value="0"></label>
          <label>Message <input name="msg" autocomplete="off"></label>
          <button type="submit">Send event</button>
        </form>
        <form id="fault-form" aria-labelledby="fault-title">
          <h3 id="fault-title">Arm a fault</h3>
          <label>Status <input name="status" type="number" min="400" max="599" value="503" required></label>
          <label>Count <input name="count" type="number" min="1" value="2" required></label>
          <label>Retry-After (s) <input name="retry_after" type="number" min="0" placeholder="none"></label>
          <button type="submit">Arm fault</button>
          <button type="button" id="disarm">Disarm</button>
        </form>
        <div class="form">
          <h3>Reset</h3>
          <p>Empties the registry, the notifications, the request log and the fault.</p>
          <button type="button" id="reset" class="danger">Reset emulator</button>
        </div>
      </div>
      <p id="action-result" role="status" aria-live="polite"></p>
    </section>

    <section id="phones" role="tabpanel" aria-labelledby="tab-phones" hidden>
      <h2>Phones</h2>
      <label class="filter">Filter <input id="phones-filter" type="search" placeholder="any field: os, appid, udid, uid…"></label>
      <table>
        <thead><tr><th scope="col">os</th><th scope="col">appid</th><th scope="col">udid</th><th scope="col">token</th><th scope="col">lang</th><th scope="col">dev</th><th scope="col">registered at</th><th scope="col">mapped UIDs (interval, format)</th></tr></thead>
        <tbody id="phones-rows"></tbody>
      </table>
      <p class="empty" id="phones-empty">No phone registered yet: run <code>tpns register</code>.</p>
    </section>

    <section id="devices" role="tabpanel" aria-labelledby="tab-devices" hidden>
      <h2>Announced devices</h2>
      <table>
        <thead><tr><th scope="col">uid</th><th scope="col">announcements</th><th scope="col">first seen</th><th scope="col">last seen</th></tr></thead>
        <tbody id="devices-rows"></tbody>
      </table>
      <h2>Notifications</h2>
      <div class="filters">
        <label>udid <input id="n-udid" type="search"></label>
        <label>uid <input id="n-uid" type="search"></label>
        <label>type <input id="n-type" type="search"></label>
      </div>
      <table>
        <thead><tr><th scope="col">created</th><th scope="col">uid</th><th scope="col">type</th><th scope="col">message</th><th scope="col">appid</th><th scope="col">udid</th><th scope="col">os</th></tr></thead>
        <tbody id="notifications-rows"></tbody>
      </table>
    </section>

    <section id="requests" role="tabpanel" aria-labelledby="tab-requests" hidden>
      <h2>Request monitor</h2>
      <div class="filters">
        <label>cmd <input id="r-cmd" type="search"></label>
        <label>status <input id="r-status" type="search"></label>
        <label>udid <input id="r-udid" type="search"></label>
        <label>uid <input id="r-uid" type="search"></label>
      </div>
      <table>
        <thead><tr><th scope="col">time</th><th scope="col">method</th><th scope="col">cmd</th><th scope="col">status</th><th scope="col">duration</th><th scope="col">error</th><th scope="col">warnings</th></tr></thead>
        <tbody id="requests-rows"></tbody>
      </table>
      <div id="request-detail" hidden tabindex="-1" aria-label="Request detail">
        <h3 id="detail-title">Request</h3>
        <h4>Parameters</h4><pre id="detail-params"></pre>
        <h4>Decoded map</h4><pre id="detail-map"></pre>
        <h4>Raw bytes</h4><pre id="detail-raw"></pre>
        <button type="button" id="detail-close">Close</button>
      </div>
    </section>
    </main>
    </body>
    </html>

    """#
}
