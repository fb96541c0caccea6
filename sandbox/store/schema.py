"""Tables, their primary keys, secondary indexes, order and searchable text.

An index maps a key computed from a document to the documents that have it,
sorted by the table's `order`; a key of None leaves the document out of that
index. `text` gives (scope, searchable text) for partial-match search. A backend
on a database would create the same indexes from these declarations.
"""

from dataclasses import dataclass
from typing import Any, Callable


def _unordered(document: dict) -> int:
    return 0  # buckets then fall back to the primary key's order


@dataclass(frozen=True)
class Table:
    key: Callable[[dict], str]
    indexes: dict[str, Callable[[dict], Any]]
    order: Callable[[dict], Any] = _unordered
    text: Callable[[dict], tuple[Any, str]] | None = None


TABLES: dict[str, Table] = {
    "meta": Table(key=lambda m: m["name"], indexes={}),
    "merchants": Table(
        key=lambda m: str(m["id"]),
        indexes={"apiKey": lambda m: m["apiKey"]},
    ),
    "addresses": Table(
        key=lambda a: f'{a["network"]}:{a["address"]}',
        indexes={
            "merchant_network": lambda a: (a["merchantId"], a["network"]),
            "client": lambda a: (a["merchantId"], a["network"], a["clientId"]) if a["clientId"] is not None else None,
        },
        order=lambda a: a["index"],
    ),
    "withdrawals": Table(
        key=lambda w: w["id"],
        indexes={"merchant": lambda w: w["merchantId"]},
        order=lambda w: w["seq"],
    ),
    "balances": Table(
        key=lambda b: f'{b["network"]}:{b["address"]}:{b["asset"]}',
        indexes={"address": lambda b: (b["network"], b["address"])},
    ),
}
