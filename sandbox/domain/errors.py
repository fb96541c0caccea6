"""Errors the rules raise; the HTTP layer maps each kind to a status and a body shape.

`num` is a stable machine-readable code. Only the network-fee family shows it
to clients (the spec's `{code, num, message}` body); the others carry it for logs.
"""


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
    """No such resource for this merchant (get-payment maps it to 400, as the spec does)."""


class Conflict(GatewayError):
    """The resource is not in a state that allows the operation: 409."""
