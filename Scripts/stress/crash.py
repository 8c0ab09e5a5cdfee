#!/usr/bin/env python3
"""Crash safety: kills store writes with SIGKILL at random moments.

  crash.py TPNS STORE [--writes N] [--seed S]

Each round reads the store, starts one write (`tpns add --no-sync` of a new
UID, or `tpns remove 0`, alternately) and kills it with SIGKILL: half the
time at a random moment of its life, half the time within 0.5 ms of its temp
file appearing (the write itself is a small part of a run). Then it checks that the store parses
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


def temp_files(store, exclude=()):
    directory, name = os.path.split(store)
    return sorted(f for f in os.listdir(directory)
                  if f.startswith(name + ".tmp") and f not in exclude)


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

    # A write's usual duration (the median of 5), to spread the kills over it.
    durations = []
    for round_number in range(writes, writes + 5):
        began = time.monotonic()
        if start(round_number).wait() != 0:
            print(f"an unkilled write (round {round_number}) failed; run it by hand to see why")
            return 1
        durations.append(time.monotonic() - began)
    usual = sorted(durations)[2]

    outcomes = {"before": 0, "after": 0}
    most_temps = 0
    mid_write = 0
    timed = 0
    for round_number in range(writes):
        before = uids(store)
        leftover = set(temp_files(store))
        if round_number % 2 == 0:
            after = before + ["CRASH%015d" % round_number]
        else:
            after = before[1:]
        process = start(round_number)
        if rng.random() < 0.5:
            # At a random moment of the process's life.
            time.sleep(rng.uniform(0, usual * 1.1))
        else:
            # Inside the write: once its temp file appears, within 0.5 ms.
            while process.poll() is None and not temp_files(store, exclude=leftover):
                pass
            time.sleep(rng.uniform(0, 0.0005))
            timed += 1
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
        mid_write += 1 if set(temps) - leftover else 0
        if len(temps) > 1:
            print(f"{where}: {len(temps)} temp files beside the store: {temps[:3]}")
            return 1
    # Kills that all landed on one side of the write would prove nothing.
    if not (outcomes["before"] and outcomes["after"] and mid_write):
        print(f"the kills never landed inside a write ({outcomes['before']} before, "
              f"{outcomes['after']} after, {mid_write} mid-write; seed {seed}): nothing was tested")
        return 1
    print(f"{writes} writes killed with SIGKILL ({writes - timed} at a random moment of "
          f"{usual * 1000:.0f} ms, {timed} as the temp file appeared; seed {seed}): "
          f"{outcomes['before']} left the state before, {outcomes['after']} the state after, "
          f"0 torn; {mid_write} cut mid-write, at most {most_temps} temp file beside it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
