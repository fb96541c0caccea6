"""Links to the sandbox's own pages, built on the base URL the client used.

A checkout link carries a key made with the merchant's HMAC secret: payment ids
derive from the (public) seed, so without the key anyone could open, and pay,
any merchant's checkout page. The key makes the link the capability it is on a
real gateway: whoever holds it sees that one payment."""

import hashlib
import hmac
from functools import lru_cache


def checkout_key(merchant: dict, payment_id: str) -> str:
    return _key(merchant["hmacSecret"], payment_id)


@lru_cache(maxsize=65536)  # every listed payment carries two links: computed once per payment
def _key(secret: str, payment_id: str) -> str:
    return hmac.new(secret.encode(), f"checkout:{payment_id}".encode(), hashlib.sha256).hexdigest()[:24]


def checkout_url(base_url: str, payment_id: str, merchant: dict) -> str:
    return f"{base_url}/checkout/{payment_id}/{checkout_key(merchant, payment_id)}"


def payment_redirect_url(base_url: str, payment_id: str, merchant: dict) -> str:
    return f"{base_url}/pay/{payment_id}/{checkout_key(merchant, payment_id)}"
