#!/usr/bin/env python3
"""A time-stamp authority for the tests: RFC 3161 over HTTP, answered by `openssl ts -reply`
with the authority TestTimeStampAuthority made in DIRECTORY. Prints its port, then serves until
killed. Paths other than / answer as broken authorities do:
  /slow      the right reply, 20 s late       /garbage  bytes that are no reply
  /html      an HTML page (a captive portal)  /other    a reply to another request
  /down      503 Service Unavailable          /late     the right reply, 3 s late
Usage: tsa_server.py DIRECTORY [PORT]"""
import http.server
import os
import subprocess
import sys
import tempfile
import time

directory = sys.argv[1]
# Started by a test process whose other threads spawn tools at the same time, it may inherit
# their pipes; holding one open would keep that tool's reader waiting for its end.
os.closerange(3, 65536)


def reply(query):
    with tempfile.TemporaryDirectory() as scratch:
        q, r = os.path.join(scratch, 'q.tsq'), os.path.join(scratch, 'r.tsr')
        with open(q, 'wb') as f:
            f.write(query)
        subprocess.run(['openssl', 'ts', '-reply', '-queryfile', q, '-config', os.path.join(directory, 'tsa.cnf'), '-out', r],
                       check=True, capture_output=True)
        with open(r, 'rb') as f:
            return f.read()


class Authority(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        query = self.rfile.read(int(self.headers.get('Content-Length', 0)))
        with open(os.path.join(directory, 'queries.log'), 'a') as log:
            log.write(f'{self.path} {self.headers.get("Content-Type")} {len(query)}\n')
        kind, body = 'application/timestamp-reply', None
        if self.path == '/down':
            self.send_response(503)
            self.end_headers()
            return
        if self.path == '/slow':
            time.sleep(20)
        if self.path == '/late':
            time.sleep(3)
        if self.path == '/garbage':
            body = b'\x30\x03garbage'
        elif self.path == '/html':
            kind, body = 'text/html', b'<html>Please log in</html>'
        elif self.path == '/other':
            other = subprocess.run(['openssl', 'ts', '-query', '-digest', '00' * 32, '-sha256', '-cert'], check=True, capture_output=True).stdout
            body = reply(other)
        else:
            body = reply(query)
        self.send_response(200)
        self.send_header('Content-Type', kind)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[2]) if len(sys.argv) > 2 else 0), Authority)
print(server.server_address[1], flush=True)
server.serve_forever()
