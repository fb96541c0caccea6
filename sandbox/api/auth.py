"""API-KEY authentication and X-HMAC verification for /v2 and /sandbox endpoints, and
the admin token that guards merchant creation."""

import hmac
import time
from functools import wraps

from flask import current_app, g, request

from sandbox.api import context
from sandbox.domain import faults as fault_rules
from sandbox.domain.errors import InjectedFault, Unauthorized
from sandbox.services import engine, faults, merchants

API_KEY_HEADER = "API-KEY"
SIGNATURE_HEADER = "X-HMAC"
ADMIN_TOKEN_HEADER = "X-Sandbox-Admin-Token"


def merchant_required(*, signed: bool = False, operation: str | None = None):
    """Resolve the merchant from API-KEY into `g.merchant` (401 otherwise) and, for
    endpoints that create something, check X-HMAC over the raw body (403).
    Both checks come before any validation of the request, as on the gateway.
    Then everything due on the merchant's clock is applied, so the request sees
    the state of the merchant's now, whether or not the ticker has run, and the
    faults the merchant injected into this gateway `operation` act on the call."""
    def decorator(view):
        @wraps(view)
        def wrapper(*args, **kwargs):
            g.merchant = merchants.authenticate(context(), request.headers.get(API_KEY_HEADER))
            if signed:
                merchants.verify_signature(g.merchant, request.get_data(cache=True),
                                           request.headers.get(SIGNATURE_HEADER))
            engine.catch_up(context(), g.merchant["id"])
            if operation is not None:
                _suffer_faults(g.merchant, operation)
            return view(*args, **kwargs)
        wrapper.operation = operation  # what the rate limits of sandbox.api.limits look for
        return wrapper
    return decorator


def _suffer_faults(merchant: dict, operation: str) -> None:
    """Latency first (outside the store's lock), then an injected error, if any."""
    found = faults.hits(context(), merchant, operation)
    delay = min(fault_rules.MAX_LATENCY_MS,  # several latency faults add up to what one may give at most
                sum(hit.latency_ms for hit in found if hit.kind == fault_rules.LATENCY))
    if delay:
        time.sleep(delay / 1000)
    for hit in found:
        if hit.kind == fault_rules.ERROR:
            raise InjectedFault(hit.status, hit.message)


def admin_token_required(view):
    """When the server has an admin token, only its holder may pass."""
    @wraps(view)
    def wrapper(*args, **kwargs):
        expected = current_app.config.get("SANDBOX_ADMIN_TOKEN")
        given = request.headers.get(ADMIN_TOKEN_HEADER, "")
        if expected and not hmac.compare_digest(given.encode(), expected.encode()):
            raise Unauthorized(f"a valid {ADMIN_TOKEN_HEADER} header is required")
        return view(*args, **kwargs)
    return wrapper
