"""The blueprint every resource module uses: its family's error shape, auth and docs."""

import json
from functools import wraps

from flask import current_app
from flask_smorest import Blueprint
from flask_smorest.utils import resolve_schema_instance, unpack_tuple_response
from werkzeug import Response

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
    """A flask-smorest blueprint that knows its family's error body, and sends the
    objects its views build (the /v2 services build the contract's shape)."""

    ARGUMENTS_PARSER = GatewayParser()
    PROJECTS_RECORDS = False  # see ControlBlueprint

    def __init__(self, *args, error_body=error_body, error_schema=ErrorSchema, **kwargs):
        super().__init__(*args, **kwargs)
        self.error_body = error_body
        self.error_schema = error_schema

    def arguments(self, schema, **kwargs):
        """flask-smorest's, with one schema instance for every request: given a class,
        webargs builds a new instance per request, a seventh of a list's time."""
        return super().arguments(resolve_schema_instance(schema), **kwargs)

    def response(self, status_code: int, schema=None, **kwargs):
        """Document the answer with `schema`, but send what the view returns as it is.
        Services build the contract's shape themselves; dumping it once more through
        marshmallow took most of a request's time (bench/README.md). An app built with
        `check_responses` (the test suite's) still dumps every answer through its
        schema and fails on any difference, so the two cannot drift apart."""
        document = super().response(status_code, schema, **kwargs)
        if self.PROJECTS_RECORDS:
            return document
        checked = resolve_schema_instance(schema) if schema is not None else None

        def decorator(view):
            @wraps(view)
            def send(*args, **view_kwargs):
                result, status, headers = unpack_tuple_response(view(*args, **view_kwargs))
                if isinstance(result, Response):
                    return result, status, headers
                if checked is not None and current_app.config["SANDBOX_CHECK_RESPONSES"]:
                    check_response(checked, result)
                return current_app.json.response(result), status or status_code, headers
            return document(send)
        return decorator

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


class ControlBlueprint(GatewayBlueprint):
    """The /sandbox control API: its views return stored records, and the response
    schema picks what is shown of them (marshmallow's dump, as flask-smorest does)."""

    PROJECTS_RECORDS = True


class ResponseDrift(AssertionError):
    """A view answered something its documented schema would not send."""


def check_response(schema, result) -> None:
    """`result` is what `schema` says: dumping it changes nothing (compared as JSON,
    where 1 and true, or 2 and "2", differ) and it loads back."""
    dumped = schema.dump(result)
    if _as_json(dumped) != _as_json(result):
        raise ResponseDrift(f"{type(schema).__name__}: the view sent {result!r}, the schema would send {dumped!r}")
    problems = schema.validate(result)
    if problems:
        raise ResponseDrift(f"{type(schema).__name__}: {problems} in {result!r}")


def _as_json(value) -> str:
    return json.dumps(value, sort_keys=True, default=repr)
