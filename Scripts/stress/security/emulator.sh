# Stress security, the emulator's part (sourced by security.sh; see docs/SECURITY.md and docs/EMULATOR.md):
#   emulator-udid-masked      an error naming an unregistered udid shows only its
#                             last 6 characters, in the answer and in the log.
#   emulator-log-escapes      a request whose method carries ESC ]0; (retitle), ESC [2J
#                             (clear) and a bare CR (a forged line) leaves no control
#                             character in the log.
#   emulator-foreign-site     a foreign Host (DNS rebinding) is 421 and reads nothing; a
#                             foreign Origin or Sec-Fetch-Site: cross-site is 403 and
#                             changes nothing.
#   emulator-db-modes         under umask 000, --db, its -wal and -shm are 0600.
#   emulator-port-file-link   a link planted at the port file's temporary name
#                             (<file>.<pid>.tmp) is not followed.
#   emulator-exposed-host     --host 0.0.0.0 warns on stderr that the tokens are open.
# Uses the section's emulator ($emulator_base, logging to $work/emulator.log) and starts
# its own servers for the last three, leaving $emulator_* as they were.

part_token=5ec7e7000000000000000000000000000000000000000000000000000000abcdef
part_port=${emulator_base##*:}

# Starts tpns-server with "$@" under `bash -c "$part_prefix; exec ..."` (umask, planted
# links: $$ is the server's pid), stdout and stderr to $work/part.out and .err, and
# waits for its port file $part_port_file. Sets part_pid.
part_prefix=:
part_start() {
  rm -f "$part_port_file"
  bash -c "$part_prefix"'; exec "$0" --port 0 --quiet --port-file "$1" "${@:2}"' \
    "$tpns_server" "$part_port_file" "$@" >"$work/part.out" 2>"$work/part.err" &
  part_pid=$!
  emulator_pids+=("$part_pid")
  wait_for_file "$part_port_file"
}
# Stops the server part_start started, and forgets its pid.
part_stop() {
  kill "$part_pid" 2>/dev/null && wait "$part_pid" 2>/dev/null
  local pid kept=()
  for pid in "${emulator_pids[@]}"; do
    [[ $pid == "$part_pid" ]] || kept+=("$pid")
  done
  emulator_pids=("${kept[@]}")
}

# 1. The udid (the iOS token) is masked in errors and log lines.
answer=$(curl -s "$emulator_url" -d cmd=unreg_mapping -d os=ios \
  -d appid=com.tutk.cc.samples.tpns.ios -d udid=$part_token)
leaks=$(cat "$work/emulator.log" <(echo "$answer") | grep -c "${part_token:0:8}")
if ((leaks == 0)) && [[ $answer == "error: udid '…${part_token: -6}' is not registered"* ]]; then
  pass emulator-udid-masked "$answer"
else
  fail emulator-udid-masked "$leaks lines with its first 8 characters; answered: $answer"
fi

# 2. Control characters from a request are escaped in the log.
for method in $'G\e]0;pwned\aET' $'GET\e[2J' $'P\rOST'; do
  exec {part_socket}<>"/dev/tcp/127.0.0.1/$part_port"
  printf '%s /tpns HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$method" \
    >&"$part_socket"
  cat <&"$part_socket" >"$work/part.answer"
  exec {part_socket}>&-
done
controls=$(python3 -c 'import sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
print(sum(1 for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F))' \
  "$work/emulator.log")
escaped=$(grep -c 'P\\u{d}OST /tpns 405' "$work/emulator.log")
if ((controls == 0 && escaped == 1)); then
  pass emulator-log-escapes "0 control characters in $(wc -l <"$work/emulator.log") log lines; $(grep -m1 -o 'G\\u{1b}]0;pwned\\u{7}ET /tpns 405' "$work/emulator.log")"
else
  fail emulator-log-escapes "$controls control characters in the log; escaped CR line: $escaped"
fi

# 3. A foreign Host (DNS rebinding), Origin or Sec-Fetch-Site.
before=$(curl -s "$emulator_base/_emulator/registry")
statuses=(
  "$(curl -s -o "$work/part.rebound" -w '%{http_code}' -H "Host: rebind.example:$part_port" "$emulator_base/_emulator/registry")"
  "$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Origin: http://evil.example' "$emulator_base/_emulator/reset")"
  "$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Origin: null' "$emulator_base/_emulator/faults?status=503")"
  "$(curl -s -o /dev/null -w '%{http_code}' -H 'Sec-Fetch-Site: cross-site' "$emulator_url?cmd=client&os=ios&appid=evil&udid=$part_token&token=$part_token")"
)
after=$(curl -s "$emulator_base/_emulator/registry")
fault=$(curl -s "$emulator_base/_emulator/faults" | tr -d ' \n')
if [[ ${statuses[*]} == "421 403 403 403" && $before == "$after" && $fault == '{"fault":null,"rules":[]}' ]] &&
  ! grep -q '"token"' "$work/part.rebound"; then
  pass emulator-foreign-site "rebound Host 421, foreign Origin 403 (reset, faults), cross-site GET 403; registry unchanged: $(head -c 90 "$work/part.rebound")"
else
  fail emulator-foreign-site "statuses ${statuses[*]} (expected 421 403 403 403); registry unchanged: $([[ $before == "$after" ]] && echo yes || echo no); faults $fault"
fi

# 4. The registry's files are the user's alone, whatever the umask.
part_port_file=$work/part-db/port
mkdir -p "$work/part-db"
part_db=$work/part-db/registry.sqlite
part_prefix='umask 000'
if part_start --db "$part_db"; then
  curl -s "http://127.0.0.1:$(cat "$part_port_file")/tpns" -d cmd=client -d os=ios \
    -d appid=com.tutk.cc.samples.tpns.ios -d udid=$part_token -d token=$part_token >/dev/null
  modes=$(stat -c '%n %a' "$part_db" "$part_db-wal" "$part_db-shm" 2>&1 | sed "s|$work/part-db/||" | tr '\n' ' ')
  part_stop
  if [[ $modes == "registry.sqlite 600 registry.sqlite-wal 600 registry.sqlite-shm 600 " ]]; then
    pass emulator-db-modes "under umask 000: $modes"
  else
    fail emulator-db-modes "under umask 000: $modes"
  fi
else
  fail emulator-db-modes "tpns-server did not start: $(head -c 300 "$work/part.err")"
  part_stop
fi

# 5. A link planted where the port file is first written.
mkdir -p "$work/part-link"
part_port_file=$work/part-link/port
part_victim=$work/part-link/victim
printf 'precious\n' >"$part_victim"
part_prefix="umask 022; ln -s '$part_victim' \"\$1.\$\$.tmp\""
if part_start; then
  kind=$(stat -c %F "$part_port_file")
  mode=$(stat -c %a "$part_port_file")
  part_stop
  if [[ $(cat "$part_victim") == precious && $kind == "regular file" ]]; then
    pass emulator-port-file-link "the link's target untouched; the port file a $kind, mode $mode"
  else
    fail emulator-port-file-link "the link's target now holds '$(head -c 20 "$part_victim")'; the port file a $kind"
  fi
else
  fail emulator-port-file-link "tpns-server did not start: $(head -c 300 "$work/part.err")"
  part_stop
fi

# 6. --host other than loopback.
part_port_file=$work/part-host.port
part_prefix=:
if part_start --host 0.0.0.0; then
  part_stop
  if grep -q '^warning: --host 0.0.0.0 is not a loopback address: .*push token' "$work/part.err"; then
    pass emulator-exposed-host "$(head -1 "$work/part.err")"
  else
    fail emulator-exposed-host "stderr: $(head -c 300 "$work/part.err")"
  fi
else
  fail emulator-exposed-host "tpns-server did not start: $(head -c 300 "$work/part.err")"
  part_stop
fi
