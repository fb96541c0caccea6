"""Settings of the whole sandbox kept in its store."""

import secrets

from sandbox.store import Repository
from sandbox.store.schema import SESSION_SECRET

DEFAULT_SEED = 0


class SeedMismatch(Exception):
    """A data file is reused with another seed than it was created with."""


def resolve_seed(store: Repository, requested: int | None) -> int:
    """The seed a store was created with, recorded on first use. Mixing seeds in one
    store would derive addresses and ids from two different roots, so it is refused."""
    with store.transaction():
        recorded = store.get("meta", "seed")
        if recorded is None:
            seed = DEFAULT_SEED if requested is None else requested
            store.put("meta", {"name": "seed", "value": seed})
            return seed
        if requested is not None and requested != recorded["value"]:
            raise SeedMismatch(f"this data file was created with seed {recorded['value']}; "
                               f"serve it with --seed {recorded['value']} (or no --seed), or use another --data")
        return recorded["value"]


def session_secret(store: Repository) -> str:
    """The key that signs dashboard sessions, made once per data file: every worker
    and every restart accepts the same cookies, and no cookie outlives its store."""
    with store.transaction():
        recorded = store.get("meta", SESSION_SECRET)
        if recorded is None:
            recorded = {"name": SESSION_SECRET, "value": secrets.token_hex(32)}
            store.put("meta", recorded)
        return recorded["value"]
