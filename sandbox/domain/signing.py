"""Request signatures (X-HMAC): HMAC over the exact raw body bytes.

The spec does not show the scheme. The sandbox defaults to lowercase hex
HMAC-SHA256 keyed with the merchant's `hmacSecret`; algorithm and encoding are
per-merchant settings so a merchant can mirror production once it knows it.
"""

import base64
import hashlib
import hmac

ALGORITHMS = {"sha256": hashlib.sha256, "sha512": hashlib.sha512}
ENCODINGS = ("hex", "base64")
DEFAULT_ALGORITHM = "sha256"
DEFAULT_ENCODING = "hex"


def sign(secret: str, body: bytes, algorithm: str = DEFAULT_ALGORITHM, encoding: str = DEFAULT_ENCODING) -> str:
    digest = hmac.new(secret.encode(), body, ALGORITHMS[algorithm]).digest()
    return digest.hex() if encoding == "hex" else base64.b64encode(digest).decode()


def verify(secret: str, body: bytes, signature: str | None, algorithm: str = DEFAULT_ALGORITHM,
           encoding: str = DEFAULT_ENCODING) -> bool:
    """Constant-time comparison; a missing signature never verifies."""
    if not signature:
        return False
    expected = sign(secret, body, algorithm, encoding)
    return hmac.compare_digest(expected.encode(), signature.encode("utf-8", "surrogateescape"))
