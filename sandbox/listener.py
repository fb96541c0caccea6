"""`gateway-sandbox webhooks listen`: a local receiver that checks each webhook's
signature and prints it, and can pass it on to your own endpoint (as `stripe listen`)."""

import json
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from sandbox.domain import signing

MAX_BODY = 1024 * 1024


def make_handler(secret: str | None, algorithm: str, encoding: str, forward_to: str | None, out=sys.stdout):
    class WebhookHandler(BaseHTTPRequestHandler):
        def do_POST(self):
            declared = self.headers.get("Content-Length") or "0"
            if not declared.isdigit():
                self._answer(400, {"error": "Content-Length must be a number"})
                return
            body = self.rfile.read(min(int(declared), MAX_BODY))
            verified = None if secret is None else signing.verify(secret, body, self.headers.get("X-HMAC"),
                                                                   algorithm, encoding)
            print(self._line(body, verified), file=out, flush=True)
            if verified is False:
                self._answer(401, {"error": "invalid signature"})
                return
            if forward_to:
                self._forward(body)
                return
            self._answer(200, {"received": True})

        def _line(self, body: bytes, verified: bool | None) -> str:
            try:
                event = json.loads(body)
                what = f"{event.get('type')} {event.get('id')}"
                data = event.get("data") or {}
                detail = " ".join(f"{key}={data[key]}" for key in ("id", "status", "displayStatus") if key in data)
            except ValueError:
                what, detail = "(not JSON)", body[:80].decode("utf-8", "replace")
            check = {None: "unchecked", True: "signature ok", False: "BAD SIGNATURE"}[verified]
            attempt = self.headers.get("X-Webhook-Attempt", "?")
            return f"<-- {what} attempt {attempt} [{check}] {detail}".rstrip()

        def _forward(self, body: bytes) -> None:
            headers = {name: value for name, value in self.headers.items()
                       if name.lower().startswith("x-") or name.lower() == "content-type"}
            request = urllib.request.Request(forward_to, data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    status, answer = response.status, response.read(MAX_BODY)
            except urllib.error.HTTPError as error:
                status, answer = error.code, error.read(MAX_BODY)
            except OSError as error:
                print(f"--> {forward_to} failed: {error}", file=out, flush=True)
                self._answer(502, {"error": f"forwarding failed: {error}"})
                return
            print(f"--> {forward_to} answered {status}", file=out, flush=True)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def _answer(self, status: int, payload: dict) -> None:
            raw = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *args):  # the line printed per event says it all
            pass

    return WebhookHandler


def serve(host: str, port: int, secret: str | None, algorithm: str, encoding: str, forward_to: str | None) -> None:
    server = ThreadingHTTPServer((host, port), make_handler(secret, algorithm, encoding, forward_to))
    print(f"Listening for webhooks on http://{host}:{port}/ "
          f"({'checking signatures' if secret else 'not checking signatures: pass --secret'})"
          + (f", forwarding to {forward_to}" if forward_to else ""), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
