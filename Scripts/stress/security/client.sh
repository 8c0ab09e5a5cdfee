# shellcheck shell=bash
# Part of the security section (sourced by Scripts/stress/security.sh, after
# its own checks; uses its $work, $emulator_url, pass and fail): the client's
# secrets as other local users see them (issue 13, points 2 and 3).
#
# 1. A token from --token-file is not in the process's arguments, which every
#    user reads in /proc/PID/cmdline; one given as an argument is warned about.
# 2. tpns is not dumpable: its /proc/PID/environ (TPNS_TOKEN), mem and the
#    like are root's, so that another process of the same user cannot read
#    them, and it leaves no core dump.
#
# 3. A token file planted by another user (in a shared, sticky directory) is
#    refused with exit 73, as is one of this user's that others may read;
#    a private one, a pipe and <(...) are read.
# 4. A crash ends tpns watch, run as the other user: SIGSEGV and SIGABRT end
#    it by that signal within 10 s (the Swift runtime's backtracer kept it
#    waiting, and a service's Restart=on-failure never came).
#
# Run as root, the other user is nobody (setpriv); otherwise the checks run as
# the current user, and the other user is only the same user's other process.

client_token=c0ffee00deadbeef1234567890abcdef0fedcba0987654321feedfacecafe002
client_dir=$work/client
mkdir -p "$client_dir/bin"
# Reachable by another user: the scratch directory is 0700 otherwise.
chmod 711 "$work"
chmod 755 "$client_dir" "$client_dir/bin"
cp "$tpns" "$client_dir/bin/tpns"
client_tpns=$client_dir/bin/tpns

# The other user: nobody when root (through setpriv), else this one.
if [[ $(id -u) == 0 ]] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
  other_user=nobody
elif [[ $(id -u) != 0 ]]; then
  other_user=$(id -un)
else
  other_user=
fi

# Runs "$@" as the other user.
as_other_user() {
  if [[ $other_user == nobody && $(id -u) == 0 ]]; then
    setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups "$@"
  else
    "$@"
  fi
}

# Whether process $1 is blocked opening a FIFO: its wait channel, or (where
# the kernel hides it) asleep in openat (257 on x86_64, 56 on arm64).
in_fifo_open() {
  local wchan syscall state
  wchan=$(cat "/proc/$1/wchan" 2>/dev/null)
  [[ $wchan == wait_for_partner ]] && return 0
  [[ $wchan == 0 || -z $wchan ]] || return 1
  syscall=$(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null)
  state=$(awk '/^State:/ {print $2}' "/proc/$1/status" 2>/dev/null)
  [[ $state == S && ($syscall == 257 || $syscall == 56) ]]
}

# Waits until process $1 blocks opening a FIFO (at most 10 s): past its start,
# where tpns drops its dumpability, and still running. If it does not, kills it.
wait_for_fifo_open() {
  local deadline=$((SECONDS + 10))
  until in_fifo_open "$1"; do
    if ! kill -0 "$1" 2>/dev/null || ((SECONDS >= deadline)); then
      kill "$1" 2>/dev/null
      return 1
    fi
    sleep 0.02
  done
}

# 1. The token from a FIFO given to --token-file: while tpns waits for it, its
#    command line (as another user reads it) holds no token; once written,
#    the registration reaches the emulator.
fifo=$client_dir/token.fifo
mkfifo "$fifo"
TPNS_STORE=$client_dir/file/state.plist TPNS_SERVER=$emulator_url \
  "$client_tpns" register --token-file "$fifo" >"$client_dir/file.out" 2>"$client_dir/file.err" &
client_pid=$!
problems=()
if wait_for_fifo_open "$client_pid"; then
  arguments=$(as_other_user cat "/proc/$client_pid/cmdline" | tr '\0' ' ')
  [[ $arguments == *"--token-file $fifo"* ]] || problems+=("command line read as '$arguments'")
  [[ $arguments != *"$client_token"* ]] || problems+=("the token is in /proc/PID/cmdline")
  printf '%s\n' "$client_token" >"$fifo"
else
  problems+=("tpns did not wait for the token file")
fi
wait "$client_pid"
status=$?
((status == 0)) || problems+=("exit $status: $(head -1 "$client_dir/file.err")")
[[ ! -s $client_dir/file.err ]] || problems+=("stderr: $(head -1 "$client_dir/file.err")")
inspect registry | grep -q "$client_token" || problems+=("the emulator has no such token")
# The form warned about: the token as an argument.
TPNS_STORE=$client_dir/argv/state.plist TPNS_SERVER=$emulator_url \
  "$client_tpns" register "$client_token" >"$client_dir/argv.out" 2>"$client_dir/argv.err"
grep -q '^Warning: the token was given on the command line' "$client_dir/argv.err" ||
  problems+=("no warning for a token argument: $(head -1 "$client_dir/argv.err")")
