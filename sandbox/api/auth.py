"""API-KEY authentication and X-HMAC verification for /v2 and /sandbox endpoints."""

from functools import wraps

from flask import g, request

from sandbox.api import context
from sandbox.services import merchants

API_KEY_HEADER = "API-KEY"
SIGNATURE_HEADER = "X-HMAC"


def merchant_required(*, signed: bool = False):
    """Resolve the merchant from API-KEY into `g.merchant` (401 otherwise) and, for
    endpoints that create something, check X-HMAC over the raw body (403).
    Both checks come before any validation of the request, as on the gateway."""
    def decorator(view):
        @wraps(view)
        def wrapper(*args, **kwargs):
            g.merchant = merchants.authenticate(context(), request.headers.get(API_KEY_HEADER))
            if signed:
                merchants.verify_signature(g.merchant, request.get_data(cache=True),
                                           request.headers.get(SIGNATURE_HEADER))
            return view(*args, **kwargs)
        return wrapper
    return decorator
