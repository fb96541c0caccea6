"""Use cases: each function takes the `Context`, loads what it needs from the
repository, applies the pure rules of `sandbox.domain` and `sandbox.chains`, and
stores the outcome. No Flask here."""

from dataclasses import dataclass

from sandbox.clock import Clock
from sandbox.store import Repository


@dataclass
class Context:
    store: Repository
    clock: Clock
    seed: int
    # Mixed into every credential: with an admin token set, knowing the (public) seed
    # is not enough to compute another merchant's API key or HMAC secret.
    credential_secret: str = ""
    # Where the sandbox is reached, for links in data that no request carries (webhooks).
    public_url: str = "http://localhost"


def next_number(ctx: Context, kind: str, merchant_id: int) -> int:
    """The merchant's next number of `kind` (0, 1, 2, …), never given twice: kept in
    `meta` as `{kind}:{merchant_id}`, which restores and resets never touch (and a
    purge removes with the merchant). Call inside a transaction."""
    name = f"{kind}:{merchant_id}"
    counter = ctx.store.get("meta", name) or {"name": name, "value": 0}
    ctx.store.put("meta", {**counter, "value": counter["value"] + 1})
    return counter["value"]


def page_of(items: list, page: int, limit: int) -> list:
    """Items of the 1-based `page` when pages hold `limit` items."""
    start = (page - 1) * limit
    return items[start:start + limit]
