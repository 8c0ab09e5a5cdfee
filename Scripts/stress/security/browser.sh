# Part of stress section 7 (security), sourced by security.sh: a web page in a real
# browser (Debian's Chromium, driven by Playwright for Python as Scripts/browser-test.sh
# installs them; no browser is downloaded) against the emulator through
# http://0.0.0.0:PORT, which Linux delivers on loopback and which the browser treats
# as another machine (no Sec-Fetch-Site):
#   browser-unspecified-host  a page from another origin, and a file:// page, try to
#                             register a phone at http://0.0.0.0:PORT/tpns (an <img>, a
#                             no-cors GET and POST, a form POST, a navigation): the
#                             registry's clients are unchanged.
# Skipped when Chromium or Playwright is not installed. Starts an emulator of its own
# (not --strict, so that nothing but the guard could refuse the pages' requests); uses
# lib.sh's pass/fail and $work; changes none of the section's variables.

browser_python=$stress_dir/../../.build/browser-venv/bin/python
if [[ ! -x /usr/bin/chromium ]] || ! "$browser_python" -c "import playwright" 2>/dev/null; then
  echo "SKIP browser-unspecified-host: needs Chromium and Playwright (Scripts/browser-test.sh installs them)"
else
  rm -f "$work/browser.port"
  "$tpns_server" --port 0 --port-file "$work/browser.port" --quiet >"$work/browser-emulator.log" 2>&1 &
  browser_pid=$!
  emulator_pids+=("$browser_pid")
  wait_for_file "$work/browser.port"
  browser_port=$(cat "$work/browser.port")
  browser_figures=$("$browser_python" "$stress_dir/browser-attack.py" /usr/bin/chromium \
    "$browser_port" 2>"$work/browser.err")
  browser_field() {
    python3 -c "import json, sys; r = json.loads(sys.argv[1]); print($1)" "$browser_figures" 2>/dev/null
  }
  browser_before=$(browser_field 'r["before"]')
  browser_after=$(browser_field 'r["after"]')
  browser_attempts="$(browser_field 'r["other_origin_attempts"]') attempts from http://127.0.0.1:OTHER, $(browser_field 'r["file_attempts"]') from a file:// page"
  if [[ -z $browser_after ]]; then
    fail browser-unspecified-host "no figures: $(tail -c 300 "$work/browser.err")"
  elif [[ $browser_before == "$browser_after" ]]; then
    pass browser-unspecified-host "Chromium, $browser_attempts at http://0.0.0.0:$browser_port/tpns: registry clients $browser_before before, $browser_after after"
  else
    fail browser-unspecified-host "Chromium, $browser_attempts: registry clients $browser_before before, $browser_after after ($(browser_field '", ".join(r["udids"])'))"
  fi
  kill "$browser_pid" 2>/dev/null && wait "$browser_pid" 2>/dev/null
  browser_kept=()
  for browser_other in "${emulator_pids[@]}"; do
    [[ $browser_other == "$browser_pid" ]] || browser_kept+=("$browser_other")
  done
  emulator_pids=("${browser_kept[@]}")
fi
