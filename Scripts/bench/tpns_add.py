#!/usr/bin/env python3
"""What a user would write instead of `tpns add UID`: the same job in plain
Python (standard library only), for Scripts/bench.sh to time beside tpns.

Under the store's lock (flock on STORE.lock, as tpns takes it): read the
property list with plistlib, add the UID, write it back durably (a temporary
file, fsync, rename, fsync of the directory); then POST the whole list as one
cmd=mapsync with urllib, and record it as acknowledged. It checks the UID's
syntax, but none of what tpns also checks and records (other servers, former
phones, settings, retries).

Usage: tpns_add.py STORE SERVER UID
"""
import base64
import fcntl
import json
import os
import plistlib
import re
import sys
import urllib.parse
import urllib.request


def main(store, server, uid):
    uid = uid.strip().upper()
    if not re.fullmatch(r"[A-Z0-9]{20}", uid):
        sys.exit(f"invalid UID {uid!r}")
    with open(store + ".lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with open(store, "rb") as file:
            state = plistlib.load(file)
        uids = state.setdefault("UIDs", [])
        if uid not in uids:
            uids.append(uid)
        write(store, state)
        token = state["Token"]
        entries = [{"uid": u} for u in uids]
        form = urllib.parse.urlencode(
            [
                ("cmd", "mapsync"),
                ("os", state.get("OS", "ios")),
                ("appid", state.get("AppID", "com.tutk.cc.samples.tpns.ios")),
                ("udid", state.get("UDID", token)),
                ("map", base64.b64encode(json.dumps(entries, separators=(",", ":")).encode()).decode()),
            ],
            quote_via=urllib.parse.quote,
        ).encode()
        request = urllib.request.Request(
            server, data=form, headers={"Content-Type": "application/x-www-form-urlencoded"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            if response.status != 200:
                sys.exit(f"the server answered {response.status}")
        state.setdefault("Servers", {}).setdefault(server, {})["UIDs"] = list(uids)
        write(store, state)


def write(store, state):
    directory = os.path.dirname(os.path.abspath(store))
    temporary = f"{store}.tmp-{os.getpid()}"
    with open(temporary, "wb") as file:
        plistlib.dump(state, file, fmt=plistlib.FMT_XML)
        file.flush()
        os.fsync(file.fileno())
    os.rename(temporary, store)
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
