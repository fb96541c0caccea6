"""API-KEY authentication and X-HMAC verification for /v2 and /sandbox endpoints, and
the admin token that guards merchant creation."""

import hmac
from functools import wraps

from flask import current_app, g, request

from sandbox.api import context
from sandbox.domain.errors import Unauthorized
from sandbox.services import engine, merchants

API_KEY_HEADER = "API-KEY"
SIGNATURE_HEADER = "X-HMAC"
ADMIN_TOKEN_HEADER = "X-Sandbox-Admin-Token"


def merchant_required(*, signed: bool = False):
    """Resolve the merchant from API-KEY into `g.merchant` (401 otherwise) and, for
    endpoints that create something, check X-HMAC over the raw body (403).
    Both checks come before any validation of the request, as on the gateway.
    Then everything due on the merchant's clock is applied, so the request sees
    the state of the merchant's now, whether or not the ticker has run."""
    def decorator(view):
        @wraps(view)
        def wrapper(*args, **kwargs):
            g.merchant = merchants.authenticate(context(), request.headers.get(API_KEY_HEADER))
            if signed:
                merchants.verify_signature(g.merchant, request.get_data(cache=True),
                                           request.headers.get(SIGNATURE_HEADER))
            engine.catch_up(context(), g.merchant["id"])
            return view(*args, **kwargs)
        return wrapper
    return decorator


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