if ((${#problems[@]})); then
  fail "token kept off the command line" "$(IFS=';'; echo "${problems[*]}")"
else
  pass "token kept off the command line" \
    "--token-file FIFO: /proc/PID/cmdline '${arguments% }' (as $(as_other_user id -un)), registered; an argument is warned about"
fi

# 2. Not dumpable: tpns, run as the other user with TPNS_TOKEN in its
#    environment, waits on a FIFO; its /proc/PID/environ is then root's, and
#    that user's own cat cannot read it.
if [[ -z $other_user ]]; then
  echo "SKIP not dumpable: as root, needs the user nobody and setpriv"
  return 0
fi
dump_fifo=$client_dir/uids.fifo
mkfifo -m 666 "$dump_fifo"
# exec: $! is tpns itself (setpriv execs it too), not a subshell.
(
  export TPNS_TOKEN=$client_token
  if [[ $other_user == nobody && $(id -u) == 0 ]]; then
    exec setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups \
      "$client_tpns" add --from "$dump_fifo" --store "$client_dir/dump/state.plist"
  fi
  exec "$client_tpns" add --from "$dump_fifo" --store "$client_dir/dump/state.plist"
) >/dev/null 2>&1 &
client_pid=$!
if wait_for_fifo_open "$client_pid"; then
  owner=$(stat -c %U "/proc/$client_pid/environ")
  if as_other_user cat "/proc/$client_pid/environ" >"$client_dir/environ" 2>"$client_dir/environ.err"; then
    readable="readable by $(as_other_user id -un)"
  else
    readable="unreadable by $(as_other_user id -un) ($(sed 's/.*: //' "$client_dir/environ.err"))"
  fi
  leaked=$(tr '\0' '\n' <"$client_dir/environ" | grep -c "$client_token")
  kill "$client_pid" 2>/dev/null
  wait "$client_pid" 2>/dev/null
  if [[ $owner == root ]] && ((leaked == 0)); then
    pass "not dumpable" "/proc/PID/environ owned by $owner, $readable: TPNS_TOKEN stays in the process"
  else
    fail "not dumpable" "/proc/PID/environ owned by $owner, $readable ($leaked lines with the token)"
  fi
else
  kill "$client_pid" 2>/dev/null
  wait "$client_pid" 2>/dev/null
  fail "not dumpable" "tpns did not wait on the FIFO given to add --from"
fi

# 3. Token files: one planted by the other user, one this user left readable,
#    then the ways that are private.
if [[ $other_user == nobody ]]; then
  shared=$client_dir/shared
  mkdir -p "$shared"
  chmod 1777 "$shared"
  as_other_user sh -c "umask 077; printf '%s\n' '$client_token' > '$shared/token.txt'"
  problems=()
  TPNS_STORE=$client_dir/planted/state.plist TPNS_SERVER=$emulator_url \
    "$client_tpns" register --token-file "$shared/token.txt" >/dev/null 2>"$client_dir/planted.err"
  status=$?
  ((status == 73)) || problems+=("planted file: exit $status")
  grep -q "^Error: the token file $shared/token.txt belongs to another user (nobody" \
    "$client_dir/planted.err" || problems+=("planted file: $(head -1 "$client_dir/planted.err")")
  [[ ! -e $client_dir/planted/state.plist ]] || problems+=("planted file: a store was written")
  (umask 022 && printf '%s\n' "$client_token" >"$client_dir/open-token.txt")
  TPNS_STORE=$client_dir/open/state.plist TPNS_SERVER=$emulator_url \
    "$client_tpns" register --token-file "$client_dir/open-token.txt" >/dev/null 2>"$client_dir/open.err"
  status=$?
  ((status == 73)) || problems+=("0644 file: exit $status")
  grep -q "^Run 'chmod 600 $client_dir/open-token.txt'" "$client_dir/open.err" ||
    problems+=("0644 file: $(tail -1 "$client_dir/open.err")")
  (umask 077 && printf '%s\n' "$client_token" >"$client_dir/private-token.txt")
  for way in "--token-file $client_dir/private-token.txt" "--token-file -" "--token-file <(printf '%s\n' $client_token)"; do
    TPNS_STORE=$client_dir/ways/state.plist TPNS_SERVER=$emulator_url bash -c \
      "printf '%s\n' $client_token | '$client_tpns' register $way" >/dev/null 2>"$client_dir/way.err" ||
      problems+=("'$way' failed: $(head -1 "$client_dir/way.err")")
  done
  if ((${#problems[@]})); then
    fail "token file trust" "$(IFS=';'; echo "${problems[*]}")"
  else
    pass "token file trust" \
      "planted by nobody: 73 ($(head -1 "$client_dir/planted.err" | cut -c1-90)…); 0644: 73; 0600, a pipe, <(...) read"
  fi
fi

# 4. A crashed watch, run as the other user, ends by its signal.
if [[ $other_user == nobody ]]; then
  problems=()
  crash_dir=$client_dir/crash
  mkdir -p "$crash_dir"
  chown nobody "$crash_dir"
  chmod 700 "$crash_dir"
  for signal in SEGV ABRT; do
    as_other_user env TPNS_STORE="$crash_dir/state.plist" "$client_tpns" add --no-sync ABCDEFGHJKLMNPRSTUVW >/dev/null 2>&1
    (
      exec setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups \
        env TPNS_STORE="$crash_dir/state.plist" TPNS_SERVER=http://127.0.0.1:9/tpns \
        "$client_tpns" watch
    ) >"$crash_dir/watch.out" 2>&1 </dev/null &
    client_pid=$!
    deadline=$((SECONDS + 10))
    until grep -qE '^[0-9T:-]+Z watching ' "$crash_dir/watch.out" || ((SECONDS >= deadline)); do sleep 0.05; done
    kill -"$signal" "$client_pid"
    deadline=$((SECONDS + 10))
    while kill -0 "$client_pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.05; done
    if kill -0 "$client_pid" 2>/dev/null; then
      problems+=("SIG$signal: still running after 10 s")
      kill -KILL "$client_pid"
    fi
    wait "$client_pid"
    status=$?
    expected=$((128 + $(kill -l "$signal")))
    ((status == expected)) || problems+=("SIG$signal: exit $status, not $expected")
  done
  if ((${#problems[@]})); then
    fail "crashed watch ends" "$(IFS=';'; echo "${problems[*]}")"
  else
    pass "crashed watch ends" "tpns watch as nobody: SIGSEGV and SIGABRT end it by that signal at once"
  fi
fi
