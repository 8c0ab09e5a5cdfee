# Part of stress section 7 (security), sourced by security.sh: tpns-server --db over
# files another real user (nobody) planted, the way a shared group directory allows:
#   database-other-owner      a database, -wal and -shm that nobody made 0666 in a shared
#                             (sticky) directory: exit 73 naming the database and the
#                             fix; the files are left as they were.
#   database-planted-wal      this user's own database, with a -wal nobody planted
#                             beside it: exit 73 naming the -wal.
#   database-group-directory  a directory the group may write (not sticky): exit 73
#                             naming the directory.
# Needs root, to act as nobody. Uses lib.sh's pass/fail, $work, $tpns_server.

database_part() {
  if [[ $(id -u) != 0 ]] || ! id -u nobody >/dev/null 2>&1; then
    echo "SKIP database against another user: needs root and the user nobody"
    return
  fi
  local group
  group=$(id -g nobody)
  as_nobody() { setpriv --reuid=nobody --regid="$group" --clear-groups -- "$@"; }
  chmod 711 "$work"
  local base=$work/database-part out=$work/database-part.out err=$work/database-part.err
  mkdir -m 755 "$base"
  # A registry with one phone in it, made by this user, to copy from.
  local source=$base/source.sqlite port_file=$base/port pid
  "$tpns_server" --port 0 --port-file "$port_file" --quiet --db "$source" >/dev/null 2>&1 &
  pid=$!
  if ! wait_for_file "$port_file"; then
    fail database-other-owner "tpns-server did not start"
    kill "$pid" 2>/dev/null
    return
  fi
  curl -s "http://127.0.0.1:$(cat "$port_file")/tpns?cmd=client&os=android&appid=com.example.app&udid=phone-1&token=secret-token-1" >/dev/null
  kill "$pid" && wait "$pid" 2>/dev/null

  # Runs tpns-server on --db "$1"; sets status (killed at once if it starts).
  database_try() {
    rm -f "$port_file"
    "$tpns_server" --port 0 --port-file "$port_file" --quiet --db "$1" >"$out" 2>"$err" &
    pid=$!
    local deadline=$((SECONDS + 5))
    while kill -0 "$pid" 2>/dev/null && [[ ! -s $port_file ]] && ((SECONDS < deadline)); do
      sleep 0.05
    done
    if [[ -s $port_file ]]; then kill "$pid"; fi
    wait "$pid"
    status=$?
  }
  local status shared=$base/shared file sums

  # 1. nobody's 0666 database, -wal and -shm in a shared directory.
  mkdir -m 1777 "$shared"
  for file in reg.sqlite reg.sqlite-wal reg.sqlite-shm; do
    as_nobody bash -c 'umask 000; cat >"$1"' _ "$shared/$file" <"$source"
  done
  sums=$(md5sum "$shared"/reg.sqlite*)
  database_try "$shared/reg.sqlite"
  if ((status == 73)) && grep -q "^Error: $shared/reg.sqlite belongs to another user (nobody" "$err" &&
    grep -q "Remove $shared/reg.sqlite if it is not yours" "$err" && [[ $(md5sum "$shared"/reg.sqlite*) == "$sums" ]]; then
    pass database-other-owner "exit 73: $(head -1 "$err" | cut -c1-110)…; the files unchanged"
  else
    fail database-other-owner "exit $status: $(head -2 "$err" | tr '\n' ' ' | cut -c1-200)"
  fi

  # 2. This user's database in a sticky directory, a -wal of nobody's beside it.
  local own=$base/sticky
  mkdir -m 1777 "$own"
  cp "$source" "$own/reg.sqlite"
  chmod 600 "$own/reg.sqlite"
  as_nobody bash -c 'umask 000; : >"$1"' _ "$own/reg.sqlite-wal"
  database_try "$own/reg.sqlite"
  if ((status == 73)) && grep -q "^Error: $own/reg.sqlite-wal belongs to another user (nobody" "$err"; then
    pass database-planted-wal "exit 73: $(head -1 "$err" | cut -c1-110)…"
  else
    fail database-planted-wal "exit $status: $(head -2 "$err" | tr '\n' ' ' | cut -c1-200)"
  fi

  # 3. A directory the group (nobody's) may write, not sticky.
  local grouped=$base/group
  mkdir -m 775 "$grouped"
  chgrp "$group" "$grouped"
  database_try "$grouped/reg.sqlite"
  if ((status == 73)) && grep -q "^Error: the directory $grouped of the registry database is writable by group" "$err" &&
    [[ ! -e $grouped/reg.sqlite ]]; then
    pass database-group-directory "exit 73, nothing created: $(head -1 "$err" | cut -c1-110)…"
  else
    fail database-group-directory "exit $status: $(head -2 "$err" | tr '\n' ' ' | cut -c1-200)"
  fi
}
database_part
