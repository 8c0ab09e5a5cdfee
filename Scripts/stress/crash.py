#!/usr/bin/env python3
"""Crash safety: kills store writes with SIGKILL at random moments.

  crash.py TPNS STORE [--writes N] [--seed S]

Each round reads the store, starts one write (`tpns add --no-sync` of a new
UID, or `tpns remove 0`, alternately), kills it with SIGKILL after a random
delay within the write's usual duration, then checks that the store parses
(plistlib and `plutil -lint`), that its UIDs equal the state before or after
that write, and that at most one temp file (the killed write's) is beside it.
Prints one summary line; exits 1 at the first violation, naming the round.
"""
import os
import plistlib
import random
import signal
import subprocess
import sys
import time


def uids(store):
    with open(store, "rb") as file:
        return plistlib.load(file)["UIDs"]


def temp_files(store):
    directory, name = os.path.split(store)
    return sorted(f for f in os.listdir(directory) if f.startswith(name + ".tmp"))


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 64
    tpns, store = args[0], args[1]
    writes = int(args[args.index("--writes") + 1]) if "--writes" in args else 200
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else int(time.time())
    rng = random.Random(seed)
    environment = dict(os.environ, TPNS_STORE=store)
    environment.pop("TPNS_SERVER", None)

    def start(round_number):
        if round_number % 2 == 0:
            argv = [tpns, "add", "--no-sync", "--quiet", "CRASH%015d" % round_number]
        else:
            argv = [tpns, "remove", "--no-sync", "--quiet", "0"]
        return subprocess.Popen(argv, env=environment, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)

    # A write's usual duration, to spread the kills over it.
    began = time.monotonic()
    for round_number in range(writes, writes + 4):
        if start(round_number).wait() != 0:
            print(f"an unkilled write (round {round_number}) failed; run it by hand to see why")
            return 1
    usual = (time.monotonic() - began) / 4

    outcomes = {"before": 0, "after": 0}
    most_temps = 0
    mid_write = 0
    for round_number in range(writes):
        before = uids(store)
        if round_number % 2 == 0:
            after = before + ["CRASH%015d" % round_number]
        else:
            after = before[1:]
        process = start(round_number)
        time.sleep(rng.uniform(usual * 0.6, usual * 1.1))
        process.send_signal(signal.SIGKILL)
        process.wait()
        where = f"round {round_number} (seed {seed})"
        try:
            now = uids(store)
        except Exception as error:
            print(f"{where}: the store does not parse: {error}")
            return 1
        lint = subprocess.run(["plutil", "-lint", store], capture_output=True, text=True)
        if lint.returncode != 0:
            print(f"{where}: plutil -lint refuses the store: {lint.stdout.strip()}")
            return 1
        if now == before:
            outcomes["before"] += 1
        elif now == after:
            outcomes["after"] += 1
        else:
            print(f"{where}: {len(now)} UIDs, neither the {len(before)} before "
                  f"nor the {len(after)} after")
            return 1
        temps = temp_files(store)
        most_temps = max(most_temps, len(temps))
        mid_write += 1 if temps else 0
        if len(temps) > 1:
            print(f"{where}: {len(temps)} temp files beside the store: {temps[:3]}")
            return 1
    print(f"{writes} writes killed at random {usual * 600:.0f}-{usual * 1100:.0f} ms in (seed {seed}): "
          f"{outcomes['before']} left the state before, {outcomes['after']} the state after, "
          f"0 torn; {mid_write} cut mid-write, at most {most_temps} temp file beside it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
