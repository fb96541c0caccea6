"""The blueprint every resource module uses: its family's error shape, auth and docs."""

from flask_smorest import Blueprint

from sandbox.api.auth import SIGNATURE_HEADER, merchant_required
from sandbox.api.errors import ErrorSchema, GatewayParser, error_body
from sandbox.domain.limits import RATE_LIMITED_OPERATIONS

DESCRIPTIONS = {400: "Validation failure", 401: "Invalid or missing API-KEY",
                403: "Invalid X-HMAC signature, or data of another merchant", 404: "Not found",
                409: "Conflicts with what is recorded", 429: "Rate limit exceeded (see Retry-After)",
                500: "Server-side error"}
API_KEY_SECURITY = [{"ApiKey": []}]
SIGNATURE_PARAMETER = {
    "in": "header", "name": SIGNATURE_HEADER, "required": True, "schema": {"type": "string"},
    "description": "HMAC of the exact raw request body with the merchant's HMAC secret "
                   "(sandbox default: lowercase hex HMAC-SHA256)",
}


class GatewayBlueprint(Blueprint):
    """A flask-smorest blueprint that knows its family's error body."""

    ARGUMENTS_PARSER = GatewayParser()

    def __init__(self, *args, error_body=error_body, error_schema=ErrorSchema, **kwargs):
        super().__init__(*args, **kwargs)
        self.error_body = error_body
        self.error_schema = error_schema

    def errors(self, *statuses: int):
        """Document the error responses an operation can give, in this family's shape."""
        def decorator(view):
            for status in statuses:
                view = self.alt_response(status, schema=self.error_schema, description=DESCRIPTIONS[status])(view)
            return view
        return decorator

    def authenticated(self, *, signed: bool = False, operation: str | None = None):
        """API-KEY (and, when `signed`, X-HMAC) checked before anything else, and documented.
        `operation` names a gateway operation: its operationId, what faults and rate
        limits refer to. Goes right below `route`, above `arguments`."""
        def decorator(view):
            view = self.doc(security=API_KEY_SECURITY, **({"parameters": [SIGNATURE_PARAMETER]} if signed else {}),
                            **({"operationId": operation} if operation else {}))(view)
            view = self.errors(*((401, 403) if signed else (401,)),
                               *((429,) if operation in RATE_LIMITED_OPERATIONS else ()))(view)
            return merchant_required(signed=signed, operation=operation)(view)
        return decorator
