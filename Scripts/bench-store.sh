#!/usr/bin/env bash
# Times a full, durable store write of 10,000 UIDs (encode, temp file, fsync,
# rename, directory fsync) and a load, beside a baseline doing the same
# durable write with Python's plistlib, on the same disk in the same run; and
# the XML reader on the file written, and libplist on its binary form.
# Usage: Scripts/bench-store.sh [UIDS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
uids=${1:-10000}
runs=${2:-20}

Scripts/setup.sh python3
swift build -c release -j 2 --product StoreBenchmark >/dev/null

work=$(mktemp -d "${TMPDIR:-/var/tmp}/tpns-bench-store.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tpns" "$work/python"

# The same list in binary form, made by plistlib, for libplist's binary reading.
python3 - "$work/state.bplist" "$uids" <<'PY'
import plistlib, sys
path, count = sys.argv[1], int(sys.argv[2])
with open(path, "wb") as f:
    plistlib.dump({"UIDs": ["UID%017d" % i for i in range(count)]}, f, fmt=plistlib.FMT_BINARY)
PY

echo "== tpns (Store.update: plist encode + O_EXCL temp + fsync + rename + dir fsync;"
echo "   then the XML reader on the file it wrote, and libplist on the binary form)"
.build/release/StoreBenchmark "$work/tpns" "$uids" "$runs" "$work/state.bplist"

echo "== baseline (python3 plistlib.dump + fsync + rename + dir fsync)"
python3 - "$work/python" "$uids" "$runs" <<'PY'
import os, plistlib, statistics, sys, time
directory, count, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
uids = ["UID%017d" % i for i in range(count)]
path = os.path.join(directory, "state.plist")
writes, loads = [], []
for run in range(runs):
    state = {"UIDs": uids[:-1] + ["EVENEVENEVENEVENEVEN" if run % 2 == 0 else "ODDODDODDODDODDODDOD"],
             "Registered": False}
    start = time.perf_counter()
    temp = f"{path}.tmp-{os.getpid()}"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        plistlib.dump(state, f, fmt=plistlib.FMT_XML)
        f.flush()
        os.fsync(f.fileno())
    os.rename(temp, path)
    dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    os.fsync(dfd)
    os.close(dfd)
    writes.append((time.perf_counter() - start) * 1000)
    start = time.perf_counter()
    with open(path, "rb") as f:
        plistlib.load(f)
    loads.append((time.perf_counter() - start) * 1000)
writes.sort(); loads.sort()
print(f"uids={count} runs={runs} file_bytes={os.path.getsize(path)}")
print(f"python_write_ms median={writes[runs // 2]:.2f} max={writes[-1]:.2f}")
print(f"python_load_ms median={loads[runs // 2]:.2f} max={loads[-1]:.2f}")
PY
