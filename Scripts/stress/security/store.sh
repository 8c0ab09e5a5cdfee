# shellcheck shell=bash
# A part of the stress suite's security section (sourced by security.sh after
# its own checks; lib.sh's pass/fail, $work and $tpns; never exits): the store
# against another user of the same machine, who may write a directory on its
# way, as ssh's StrictModes guards ~/.ssh. A plist swapped in, a link planted
# in a parent directory, the race between a check and an open (2 x 300 runs), a
# FIFO, lock files made and held to stop tpns, and a store nested 200,000
# deep; and the places that must keep working for a user who is not root
# (root-owned and sticky directories on the way, the user's own link).
# Needs root, to act as a second user (nobody, or one made with useradd).

store_part() {
  if [[ $(id -u) != 0 ]]; then
    echo "SKIP store against another user: needs root to act as a second user"
    return
  fi
  local attacker=nobody
  if ! id -u "$attacker" >/dev/null 2>&1; then
    attacker=tpns-stress
    id -u "$attacker" >/dev/null 2>&1 ||
      useradd --system --no-create-home --shell /usr/sbin/nologin "$attacker"
  fi
  local attacker_group
  attacker_group=$(id -g "$attacker")
  # A python3 the other user can run (pyenv's lives under /root).
  local python=/usr/bin/python3
  [[ -x $python ]] || python=$(command -v python3)
  # Runs "$@" as the other user.
  as_attacker() { setpriv --reuid="$attacker" --regid="$attacker_group" --clear-groups -- "$@"; }
  # A store holding one UID, on stdout.
  plist_with() {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>UIDs</key>'
    printf '<array><string>%s</string></array></dict></plist>\n' "$1"
  }
  local mine=VICTIM00000000000001 theirs=ATTACKER000000000001 secret=SECRET00000000000001
  # The other user must reach the directories below (traverse only).
  chmod 711 "$work"
  local base=$work/store-part out=$work/store-part.out err=$work/store-part.err
  mkdir -m 755 "$base"
  local status problems=() started elapsed

  # 1. A plist of the other user's, there first in a sticky directory (as
  # /tmp), or renamed over the store in a directory others may write.
  mkdir -m 1777 "$base/sticky"
  plist_with "$theirs" | as_attacker tee "$base/sticky/state.plist" >/dev/null
  TPNS_STORE=$base/sticky/state.plist "$tpns" list >"$out" 2>"$err"
  status=$?
  ((status == 73)) || problems+=("list of a store another user made in a sticky directory exited $status")
  grep -q "$theirs" "$out" && problems+=("list showed the other user's UID")
  grep -q 'belongs to another user' "$err" || problems+=("it said: $(head -1 "$err")")
  local first_refusal
  first_refusal=$(head -1 "$err")
  mkdir -m 777 "$base/open"
  plist_with "$mine" >"$base/open/state.plist"
  chmod 600 "$base/open/state.plist"
  plist_with "$theirs" | as_attacker tee "$base/open/.swap" >/dev/null
  as_attacker mv -f "$base/open/.swap" "$base/open/state.plist"
  TPNS_STORE=$base/open/state.plist "$tpns" list >"$out" 2>"$err"
  status=$?
  ((status == 73)) || problems+=("list in a directory others may write exited $status")
  grep -q "$theirs" "$out" && problems+=("list showed the swapped-in UID")
  grep -q "chmod go-w $base/open" "$err" || problems+=("it said: $(head -2 "$err" | tr '\n' ' ')")
  if ((${#problems[@]})); then
    fail "store swapped in by another user" "$(IFS=';'; echo "${problems[*]}")"
  else
    pass "store swapped in by another user" "exit 73 both: $first_refusal; $(head -1 "$err")"
  fi

  # 2. A link planted in a parent directory: the other user's `tpns` in a
  # sticky directory points at a directory of theirs.
  problems=()
  mkdir -m 1777 "$base/sticky2"
  mkdir -m 755 "$base/lair"
  chown "$attacker" "$base/lair"
  plist_with "$theirs" | as_attacker tee "$base/lair/state.plist" >/dev/null
  cp "$base/lair/state.plist" "$base/lair.before"
  as_attacker ln -s "$base/lair" "$base/sticky2/tpns"
  TPNS_STORE=$base/sticky2/tpns/state.plist "$tpns" list >"$out" 2>"$err"
  status=$?
  ((status == 73)) || problems+=("list exited $status")
  grep -q "$theirs" "$out" && problems+=("list showed the other user's UID")
  TPNS_STORE=$base/sticky2/tpns/state.plist "$tpns" add --no-sync "$mine" >/dev/null 2>"$err"
  status=$?
  ((status == 73)) || problems+=("add exited $status")
  grep -q 'symbolic link owned by another user' "$err" || problems+=("add said: $(head -1 "$err")")
  cmp -s "$base/lair/state.plist" "$base/lair.before" || problems+=("the other user's file was written")
  [[ $(ls -A "$base/lair") == state.plist ]] || problems+=("files were made in their directory: $(ls -A "$base/lair" | tr '\n' ' ')")
  if ((${#problems[@]})); then
    fail "link planted in a parent directory" "$(IFS=';'; echo "${problems[*]}")"
  else
    pass "link planted in a parent directory" "list and add exit 73, their directory untouched: $(head -1 "$err")"
  fi

  # 3. The race between a check and an open: the other user swaps the
  # store's name with their link to a file only root can read
  # (renameat2 RENAME_EXCHANGE, as fast as it goes) while `tpns list` runs
  # 300 times; in a directory others may write (the store root's), and in a
  # sticky one (the store theirs, so that only the checks on the open file
  # stand in the way). Not one run may show that file's UID, or theirs.
  plist_with "$secret" >"$base/secret.plist"
  chmod 600 "$base/secret.plist"
  local runs=300 figures=() leaks=0 place
  for place in race race-sticky; do
    if [[ $place == race ]]; then
      mkdir -m 777 "$base/$place"
      plist_with "$mine" >"$base/$place/state.plist"
      chmod 600 "$base/$place/state.plist"
    else
      mkdir -m 1777 "$base/$place"
      plist_with "$theirs" | as_attacker tee "$base/$place/state.plist" >/dev/null
    fi
    as_attacker ln -s "$base/secret.plist" "$base/$place/swap"
    as_attacker "$python" - "$base/$place/state.plist" "$base/$place/swap" "$base/$place.stop" <<'PY' &
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
store, swap, stop = (os.fsencode(path) for path in sys.argv[1:4])
AT_FDCWD, RENAME_EXCHANGE = -100, 2
deadline = time.monotonic() + 120
while not os.path.exists(stop) and time.monotonic() < deadline:
    libc.renameat2(AT_FDCWD, store, AT_FDCWD, swap, RENAME_EXCHANGE)
PY
    local swapper=$! behind=0 theirs_read=0 refused=0 run
    for ((run = 0; run < runs; run++)); do
      TPNS_STORE=$base/$place/state.plist "$tpns" list >"$out" 2>"$err"
      status=$?
      if grep -q "$secret" "$out"; then
        behind=$((behind + 1))
      elif grep -q "$theirs" "$out"; then
        theirs_read=$((theirs_read + 1))
      elif ((status == 73)); then
        refused=$((refused + 1))
      fi
    done
    touch "$base/$place.stop"
    wait "$swapper"
    leaks=$((leaks + behind + theirs_read))
    figures+=("$place: $behind of $runs runs read the file behind the link, $theirs_read their plist, $refused refused (exit 73)")
  done
  if ((leaks == 0)); then
    pass "check-to-open race" "$(IFS=';'; echo "${figures[*]}"): $(head -1 "$err")"
  else
    fail "check-to-open race" "$(IFS=';'; echo "${figures[*]}")"
  fi

  # 4. A FIFO at the store's path, made by the other user in a sticky directory.
  problems=()
  mkdir -m 1777 "$base/fifo"
  as_attacker mkfifo "$base/fifo/state.plist"
  local command
  figures=()
  for command in list watch; do
    started=$(now_ms)
    TPNS_STORE=$base/fifo/state.plist timeout -k 1 5 "$tpns" "$command" >"$out" 2>"$err"
    status=$?
    elapsed=$(($(now_ms) - started))
    figures+=("$command $status in $elapsed ms")
    ((status == 73 && elapsed < 2000)) || problems+=("$command exited $status after $elapsed ms")
    grep -q 'is a FIFO' "$err" || problems+=("$command said: $(head -1 "$err")")
  done
  if ((${#problems[@]})); then
    fail "FIFO at the store's path" "$(IFS=';'; echo "${problems[*]}")"
  else
    pass "FIFO at the store's path" "${figures[*]}: $(head -1 "$err")"
  fi

  # 5. The lock files, made first and held by the other user in a sticky
  # directory: each command refuses at once (exit 73) instead of waiting for
  # the lock (75), so that a watch under systemd is not left stopped.
  problems=()
  figures=()
  mkdir -m 1777 "$base/held"
  plist_with "$mine" >"$base/held/state.plist"
  chmod 600 "$base/held/state.plist"
  as_attacker "$python" - "$base/held/state.plist" "$base/held/holder.pid" <<'PY' &
import fcntl, os, signal, sys
held = []
for suffix in (".lock", ".sync.lock", ".watch.lock"):
    descriptor = os.open(sys.argv[1] + suffix, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(descriptor, fcntl.LOCK_EX)
    held.append(descriptor)
os.write(held[2], b"1\n")  # a pid, as a real watch leaves there
with open(sys.argv[2] + ".tmp", "w") as ready:
    ready.write(f"{os.getpid()}\n")
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stopped quietly
signal.alarm(120)  # gone by itself if never stopped
signal.pause()
PY
  local holder_job=$!
  if ! wait_for_file "$base/held/holder.pid"; then
    fail "lock files held by another user" "the other user's holder did not start"
  else
    # register, not sync: with no token stored, sync has nothing to send and
    # exits 78 before it would take the send lock.
    for command in watch "add --no-sync $mine" "register --timeout 5"; do
      local words
      read -ra words <<<"$command"
      started=$(now_ms)
      TPNS_STORE=$base/held/state.plist TPNS_TOKEN=$token timeout -k 1 20 "$tpns" "${words[@]}" >"$out" 2>"$err"
      status=$?
      elapsed=$(($(now_ms) - started))
      figures+=("${words[0]} $status in $elapsed ms")
      ((status == 73 && elapsed < 2000)) || problems+=("'${words[0]}' exited $status after $elapsed ms: $(head -1 "$err")")
      grep -q 'belongs to another user' "$err" || problems+=("'${words[0]}' said: $(head -1 "$err")")
    done
    if ((${#problems[@]})); then
      fail "lock files held by another user" "$(IFS=';'; echo "${problems[*]}")"
    else
      pass "lock files held by another user" "${figures[*]}: $(head -1 "$err")"
    fi
    kill "$(cat "$base/held/holder.pid")"
  fi
  wait "$holder_job"

  # 6. What must keep working for a user who is not root: a store under
  # root's directories and a sticky one, a store directly in a sticky
  # directory, and the user's own link to their store.
  problems=()
  # A copy the other user can run, wherever the checkout is (under a 0700
  # directory, say).
  local theirs_tpns=$base/tpns
  install -m 755 "$tpns" "$theirs_tpns"
  mkdir -m 755 "$base/home"
  chown "$attacker" "$base/home"
  mkdir -m 1777 "$base/shared"
  local place
  for place in "$base/home/.config/tpns/state.plist" "$base/shared/state.plist"; do
    as_attacker env TPNS_STORE="$place" "$theirs_tpns" add --no-sync "$theirs" >/dev/null 2>"$err" ||
      problems+=("add to $place as $attacker: $(head -1 "$err")")
  done
  as_attacker ln -s .config/tpns/state.plist "$base/home/link.plist"
  as_attacker env TPNS_STORE="$base/home/link.plist" "$theirs_tpns" list >"$out" 2>"$err" ||
    problems+=("list through $attacker's own link: $(head -1 "$err")")
  grep -q "$theirs" "$out" || problems+=("list through the link showed: $(head -1 "$out")")
  [[ $(stat -c %a "$base/home/.config/tpns/state.plist") == 600 ]] || problems+=("store mode $(stat -c %a "$base/home/.config/tpns/state.plist")")
  if ((${#problems[@]})); then
    fail "trusted places for another user" "$(IFS=';'; echo "${problems[*]}")"
  else
    pass "trusted places for another user" "$attacker: stores under root's directories, in a sticky one and through an own link are written and read"
  fi

  # 7. A store nested 200,000 deep: refused (65), not a SIGSEGV (139), for
  # list and for watch (which under systemd would crash again at each restart).
  problems=()
  figures=()
  mkdir -m 700 "$base/deep"
  python3 -c 'import sys; n = 200000; sys.stdout.write("<plist version=\"1.0\"><dict><key>UIDs</key>" + "<array>" * n + "</array>" * n + "</dict></plist>")' >"$base/deep/state.plist"
  for command in list watch; do
    TPNS_STORE=$base/deep/state.plist timeout -k 1 20 "$tpns" "$command" >"$out" 2>"$err"
    status=$?
    figures+=("$command $status")
    ((status == 65)) || problems+=("$command exited $status")
    grep -q 'nest deeper than 64 levels' "$err" || problems+=("$command said: $(head -1 "$err")")
  done
  if ((${#problems[@]})); then
    fail "store nested 200,000 deep" "$(IFS=';'; echo "${problems[*]}")"
  else
    pass "store nested 200,000 deep" "${figures[*]}: $(head -1 "$err")"
  fi
}

store_part
