"""A real webhook receiver on 127.0.0.1 for tests: records every request and answers as told."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    """`answers`: statuses to give, in turn (the last one repeats); `delay` seconds
    before answering; `gate`: when set, every answer waits until it is released."""

    def __init__(self, answers=(200,), delay: float = 0, body: bytes = b'{"ok":true}', location: str | None = None,
                 port: int = 0):
        self.answers = list(answers)
        self.delay = delay
        self.body = body
        self.location = location
        self.gate: threading.Event | None = None
        self.requests: list[dict] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.requests.append({"headers": self.headers, "body": raw, "path": self.path})  # any case
                if receiver.gate is not None:
                    receiver.gate.wait(30)
                time.sleep(receiver.delay)
                status = receiver.answers.pop(0) if len(receiver.answers) > 1 else receiver.answers[0]
                self.send_response(status)
                if receiver.location:
                    self.send_header("Location", receiver.location)
                self.send_header("Content-Length", str(len(receiver.body)))
                self.end_headers()
                self.wfile.write(receiver.body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "Receiver":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.gate is not None:
            self.gate.set()
        self.server.shutdown()
        self.server.server_close()

    def events(self) -> list[dict]:
        return [json.loads(request["body"]) for request in self.requests]
