"""Rate limits (429) on the operations the spec limits, per API key and operation,
with Flask-Limiter: a `Retry-After` header, and the operation's family error body
(the app's error handlers render the 429)."""

from functools import partial

from flask import Flask, request
from flask_limiter import Limiter

from sandbox.api import context
from sandbox.api.auth import API_KEY_HEADER
from sandbox.domain.limits import RATE_LIMITED_OPERATIONS, rate_limit
from sandbox.services import merchants


def install_rate_limits(app: Flask) -> Limiter:
    """A limiter of this app's own (counters in memory, per process) around every
    view of a limited operation."""
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


def _api_key() -> str:
    return request.headers.get(API_KEY_HEADER, "")


def _limit_of(operation: str) -> str:
    """The merchant's threshold when the key is a merchant's; the default otherwise
    (the call then fails with 401 anyway)."""
    merchant = merchants.find_by_key(context(), _api_key())
    return rate_limit(merchant["rateLimits"] if merchant else {}, operation)
