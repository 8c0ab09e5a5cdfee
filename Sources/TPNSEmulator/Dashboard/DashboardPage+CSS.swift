extension DashboardPage {
  /// The style sheet: system fonts, light and dark from `prefers-color-scheme`.
  static let css = #"""
    :root { --bg: #f6f7f9; --panel: #fff; --text: #1d2330; --muted: #5b6475; --line: #d9dde5;
      --accent: #1f5fbf; --accent-text: #fff; --ok: #1a7f37; --bad: #b42318; --warn: #9a6700;
      --row: #f0f4fb; font-family: system-ui, sans-serif; color-scheme: light dark; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #14171c; --panel: #1d2128; --text: #e6e9ef; --muted: #9aa3b2; --line: #323843;
        --accent: #6ea8ff; --accent-text: #0b1220; --ok: #4ac26b; --bad: #ff7b72; --warn: #d29922;
        --row: #252b35; } }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--text); font-size: 14px; }
    header { display: flex; align-items: center; gap: 1rem; padding: .6rem 1.2rem;
      background: var(--panel); border-bottom: 1px solid var(--line); }
    h1 { font-size: 1.15rem; margin: 0; }
    h2 { font-size: 1rem; margin: 1.2rem 0 .5rem; }
    h3 { font-size: .95rem; margin: 0 0 .5rem; }
    h4 { font-size: .85rem; margin: .6rem 0 .2rem; color: var(--muted); }
    main { padding: 0 1.2rem 2rem; }
    .status { margin: 0 0 0 auto; padding: .2rem .7rem; border-radius: 1rem; font-weight: 600;
      border: 1px solid var(--line); }
    .status.live { color: var(--ok); } .status.down { color: var(--bad); }
    nav { display: flex; gap: .3rem; margin-top: .8rem; border-bottom: 1px solid var(--line); }
    nav button { background: none; color: var(--muted); border: 0; border-bottom: 3px solid transparent;
      padding: .5rem .8rem; font: inherit; cursor: pointer; }
    nav button[aria-selected="true"] { color: var(--text); border-bottom-color: var(--accent); font-weight: 600; }
    button { font: inherit; cursor: pointer; }
    :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
    .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: .6rem; margin: 0; }
    .cards div { background: var(--panel); border: 1px solid var(--line); border-radius: .5rem; padding: .6rem .8rem; }
    dt { color: var(--muted); font-size: .8rem; } dd { margin: .2rem 0 0; font-size: 1.15rem; font-weight: 600;
      overflow-wrap: anywhere; }
    .actions { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .8rem; }
    form, .form { background: var(--panel); border: 1px solid var(--line); border-radius: .5rem; padding: .8rem; }
    form label { display: block; margin-bottom: .45rem; color: var(--muted); }
    input { display: block; width: 100%; margin-top: .15rem; padding: .35rem .5rem; font: inherit;
      color: var(--text); background: var(--bg); border: 1px solid var(--line); border-radius: .3rem; }
    form button, .form button, #detail-close { padding: .4rem .9rem; border-radius: .3rem; border: 1px solid var(--accent);
      background: var(--accent); color: var(--accent-text); }
    #disarm { background: none; color: var(--accent); }
    .danger { background: var(--bad) !important; border-color: var(--bad) !important; }
    .filter, .filters label { display: inline-block; margin: 0 .6rem .6rem 0; color: var(--muted); }
    .filter input { width: 22rem; max-width: 100%; }
    table { width: 100%; border-collapse: collapse; background: var(--panel); border: 1px solid var(--line); }
    th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top;
      overflow-wrap: break-word; }
    th { color: var(--muted); font-weight: 600; font-size: .8rem; }
    tbody tr:hover, tbody tr:focus { background: var(--row); }
    #requests-rows tr { cursor: pointer; }
    code, pre, .mono { font-family: ui-monospace, monospace; font-size: .85em; }
    pre { background: var(--panel); border: 1px solid var(--line); padding: .5rem; white-space: pre-wrap;
      overflow-wrap: anywhere; margin: 0; }
    .ok { color: var(--ok); } .bad { color: var(--bad); } .warn { color: var(--warn); }
    .uid { display: inline-block; margin: 0 .3rem .2rem 0; padding: .05rem .4rem; border-radius: .3rem;
      background: var(--row); border: 1px solid var(--line); }
    .reveal { margin-left: .3rem; padding: 0 .4rem; background: none; color: var(--accent);
      border: 1px solid var(--line); border-radius: .3rem; }
    #request-detail { margin-top: .8rem; background: var(--panel); border: 1px solid var(--line);
      border-radius: .5rem; padding: .8rem; }
    .empty { color: var(--muted); }
    #action-result { color: var(--muted); min-height: 1.2em; }
    """#
}
