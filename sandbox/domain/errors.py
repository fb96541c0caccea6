"""Errors the rules raise; the HTTP layer maps each kind to a status and a body shape.

`num` is a stable machine-readable code. Only the network-fee family shows it
to clients (the spec's `{code, num, message}` body); the others carry it for logs.
"""


class Num:
    """Every stable `num` code, in one place (the README lists them)."""

    INVALID = 10000
    UNAUTHORIZED = 10001
    FORBIDDEN = 10003
    NOT_FOUND = 10004
    METHOD_NOT_ALLOWED = 10005
    CONFLICT = 10009
    TOO_LARGE = 10013
    RATE_LIMITED = 10029
    INTERNAL = 10500
    INJECTED = 10590
    MISSING_NETWORK = 10040
    MISSING_ADDRESS_FROM = 10041
    MISSING_ADDRESS_TO = 10042
    UNKNOWN_NETWORK = 10043
    UNKNOWN_ASSET = 10044
    INVALID_ADDRESS_TO = 10045
    UNKNOWN_ADDRESS_FROM = 10046
    WITHDRAWALS_DISABLED = 10047


class GatewayError(Exception):
    """Base of every error a client can cause. `message` is the text clients see."""

    def __init__(self, message: str, num: int | None = None):
        super().__init__(message)
        self.message = message
        self.num = num


class InvalidRequest(GatewayError):
    """Validation failure: 400."""


class Unauthorized(GatewayError):
    """Missing or unknown API key (or admin token): 401."""


class Forbidden(GatewayError):
    """Bad signature, or data of someone else: 403."""


class NotFound(GatewayError):
    """No such resource for this merchant: 404."""


class Conflict(GatewayError):
    """The resource is not in a state that allows the operation: 409."""


class InjectedFault(GatewayError):
    """A failure a merchant asked the sandbox to rehearse (POST /sandbox/faults): any status."""

    def __init__(self, status: int, message: str):
        super().__init__(message, num=Num.INJECTED)
        self.status = status
