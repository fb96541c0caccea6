"""schemathesis extensions for the gateway: the exact JSON bytes sent, signed into X-HMAC.

Loaded by the pytest suite (import) and by the schemathesis CLI
(`SCHEMATHESIS_HOOKS=contracts.hooks`). The secret and scheme come from
`configure()` or the environment: GATEWAY_HMAC_SECRET, GATEWAY_HMAC_ALGORITHM
(sha256|sha512), GATEWAY_HMAC_ENCODING (hex|base64).
"""

import json
import os

import schemathesis
from schemathesis.core import NotSet

from sandbox.domain.signing import sign

SIGNED_METHODS = {"POST"}
_scheme = {
    "secret": os.environ.get("GATEWAY_HMAC_SECRET", ""),
    "algorithm": os.environ.get("GATEWAY_HMAC_ALGORITHM", "sha256"),
    "encoding": os.environ.get("GATEWAY_HMAC_ENCODING", "hex"),
}


def configure(secret: str, algorithm: str = "sha256", encoding: str = "hex") -> None:
    _scheme.update(secret=secret, algorithm=algorithm, encoding=encoding)


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
    if case.method.upper() in SIGNED_METHODS and _scheme["secret"] and "X-HMAC" in (case.headers or {}):
        case.headers["X-HMAC"] = sign(_scheme["secret"], body_bytes(case.body), _scheme["algorithm"],
                                      _scheme["encoding"])
