# Part of stress section 7 (security), sourced by security.sh: the emulator's HTTP
# layer against abusive clients (Scripts/stress/http-abuse.py), each scenario on an
# emulator of its own, so that its memory and connections are its alone:
#   http-log-memory  the request log filled with twenty 1 MiB refused requests, then
#                    twenty clients ask for /_emulator/requests (ten for ?limit=1000)
#                    and never read: RSS grows by less than 30 MB (it held 454 MB, a
#                    44 MB answer copied per client).
#   http-slowloris   1,000 connections trickling header lines: a new client is answered
#                    within 3 s, and 12 s after they connected none is left open (each
#                    head is due within 10 s).
#   http-framing     two Content-Lengths, Content-Length with Transfer-Encoding, a coding
#                    other than chunked, `Transfer-Encoding : chunked` (a space before the
#                    colon) or a folded line beside Content-Length, each followed by a
#                    second request: one 400, the connection closed, no device announced.
#   http-streams     1,000 connections open /_emulator/stream and never read: health and
#                    a /tpns request are still answered within 2 s, and at most 16 of the
#                    streams (the most from one address) are left open.
# About 25 s. Uses lib.sh's pass/fail, $work, $tpns_server; changes none of the
# section's variables.

# Starts an emulator of this part's own; sets http_pid and http_port.
http_start() {
  local port_file=$work/http.port
  rm -f "$port_file"
  "$tpns_server" --port 0 --port-file "$port_file" --quiet >>"$work/http-emulator.log" 2>&1 &
  http_pid=$!
  emulator_pids+=("$http_pid")
  wait_for_file "$port_file" && http_port=$(cat "$port_file")
}

# Stops it (and forgets its pid, as stop_emulator does).
http_stop() {
  kill "$http_pid" 2>/dev/null && wait "$http_pid" 2>/dev/null
  local pid kept=()
  for pid in "${emulator_pids[@]}"; do
    [[ $pid == "$http_pid" ]] || kept+=("$pid")
  done
  emulator_pids=("${kept[@]}")
}

# A field of the JSON object in $http_figures: http_field 'expression on r'.
http_field() {
  python3 -c "import json, sys; r = json.loads(sys.argv[1]); print($1)" "$http_figures" 2>/dev/null
}

http_abuse=$stress_dir/http-abuse.py

if ! http_start; then
  fail http-log-memory "tpns-server did not start: $(tail -c 300 "$work/http-emulator.log")"
else
  http_figures=$(python3 "$http_abuse" memory "$http_port" "$http_pid" 2>"$work/http-memory.err")
  http_before=$(http_field 'r["rss_before_kb"]')
  http_waiting=$(http_field 'r["rss_waiting_kb"]')
  if [[ -z $http_before || -z $http_waiting ]]; then
    fail http-log-memory "no figures: $(tail -c 300 "$work/http-memory.err")"
  else
    http_figure="RSS $((http_before / 1024)) MB → $((http_waiting / 1024)) MB with $(http_field 'r["clients"]') clients not reading (one answer: $(http_field 'r["answer_bytes"]') bytes; the 1 MiB requests: $(http_field '", ".join(r["statuses"])'))"
    if ((http_waiting - http_before < 30 * 1024)); then
      pass http-log-memory "$http_figure"
    else
      fail http-log-memory "$http_figure"
    fi
  fi
  http_stop
fi

if ! http_start; then
  fail http-slowloris "tpns-server did not start: $(tail -c 300 "$work/http-emulator.log")"
else
  http_figures=$(python3 "$http_abuse" slowloris "$http_port" 2>"$work/http-slowloris.err")
  http_status=$(http_field 'r["status"] or ""')
  http_waited=$(http_field 'r["waited_s"]')
  http_still_open=$(http_field 'r["still_open"]')
  http_figure="1000 trickling connections: a new client got '${http_status:-no answer}' after ${http_waited:-?} s; $http_still_open of them still open $(http_field 'r["open_after_s"]') s after connecting"
  if [[ -z $http_still_open ]]; then
    fail http-slowloris "no figures: $(tail -c 300 "$work/http-slowloris.err")"
  elif [[ $http_status == "HTTP/1.1 200 OK" ]] && awk -v s="$http_waited" 'BEGIN { exit !(s < 3) }' &&
    ((http_still_open == 0)); then
    pass http-slowloris "$http_figure"
  else
    fail http-slowloris "$http_figure"
  fi
  http_stop
fi

if ! http_start; then
  fail http-framing "tpns-server did not start: $(tail -c 300 "$work/http-emulator.log")"
else
  http_figures=$(python3 "$http_abuse" framing "$http_port" 2>"$work/http-framing.err")
  http_wrong=$(http_field '"; ".join("%s: %s, %s" % (name, case["statuses"], "closed" if case["closed_s"] is not None else "left open") for name, case in r["cases"].items() if case["statuses"] != ["400"] or case["closed_s"] is None)')
  http_devices=$(http_field 'r["devices"]')
  if [[ -z $http_devices ]]; then
    fail http-framing "no figures: $(tail -c 300 "$work/http-framing.err")"
  elif [[ -n $http_wrong || $http_devices != 0 ]]; then
    fail http-framing "${http_wrong:-every case 400 and closed}; $http_devices devices announced"
  else
    pass http-framing "$(http_field 'len(r["cases"])') ambiguous framings or hidden headers: each one 400, the connection closed (within $(http_field 'max(c["closed_s"] for c in r["cases"].values())') s), the request after it not answered, 0 devices announced"
  fi
  http_stop
fi

if ! http_start; then
  fail http-streams "tpns-server did not start: $(tail -c 300 "$work/http-emulator.log")"
else
  http_figures=$(python3 "$http_abuse" streams "$http_port" 2>"$work/http-streams.err")
  http_still_open=$(http_field 'r["still_open"]')
  http_figure="$(http_field 'r["streams"]') idle streams: health '$(http_field 'r["statuses"]["health"]')' in $(http_field 'r["seconds"]["health"]') s, /tpns '$(http_field 'r["statuses"]["tpns"]')' in $(http_field 'r["seconds"]["tpns"]') s; $http_still_open streams left open"
  if [[ -z $http_still_open ]]; then
    fail http-streams "no figures: $(tail -c 300 "$work/http-streams.err")"
  elif [[ $(http_field 'r["statuses"]["health"]') == "HTTP/1.1 200 OK" &&
    $(http_field 'r["statuses"]["tpns"]') == "HTTP/1.1 200 OK" ]] &&
    awk -v a="$(http_field 'r["seconds"]["health"]')" -v b="$(http_field 'r["seconds"]["tpns"]')" \
      'BEGIN { exit !(a < 2 && b < 2) }' && ((http_still_open <= 16)); then
    pass http-streams "$http_figure"
  else
    fail http-streams "$http_figure"
  fi
  http_stop
fi
