"""schemathesis extensions for the gateway: the exact JSON bytes sent, signed into X-HMAC,
and the gateway's domain checks (contracts/checks.py).

Loaded by `gateway-sandbox contract test`, by the pytest suite (import) and by a bare
schemathesis CLI (`SCHEMATHESIS_HOOKS=contracts.hooks`). Credentials come from
`configure()` or the environment: GATEWAY_API_KEY, GATEWAY_HMAC_SECRET,
GATEWAY_HMAC_ALGORITHM (sha256|sha512), GATEWAY_HMAC_ENCODING (hex|base64).
"""

import json
import os

import schemathesis
from schemathesis.core import NotSet

from sandbox.domain.signing import sign

SIGNED_METHODS = {"POST"}
# A probe that sends a wrong signature on purpose (the hmac_enforced check) keeps it.
WRONG_SIGNATURE = "0" * 64 + ".wrong-on-purpose"
_configured: dict[str, str] = {}


def configure(secret: str, algorithm: str = "sha256", encoding: str = "hex", api_key: str | None = None) -> None:
    _configured.update(secret=secret, algorithm=algorithm, encoding=encoding)
    if api_key is not None:
        _configured["api_key"] = api_key


def setting(name: str) -> str:
    """A credential or signing setting: configured, else from the environment."""
    defaults = {"api_key": "", "secret": "", "algorithm": "sha256", "encoding": "hex"}
    variables = {"api_key": "GATEWAY_API_KEY", "secret": "GATEWAY_HMAC_SECRET", "algorithm": "GATEWAY_HMAC_ALGORITHM",
                 "encoding": "GATEWAY_HMAC_ENCODING"}
    return _configured.get(name) or os.environ.get(variables[name], defaults[name])


def body_bytes(value) -> bytes:
    """The exact bytes put on the wire for a JSON body (and signed)."""
    if isinstance(value, NotSet):
        return b""
    if isinstance(value, bytes):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


@schemathesis.serializer("application/json")
def pinned_json(ctx, value) -> bytes:
    """One serialisation for every transport, so the signature covers what is sent."""
    return body_bytes(value)


@schemathesis.hook
def before_call(context, case, kwargs) -> None:
    """Replace the generated X-HMAC with the signature of the body (its exact bytes).
    A case that leaves the header out on purpose keeps it out."""
    headers = case.headers or {}
    if (case.method.upper() in SIGNED_METHODS and setting("secret") and "X-HMAC" in headers
            and headers["X-HMAC"] != WRONG_SIGNATURE):
        case.headers["X-HMAC"] = sign(setting("secret"), body_bytes(case.body), setting("algorithm"),
                                      setting("encoding"))


from contracts import checks  # noqa: E402,F401 - registers the gateway's checks with schemathesis
