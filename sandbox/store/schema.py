"""Tables, their primary keys and secondary indexes.

An index maps a key computed from a document to the documents that have it, in
insertion order; a key of None leaves the document out of that index. A backend
on a database would create the same indexes from these declarations.
"""

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Table:
    key: Callable[[dict], str]
    indexes: dict[str, Callable[[dict], Any]]


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
    ),
    "withdrawals": Table(
        key=lambda w: w["id"],
        indexes={"merchant": lambda w: w["merchantId"]},
    ),
    "balances": Table(
        key=lambda b: f'{b["network"]}:{b["address"]}:{b["asset"]}',
        indexes={"address": lambda b: (b["network"], b["address"])},
    ),
}
