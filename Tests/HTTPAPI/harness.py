"""What the HTTP API tests share: tpns-server on a free port, and named checks."""

import contextlib
import subprocess
import tempfile
import time
from pathlib import Path


@contextlib.contextmanager
def emulator(bin_dir):
    """tpns-server from BIN_DIR on a port of its own choosing; yields the port."""
    port_file = Path(tempfile.mkdtemp(prefix="tpns-api-")) / "port"
    process = subprocess.Popen(
        [str(Path(bin_dir) / "tpns-server"), "--port", "0", "--port-file", str(port_file), "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.monotonic() > deadline:
                raise RuntimeError("tpns-server did not start")
            time.sleep(0.05)
        yield int(port_file.read_text())
    finally:
        process.terminate()
        process.wait(10)


class Checks:
    """Prints `ok   name` or `FAIL name: problems` for each check, then the tally."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def __call__(self, name, problems):
        if problems:
            self.failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
        else:
            self.passed += 1
            print(f"ok   {name}")

    def summary(self):
        """The last line, and the exit status: 1 when one failed."""
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
