#!/usr/bin/env python3
"""A minimal HTTPS server that answers 200 "ok" to every GET and POST.

  https-server.py CERT KEY PORT_FILE    listens on 127.0.0.1 (a free port,
                                        written to PORT_FILE) until killed
"""
import http.server
import ssl
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = answer
    do_POST = answer

    def log_message(self, *args):
        pass


if len(sys.argv) != 4 or sys.argv[1] in ("-h", "--help"):
    print(__doc__.strip(), file=sys.stderr)
    sys.exit(64)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(sys.argv[3], "w") as file:
    file.write(str(server.server_address[1]))
server.serve_forever()
