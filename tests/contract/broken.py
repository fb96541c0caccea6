"""Deliberately broken variants of the sandbox, served over real HTTP, for proving that
the contract harness catches real faults. Each variant wraps the real app in a WSGI
middleware that breaks one thing the way a faulty gateway would."""

import json
import threading
from io import BytesIO
from contextlib import contextmanager
from typing import Callable, Iterator

from werkzeug.serving import make_server

from sandbox.domain.signing import sign


def _rewrite_json(app, method: str, path_matches: Callable[[str], bool], change: Callable[[dict], dict]):
    """The app, with successful JSON answers to matching requests changed by `change`."""
    def wsgi(environ, start_response):
        if environ["REQUEST_METHOD"] != method or not path_matches(environ["PATH_INFO"]):
            return app(environ, start_response)
        captured = {}

        def capture(status, headers, exc_info=None):
            captured.update(status=status, headers=headers)
        body = b"".join(app(environ, capture))
        if captured["status"].startswith("2"):
            body = json.dumps(change(json.loads(body))).encode()
        headers = [(k, v) for k, v in captured["headers"] if k.lower() != "content-length"]
        start_response(captured["status"], [*headers, ("Content-Length", str(len(body)))])
        return [body]
    return wsgi


def _get_payment(path: str) -> bool:
    return path.startswith("/v2/payment/")


def string_merchant_id(app, merchant: dict, leaked: dict):
    """get-payment answers merchant.id as a string."""
    def change(body):
        body["data"]["merchant"]["id"] = str(body["data"]["merchant"]["id"])
        return body
    return _rewrite_json(app, "GET", _get_payment, change)


def drops_a_field(app, merchant: dict, leaked: dict):
    """get-payment leaves displayStatus out."""
    def change(body):
        body["data"].pop("displayStatus", None)
        return body
    return _rewrite_json(app, "GET", _get_payment, change)


def server_error_on_bad_body(app, merchant: dict, leaked: dict):
    """A body that fails validation on create withdrawal gives 500 instead of 400."""
    def wsgi(environ, start_response):
        if environ["REQUEST_METHOD"] != "POST" or environ["PATH_INFO"] != "/v2/withdrawal":
            return app(environ, start_response)
        status = {}
        body = b"".join(app(environ, lambda s, h, e=None: status.update(code=s, headers=h)))
        if status["code"].startswith("400"):
            start_response("500 INTERNAL SERVER ERROR", [("Content-Type", "application/json")])
            return [b'{"error":"internal error"}']
        start_response(status["code"], status["headers"])
        return [body]
    return wsgi


def leaks_payments(app, merchant: dict, leaked: dict):
    """List payments also shows another merchant's payment."""
    def change(body):
        body["results"].append(leaked)
        body["total"] += 1
        return body
    return _rewrite_json(app, "GET", lambda path: path == "/v2/payment", change)


def skips_hmac(app, merchant: dict, leaked: dict):
    """Any X-HMAC is accepted: the variant signs each body itself before the app checks it."""
    def wsgi(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST" and "HTTP_X_HMAC" in environ:
            length = int(environ.get("CONTENT_LENGTH") or 0)
            raw = environ["wsgi.input"].read(length)
            environ["HTTP_X_HMAC"] = sign(merchant["hmacSecret"], raw, "sha256", "hex")
            environ["wsgi.input"] = BytesIO(raw)
        return app(environ, start_response)
    return wsgi


# variant -> (the check that must name it, the operations that show it)
PAYMENTS = ("GET /v2/payment", "GET /v2/payment/{id}")
VARIANTS = {
    string_merchant_id: ("Response violates schema", PAYMENTS),
    drops_a_field: ("Response violates schema", PAYMENTS),
    server_error_on_bad_body: ("Server error", ("POST /v2/withdrawal",)),
    leaks_payments: ("merchant_isolation", ("GET /v2/payment",)),
    skips_hmac: ("hmac_enforced", ("POST /v2/deposit-addresses/create", "POST /v2/withdrawal")),
}


@contextmanager
def served(app) -> Iterator[str]:
    """`app` on 127.0.0.1 with a threaded WSGI server; its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
