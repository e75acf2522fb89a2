#!/usr/bin/env python3
"""A webhook receiver for the delivery tests, on 127.0.0.1: it checks each delivery's Standard Webhooks
signature with its own code (Python's hmac, not the server's), records it, and answers as it is told.

    webhook_receiver.py PORT SECRET      (PORT 0 picks a free one; the port is printed on the first line)

POST /_mode with a body of ok, fail, slow, redirect or big sets how later deliveries are answered: 200,
500, 200 after 15 s, 302, or 200 with a 10 MB body. GET /_received gives every delivery so far as JSON:
[{"id", "timestamp", "verified", "body", "mode"}, ...], in the order they came.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1])
KEY = base64.b64decode(sys.argv[2].removeprefix("whsec_"))
LOCK = threading.Lock()
RECEIVED: list[dict] = []
MODE = ["ok"]


def verified(webhook_id: str, timestamp: str, signatures: str, body: bytes) -> bool:
    expected = base64.b64encode(hmac.new(KEY, f"{webhook_id}.{timestamp}.".encode() + body, hashlib.sha256).digest())
    return any(
        entry.startswith("v1,") and hmac.compare_digest(entry[3:].encode(), expected) for entry in signatures.split(" ")
    )


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status: int, body: bytes = b"", headers: dict | None = None) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path != "/_received":
            self.answer(404)
            return
        with LOCK:
            body = json.dumps(RECEIVED).encode()
        self.answer(200, body, {"Content-Type": "application/json"})

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/_mode":
            MODE[0] = body.decode()
            self.answer(204)
            return
        mode = MODE[0]
        webhook_id = self.headers.get("webhook-id", "")
        timestamp = self.headers.get("webhook-timestamp", "")
        with LOCK:
            RECEIVED.append({
                "id": webhook_id, "timestamp": timestamp, "path": self.path, "mode": mode,
                "verified": verified(webhook_id, timestamp, self.headers.get("webhook-signature", ""), body),
                "contentType": self.headers.get("Content-Type", ""), "body": body.decode(errors="replace"),
            })
        if mode == "fail":
            self.answer(500, b"failing on purpose")
        elif mode == "slow":
            time.sleep(15)
            self.answer(200, b"late")
        elif mode == "redirect":
            self.answer(302, b"", {"Location": "/elsewhere"})
        elif mode == "big":
            self.answer(200, b"x" * (10 << 20))
        else:
            self.answer(200, b"ok")

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass


# A listen backlog for a sender's 64 connections at once from each of two servers: with Python's
# default of 5, connections wait for the kernel's SYN retries, and an attempt can time out at the
# sender after the receiver took it.
ThreadingHTTPServer.request_queue_size = 256
server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
