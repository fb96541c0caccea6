"""Error responses. Each endpoint family keeps the body shape the spec shows for it:

- `{"error": text}`: get payment (the spec's shape) and, where the spec shows none,
  every other endpoint, /sandbox included;
- `{"code", "num", "message"}`: network fee.

Bad input never reaches a 500: parsing and validation errors become 400 here.
"""

import logging

import marshmallow as ma
from flask import current_app, jsonify, request
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import BadHost, HTTPException, MethodNotAllowed

from sandbox.domain.errors import (Conflict, Forbidden, GatewayError, InjectedFault, InvalidRequest, NotFound, Num,
                                   Unauthorized)

log = logging.getLogger(__name__)

STATUS_BY_ERROR = {InvalidRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, Conflict: 409}
# `num` for errors that carry none of their own (network-fee bodies always have one).
DEFAULT_NUM_BY_STATUS = {400: Num.INVALID, 401: Num.UNAUTHORIZED, 403: Num.FORBIDDEN, 404: Num.NOT_FOUND,
                         405: Num.METHOD_NOT_ALLOWED, 409: Num.CONFLICT, 413: Num.TOO_LARGE, 429: Num.RATE_LIMITED,
                         500: Num.INTERNAL}


class ErrorSchema(ma.Schema):
    error = ma.fields.String(required=True, metadata={"description": "What went wrong"})


class CodedErrorSchema(ma.Schema):
    code = ma.fields.Integer(required=True, metadata={"description": "HTTP status code"})
    num = ma.fields.Integer(required=True, metadata={"description": "Stable machine-readable error code"})
    message = ma.fields.String(required=True)


def error_body(status: int, message: str, num: int | None) -> dict:
    return {"error": message}


def coded_error_body(status: int, message: str, num: int | None) -> dict:
    return {"code": status, "num": num or DEFAULT_NUM_BY_STATUS.get(status, status * 10), "message": message}


def first_message(messages, path: str = "") -> str:
    """The first marshmallow message as one sentence naming its field.

    Messages written as sentences that start with the field name (the spec's
    `assetNetwork is required`) are kept as they are; others get `field: ` before.
    """
    if isinstance(messages, list):
        return first_message(messages[0], path) if messages else f"{path}: invalid value"
    if isinstance(messages, dict) and messages:
        key, value = next(iter(messages.items()))
        if key == "_schema":
            return first_message(value, path)
        return first_message(value, f"{path}.{key}" if path else str(key))
    text = str(messages)
    if text in _SENTENCES:
        return f"{path or 'request body'} {_SENTENCES[text]}"
    leaf = path.rsplit(".", 1)[-1]
    named = leaf and (text.startswith(leaf) or text.startswith(path))  # an empty key names nothing
    return text if not path or named else f"{path}: {text}"


# marshmallow's stock messages, as the end of a sentence that starts with the field.
_SENTENCES = {
    "Missing data for required field.": "is required",
    "Field may not be null.": "must not be null",
    "Not a valid string.": "must be a string",
    "Not a valid integer.": "must be an integer",
    "Not a valid boolean.": "must be a boolean",
    "Not a valid list.": "must be a list",
    "Invalid input type.": "must be a JSON object",
    "Not a valid URL.": "must be a valid URL",
    "Not a valid email address.": "must be a valid e-mail address",
    "Not valid Unicode text.": "must be valid Unicode text without control characters",
}


class GatewayParser(FlaskParser):
    """webargs parser whose failures are the gateway's 400s, not webargs' 422s."""

    DEFAULT_VALIDATION_STATUS = 400

    def handle_error(self, error, req, schema, *, error_status_code, error_headers):
        """A schema may give `ERROR_NUMS`, the `num` of an error in each field."""
        messages = error.messages
        if isinstance(messages, dict) and len(messages) == 1 and next(iter(messages)) in self.__location_map__:
            messages = next(iter(messages.values()))  # webargs nests errors under the location
        field = next(iter(messages), None) if isinstance(messages, dict) else None
        raise InvalidRequest(first_message(messages), num=getattr(schema, "ERROR_NUMS", {}).get(field))

    def load_querystring(self, req, schema):
        """A parameter that takes one value may be given once: which of two values
        would count is anybody's guess, so the request is refused."""
        for key in req.args:
            field = schema.fields.get(key)
            if field is not None and not isinstance(field, ma.fields.List) and len(req.args.getlist(key)) > 1:
                raise InvalidRequest(f"{key} must be given once")
        return super().load_querystring(req, schema)

    def _raw_load_json(self, req):
        if not is_json_request(req):
            if req.get_data(cache=True):
                raise InvalidRequest("Content-Type must be application/json")
            return core.missing
        try:
            return core.parse_json(req.get_data(cache=True))
        except (ValueError, RecursionError) as error:  # json's decode errors, and integers too long to parse
            if isinstance(error, ValueError) and getattr(error, "doc", None) == "":
                return core.missing
            raise InvalidRequest("request body is not valid JSON") from None



def _blueprint_of_path():
    """The blueprint that serves this path, even when routing failed on the method
    (405), so that a path keeps its family's error shape."""
    if request.blueprint:
        return current_app.blueprints.get(request.blueprint)
    try:
        adapter = current_app.url_map.bind_to_environ(request.environ)
    except (ValueError, UnicodeError, HTTPException):  # a Host header no URL can be built on
        return None
    for method in ("GET", "POST", "PATCH"):
        try:
            endpoint, _ = adapter.match(method=method)
        except HTTPException:
            continue
        return current_app.blueprints.get(endpoint.rpartition(".")[0])
    return None


def render_error(status: int, message: str, num: int | None = None, headers=None):
    body = getattr(_blueprint_of_path(), "error_body", error_body)(status, message, num)
    response = jsonify(body)
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def register_error_handlers(app) -> None:
    @app.errorhandler(GatewayError)
    def gateway_error(error: GatewayError):
        status = error.status if isinstance(error, InjectedFault) else STATUS_BY_ERROR[type(error)]
        return render_error(status, error.message, error.num)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        headers = {}
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            headers["Allow"] = ", ".join(sorted(error.valid_methods))
        message = {404: "not found", 405: "method not allowed", 429: "rate limit exceeded"}.get(error.code,
                                                                                               error.description)
        if isinstance(error, BadHost):
            message = "invalid Host header"
        return render_error(error.code, message, headers=headers)

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return render_error(500, "internal error")
