"""`gateway-sandbox proxy`: a validating proxy in front of a gateway, as Prism's proxy mode.

Every request is forwarded unchanged to the upstream (staging or the sandbox) and its
answer returned unchanged, except for one added header, `X-Contract-Violations`, that
counts what strayed from the contract on either side. Each violation is logged with
the operation, the side and JSON path, and the rule. openapi-core does the checking.
"""

import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import requests
import yaml
from openapi_core import OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

VIOLATIONS_HEADER = "X-Contract-Violations"
HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
              "transfer-encoding", "upgrade", "host", "content-length", "content-encoding"}


@dataclass(frozen=True)
class Violation:
    operation: str  # "GET /v2/payment/{id}", or the raw path when no operation matches
    side: str  # request or response
    path: str  # JSON pointer inside the body, or the parameter ("query.limit")
    rule: str

    def __str__(self) -> str:
        return f"{self.operation}: {self.side} {self.path or '(whole)'}: {self.rule}"


class Validator:
    """The contract, ready to check requests and responses."""

    def __init__(self, contract: str):
        self.openapi = OpenAPI.from_dict(yaml.safe_load(Path(contract).read_text(encoding="utf-8")))
        self.spec = self.openapi.spec

    def check(self, request: Request, response: Response | None) -> list[Violation]:
        wrapped = WerkzeugOpenAPIRequest(request)
        operation = self._operation(request)
        found = [*self._violations(operation, "request", self.openapi.unmarshal_request(wrapped).errors)]
        if response is not None and not any(v.path == "path" for v in found):  # no operation: no answer to check
            result = self.openapi.unmarshal_response(wrapped, WerkzeugOpenAPIResponse(response))
            found += self._violations(operation, "response", result.errors)
        return found

    def _operation(self, request: Request) -> str:
        for template, item in self.spec.get("paths", {}).items():
            pattern = "^" + "".join("[^/]+" if part.startswith("{") else re.escape(part)
                                    for part in _split(template)) + "$"
            if request.method.lower() in item.keys() and re.match(pattern, request.path):
                return f"{request.method} {template}"
        return f"{request.method} {request.path}"

    @staticmethod
    def _violations(operation: str, side: str, errors) -> list[Violation]:
        found = []
        for error in errors:
            schema_errors = _schema_errors(error)
            if schema_errors:
                found += [Violation(operation, side, _where(error, detail), f"{detail.validator}: {detail.message}")
                          for detail in schema_errors]
            else:
                found.append(Violation(operation, side, _where(error, None), str(error)))
        return found


def _split(template: str) -> list[str]:
    return [part for part in re.split(r"(\{[^}]+\})", template) if part]


def _schema_errors(error) -> list:
    """The JSON Schema errors behind an openapi-core error, however deep it nests them."""
    seen = error
    while seen is not None:
        if getattr(seen, "schema_errors", None):
            return list(seen.schema_errors)
        seen = seen.__cause__
    return []


def _where(error, detail) -> str:
    """Where on its side a violation is: a parameter, a JSON pointer in the body, the path."""
    if "NotFound" in type(error).__name__:
        return "path"
    parameter = getattr(error, "name", None) or getattr(getattr(error, "__cause__", None), "name", None)
    location = f"{getattr(error, 'location', 'parameter')}.{parameter}" if parameter else "body"
    pointer = "/" + "/".join(map(str, detail.absolute_path)) if detail is not None and detail.absolute_path else ""
    return location + pointer if parameter else (pointer or "body")


def make_app(upstream: str, validator: Validator, report: Callable[[Violation], None],
             timeout: float = 30) -> Callable:
    """The proxy as a WSGI app."""
    upstream = upstream.rstrip("/")
    local = threading.local()  # a connection pool per server thread: requests.Session is not thread-safe

    def app(environ, start_response):
        request = Request(environ)
        body = request.get_data(cache=True)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        if not hasattr(local, "session"):
            local.session = requests.Session()
        try:
            answer = local.session.request(request.method, upstream + request.full_path.rstrip("?"), headers=headers,
                                           data=body, timeout=timeout, allow_redirects=False)
        except requests.RequestException as error:
            response = Response(f'{{"error": "upstream unreachable: {type(error).__name__}"}}', status=502,
                                content_type="application/json")
            return response(environ, start_response)
        response = Response(answer.content, status=answer.status_code,
                            headers=[(k, v) for k, v in answer.headers.items() if k.lower() not in HOP_BY_HOP])
        violations = validator.check(request, response)
        for violation in violations:
            report(violation)
        response.headers[VIOLATIONS_HEADER] = str(len(violations))
        return response(environ, start_response)

    return app


def serve(upstream: str, contract: str, host: str, port: int, report: Callable[[Violation], None]) -> None:
    server = make_server(host, port, make_app(upstream, Validator(contract), report), threaded=True)
    server.serve_forever()
