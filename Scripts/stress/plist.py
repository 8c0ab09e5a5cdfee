#!/usr/bin/env python3
"""Reads tpns stores and the emulator's registry for the stress sections.

  plist.py uids STORE              the stored UIDs, one per line (exit 1 if it does not parse)
  plist.py valid STORE             exit 0 if both plistlib and `plutil -lint` accept it
  plist.py registry-matches STORE BASE_URL
                                   exit 0 if the emulator maps the store's udid to
                                   exactly the stored UIDs; else says how they differ
"""
import json
import plistlib
import subprocess
import sys
import urllib.request


def load(path):
    with open(path, "rb") as file:
        value = plistlib.load(file)
    if not isinstance(value, dict):
        raise ValueError("top level is not a dictionary")
    return value


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 64
    verb, store = argv[1], argv[2]
    if verb == "uids":
        for uid in load(store).get("UIDs", []):
            print(uid)
        return 0
    if verb == "valid":
        try:
            load(store)
        except Exception as error:  # any parse failure is the answer
            print(f"plistlib: {error}", file=sys.stderr)
            return 1
        lint = subprocess.run(["plutil", "-lint", store], capture_output=True, text=True)
        if lint.returncode != 0:
            print(f"plutil: {lint.stdout.strip()} {lint.stderr.strip()}", file=sys.stderr)
            return 1
        return 0
    if verb == "registry-matches":
        state = load(store)
        with urllib.request.urlopen(argv[3] + "/_emulator/registry", timeout=10) as answer:
            registry = json.load(answer)
        mapped = sorted(m["uid"] for m in registry["mappings"] if m["udid"] == state.get("UDID"))
        stored = sorted(state.get("UIDs", []))
        if mapped != stored:
            missing = sorted(set(stored) - set(mapped))
            extra = sorted(set(mapped) - set(stored))
            print(f"{len(stored)} stored, {len(mapped)} mapped; missing {missing[:5]}, "
                  f"extra {extra[:5]}", file=sys.stderr)
            return 1
        print(len(mapped))
        return 0
    print(f"plist.py: unknown verb {verb!r}", file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
