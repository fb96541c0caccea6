"""Rate limits: the spec's three limited operations, their defaults, and a
merchant's own thresholds (the `rateLimits` setting), as Flask-Limiter reads them."""

RATE_LIMITED_OPERATIONS = ("estimateNetworkFee", "listPayments", "listWithdrawals")
# Generous: no ordinary test suite meets it; a merchant lowers it to rehearse 429.
DEFAULT_RATE_LIMIT = {"requests": 6000, "seconds": 60}
MAX_REQUESTS = 1_000_000
MAX_WINDOW_SECONDS = 86_400


def rate_limit(settings: dict, operation: str) -> str:
    """The limit of `operation` under a merchant's `rateLimits` setting, in the
    notation of the `limits` library: `5 per 60 second`."""
    chosen = settings.get(operation) or DEFAULT_RATE_LIMIT
    return f"{chosen['requests']} per {chosen['seconds']} second"
