#!/usr/bin/env python3
"""Times commands side by side: each round runs every case once, in turn
(alternating, so that a noisy moment costs them alike), after its prepare
step; prints each case's median in milliseconds as JSON.

Each round runs the cases in a new random order (seeded: the same orders
every run): what ran just before a command changes its time (a command run
after curl, whose libraries evicted tpns's code and data from the caches,
took 0.3-0.4 ms longer than after another tpns), and in a fixed order each
case would always follow the same one, a bias of its own in every ratio.
COMPARE_ORDER=fixed keeps the file's order.

Usage: compare.py ROUNDS CASES.json
CASES.json: [{"name": ..., "argv": [...], "prepare": [...] or null, "env": {...}}]
A case with "group" is timed as the sum of its steps, each prepared and run
in order: {"name": ..., "group": [{"argv": ..., "prepare": ...}, ...]}.
"""
import json
import os
import random
import statistics
import subprocess
import sys
import time

DEVNULL = os.open(os.devnull, os.O_RDWR)
# A failing command's error output is shown: stderr goes to a file, not a pipe,
# so that reading it never paces the command.
STDERR = os.open(f"/tmp/compare-stderr.{os.getpid()}", os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
os.unlink(f"/tmp/compare-stderr.{os.getpid()}")


def run(argv, env):
    """Wall time of one run, in ms; fails loudly if the command fails."""
    start = time.perf_counter_ns()
    pid = os.posix_spawnp(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_DUP2, DEVNULL, 0),
        (os.POSIX_SPAWN_DUP2, DEVNULL, 1),
        (os.POSIX_SPAWN_DUP2, STDERR, 2),
    ])
    _, status = os.waitpid(pid, 0)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    if os.waitstatus_to_exitcode(status) != 0:
        os.lseek(STDERR, 0, os.SEEK_SET)
        said = os.read(STDERR, 4096).decode(errors="replace")
        sys.exit(f"compare.py: {' '.join(argv)} exited {os.waitstatus_to_exitcode(status)}:\n{said}")
    os.ftruncate(STDERR, 0)
    os.lseek(STDERR, 0, os.SEEK_SET)
    return elapsed


def main():
    rounds = int(sys.argv[1])
    cases = json.load(open(sys.argv[2]))
    env = dict(os.environ)
    samples = {case["name"]: [] for case in cases}
    shuffled = os.environ.get("COMPARE_ORDER") != "fixed"
    order = random.Random(16)
    for index in range(rounds + 2):
        if shuffled:
            cases = order.sample(cases, len(cases))
        for case in cases:
            steps = case.get("group") or [case]
            total = 0.0
            for step in steps:
                if step.get("prepare"):
                    # A prepare step may find nothing to undo (a remove of a UID not stored).
                    subprocess.run(step["prepare"], env=env, check=False,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                total += run(step["argv"], {**env, **step.get("env", {})})
            if index >= 2:  # two warm-up rounds
                samples[case["name"]].append(total)
    if os.environ.get("COMPARE_SAMPLES"):
        # Every sample, in run order, for a look at a distribution.
        with open(os.environ["COMPARE_SAMPLES"], "w") as out:
            json.dump(samples, out)
    print(json.dumps({name: statistics.median(values) for name, values in samples.items()}))


if __name__ == "__main__":
    main()
