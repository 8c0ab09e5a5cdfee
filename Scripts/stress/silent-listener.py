#!/usr/bin/env python3
"""A TCP listener that accepts connections and never answers: a hung server.

  silent-listener.py PORT_FILE     listens on 127.0.0.1 (a free port, written to
                                   PORT_FILE) until killed
"""
import socket
import sys

if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
    print(__doc__.strip(), file=sys.stderr)
    sys.exit(64)
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(64)
with open(sys.argv[1], "w") as file:
    file.write(str(listener.getsockname()[1]))
held = []
while True:
    connection, _ = listener.accept()
    held.append(connection)  # read nothing, answer nothing, close nothing
