#!/usr/bin/env bash
# Stress section 7, security: store modes under umask 000, a symbolic link
# planted by another user, TLS against a self-signed certificate (with and
# without --cacert), and tokens masked in human output and logs.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

token=c0ffee00deadbeef1234567890abcdef0fedcba0987654321feedfacecafe001
masked=${token: -6}
# The token the way docs/SECURITY.md says to pass it (not as an argument, which tpns warns about).
export TPNS_TOKEN=$token
emulator_flags=() # a line per request: the log checked for tokens below
start_emulator
emulator_log=$work/emulator.log
export TPNS_SERVER=$emulator_url

# 1. Modes: directory 0700, every file 0600, after every write, umask 000.
store=$work/modes/config/tpns/state.plist
problems=()
writes=0
for command in "add --no-sync ABCDEFGHJKLMNPRSTUVW" "register" "add 0123456789ABCDEFGHJK" \
  "remove 0" "sync" "add --no-sync ZYXWVUTSRQPNMLKJHGFE"; do
  read -ra words <<<"$command"
  (umask 000 && TPNS_STORE=$store exec "$tpns" "${words[@]}" --quiet) || problems+=("'$command' failed")
  mode=$(stat -c %a "$(dirname "$store")")
  [[ $mode == 700 ]] || problems+=("after '${words[0]}': directory $mode")
  for file in "$(dirname "$store")"/*; do
    mode=$(stat -c %a "$file")
    [[ $mode == 600 ]] || problems+=("after '${words[0]}': $(basename "$file") $mode")
  done
  writes=$((writes + 1))
done
if ((${#problems[@]})); then
  fail "modes under umask 000" "$(IFS=';'; echo "${problems[*]:0:3}")"
else
  pass "modes under umask 000" "$writes writes: directory 0700, store and lock files 0600 after each"
fi

# 2. A symbolic link planted by another user is not followed.
if [[ $(id -u) == 0 ]] && id nobody >/dev/null 2>&1; then
  mkdir -p "$work/planted"
  target=$work/planted/target.plist
  printf 'precious\n' >"$target"
  link=$work/planted/state.plist
  ln -s "$target" "$link"
  chown -h nobody "$link"
  problems=()
  for command in "list" "add --no-sync ABCDEFGHJKLMNPRSTUVW" "register"; do
    read -ra words <<<"$command"
    TPNS_STORE=$link "$tpns" "${words[@]}" >"$work/out" 2>"$work/err"
    status=$?
    ((status == 73)) || problems+=("'tpns ${words[0]}' exited $status")
    grep -q 'symbolic link owned by another user' "$work/err" || problems+=("'tpns ${words[0]}' said: $(head -1 "$work/err")")
  done
  [[ $(cat "$target") == precious ]] || problems+=("the link's target was changed")
  [[ -L $link ]] || problems+=("the link was replaced")
  if ((${#problems[@]})); then
    fail "symlink planted by another user" "$(IFS=';'; echo "${problems[*]}")"
  else
    pass "symlink planted by another user" "3 commands refuse it with exit 73: $(head -1 "$work/err")"
  fi
else
  echo "SKIP symlink planted by another user: needs root to plant a link as nobody"
fi

# 3. TLS against a self-signed certificate.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
python3 "$stress_dir/https-server.py" "$work/cert.pem" "$work/key.pem" "$work/https.port" &
emulator_pids+=($!)
if ! wait_for_file "$work/https.port"; then
  fail "TLS, self-signed" "the HTTPS server did not start"
else
  https_url="https://127.0.0.1:$(cat "$work/https.port")/tpns"
  TPNS_STORE=$work/tls/state.plist "$tpns" register --server "$https_url" >"$work/out" 2>"$work/err"
  refused=$?
  refusal=$(grep -m1 '^Error' "$work/err")
  TPNS_STORE=$work/tls/state.plist "$tpns" register --server "$https_url" \
    --cacert "$work/cert.pem" >"$work/out" 2>"$work/err"
  trusted=$?
  if ((refused != 0)) && grep -qi 'certificate' <<<"$refusal" && ((trusted == 0)); then
    pass "TLS, self-signed" "exit $refused without --cacert ($refusal), exit 0 with it"
  else
    fail "TLS, self-signed" "exit $refused without --cacert ($refusal), exit $trusted with it: $(head -1 "$work/err")"
  fi
fi

# 4. Tokens are masked in human output and logs, unless --show-token.
export TPNS_STORE=$work/mask/state.plist
output=$work/mask.out
{
  "$tpns" register
  "$tpns" add ABCDEFGHJKLMNPRSTUVW
  "$tpns" list
  "$tpns" status
  "$tpns" sync
  "$tpns" event ABCDEFGHJKLMNPRSTUVW --type 1 --message hello
  "$tpns" register --method get --allow-token-in-url --server http://127.0.0.1:1/tpns --timeout 1
  "$tpns" status --server http://127.0.0.1:1/tpns
} >"$output" 2>&1
# The watch log: the emulator forgets everything first, so that the watch's
# sync of a change is refused ("not registered") and the watch registers the
# token again (a line naming it), then syncs; then SIGTERM.
curl -s -X POST "$emulator_base/_emulator/reset" >/dev/null
"$tpns" watch --interval 1 >"$work/watch.log" 2>&1 &
watch_pid=$!
wait_for_synced() {
  local deadline=$((SECONDS + 15))
  until (($(grep -c 'synced' "$work/watch.log") >= $1)); do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}
until grep -qE '^[0-9T:-]+Z watching ' "$work/watch.log"; do sleep 0.05; done
"$tpns" add --no-sync 0123456789ABCDEFGHJK --quiet
wait_for_synced 1
kill -TERM "$watch_pid"
wait "$watch_pid"
shown=$("$tpns" status --show-token)
logs=("$output" "$work/watch.log" "$emulator_log")
leaks=$(cat "${logs[@]}" | grep -c "$token")
mentions=$(grep -c "…$masked" "$output")
watch_mentions=$(grep -c "…$masked" "$work/watch.log")
watch_syncs=$(grep -c 'synced' "$work/watch.log")
if ((leaks == 0 && mentions > 0 && watch_mentions > 0 && watch_syncs >= 1)) &&
  grep -q "$token" <<<"$shown"; then
  pass "tokens masked" "0 full tokens in $(cat "${logs[@]}" | wc -l) lines of output, watch log and emulator log ($((mentions + watch_mentions)) as …$masked); --show-token shows it"
else
  fail "tokens masked" "$leaks lines with the full token; masked: $mentions in output, $watch_mentions in the watch log ($watch_syncs syncs); --show-token: $(grep -c "$token" <<<"$shown")"
fi

# The parts in security/ (one file per area: the store's files, the client's
# secrets, the emulator), sourced in name order with this section's helpers,
# $work and the emulator above.
for part in "$(dirname "$0")"/security/*.sh; do
  [[ -e $part ]] || continue
  # shellcheck source=/dev/null
  source "$part"
done

exit $((failures > 0))
