#!/usr/bin/env bash
# Shared by the scripts in Scripts/ (and Scripts/stress/lib.sh); sourced, never run.

# Prints the script's header comment (line 2 to the first line that is not a
# comment) and exits 0: its --help.
show_help() {
  sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
  exit 0
}

# usage_error MESSAGE: `Error: MESSAGE` and the script's Usage line on
# stderr, exit 64.
usage_error() {
  echo "Error: $1" >&2
  sed -n 's/^#.*\(Usage: .*\)/\1/p' "$0" | head -n 1 >&2
  exit 64
}

# need_value OPTION VALUE: a usage error when OPTION was given no VALUE.
need_value() { [[ -n ${2:-} ]] || usage_error "Missing value for '$1'"; }

# Waits until file $1 exists and is not empty, at most $2 seconds (default 10).
wait_for_file() {
  local deadline=$((SECONDS + ${2:-10}))
  until [[ -s $1 ]]; do
    ((SECONDS < deadline)) || return 1
    sleep 0.05
  done
}

# make_work NAME: a scratch directory in $work (tpns-NAME.XXXXXX), removed on
# exit, after the script's on_exit function (if it has one) and with the
# tpns-server start_server started stopped.
make_work() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/tpns-$1.XXXXXX")
  trap cleanup_work EXIT
}
server_pid=
cleanup_work() {
  ! declare -F on_exit >/dev/null || on_exit
  [[ -z $server_pid ]] || { kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; }
  rm -rf "$work"
}

# start_server ARGUMENTS...: $bin/tpns-server on a free port with ARGUMENTS,
# its output in $work/server.log. Sets server_pid and server_base
# (http://127.0.0.1:PORT). If it has not written its port within 10 s: its
# log on stderr, and status 1.
start_server() {
  rm -f "$work/port"
  "$bin/tpns-server" --port 0 --port-file "$work/port" "$@" >"$work/server.log" 2>&1 &
  server_pid=$!
  if ! wait_for_file "$work/port"; then
    echo "Error: tpns-server did not start:" >&2
    cat "$work/server.log" >&2
    return 1
  fi
  server_base="http://127.0.0.1:$(cat "$work/port")"
}

# Stops the tpns-server start_server started.
stop_server() {
  kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  server_pid=
}

# python_venv DIR PACKAGE...: a virtual environment in DIR holding the PyPI
# PACKAGEs (import names given as NAME=PACKAGE when they differ), made or remade
# when one is missing; sets `python` to its interpreter.
python_venv() {
  local venv=$1 imports=() packages=() spec
  shift
  for spec in "$@"; do
    imports+=("${spec%%=*}")
    packages+=("${spec#*=}")
  done
  Scripts/setup.sh python3-venv >&2
  if ! "$venv/bin/python" -c "import $(IFS=,; echo "${imports[*]}")" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${packages[@]}"
  fi
  python=$venv/bin/python
}

# only_bin_option ARGS...: the arguments of a suite whose one option is --bin DIR
# (where tpns and tpns-server are; default: swift build --show-bin-path, after
# building the products $build_products names, if any), besides -h; sets bin, as
# an absolute path.  build_products="tpns-server" only_bin_option "$@"
only_bin_option() {
  bin=""
  while (($#)); do
    case $1 in
      --bin) need_value "$@" && bin=$2 && shift 2 ;;
      -h | --help) show_help ;;
      *) usage_error "Unknown option '$1'" ;;
    esac
  done
  if [[ -z $bin ]]; then
    local product
    for product in ${build_products:-}; do
      swift build -j 2 --product "$product" >&2 || exit 1
    done
    bin=$(swift build --show-bin-path)
  fi
  bin=$(cd "$bin" && pwd)
}
