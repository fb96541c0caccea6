"""Rate limits (429) on the operations the spec limits, per API key and operation,
with Flask-Limiter: a `Retry-After` header, and the operation's family error body
(the app's error handlers render the 429)."""

from functools import partial

from flask import Flask, Response, request
from flask_limiter import Limiter

from sandbox.api import context
from sandbox.api.auth import API_KEY_HEADER
from sandbox.domain.limits import RATE_LIMITED_OPERATIONS, rate_limit
from sandbox.services import merchants


def install_rate_limits(app: Flask) -> Limiter:
    """A limiter of this app's own (counters in memory, per process) around every
    view of a limited operation."""
    # Registered before the limiter's own hook, so it runs after it (Flask runs them in reverse).
    app.after_request(_retry_after_on_429_only)
    limiter = Limiter(key_func=_api_key, app=app, storage_uri="memory://", headers_enabled=True,
                      strategy="fixed-window")
    limited = set()
    for endpoint, view in list(app.view_functions.items()):
        operation = getattr(view, "operation", None)
        if operation in RATE_LIMITED_OPERATIONS:
            app.view_functions[endpoint] = limiter.limit(partial(_limit_of, operation))(view)
            limited.add(endpoint)

    @limiter.request_filter
    def unlimited() -> bool:
        """Other endpoints skip the limiter's work (a fifth of a get-payment's time)."""
        return request.endpoint not in limited

    return limiter


def _retry_after_on_429_only(response: Response) -> Response:
    """Flask-Limiter sends Retry-After with every answer of a limited endpoint; on an
    injected 503 a client library (urllib3's Retry) would wait for the whole window."""
    if response.status_code != 429:
        response.headers.pop("Retry-After", None)
    return response


def _api_key() -> str:
    return request.headers.get(API_KEY_HEADER, "")


def _limit_of(operation: str) -> str:
    """The merchant's threshold when the key is a merchant's; the default otherwise
    (the call then fails with 401 anyway)."""
    merchant = merchants.find_by_key(context(), _api_key())
    return rate_limit(merchant["rateLimits"] if merchant else {}, operation)
