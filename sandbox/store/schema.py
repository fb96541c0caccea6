"""Tables, their primary keys, secondary indexes, order and searchable text.

An index maps a key computed from a document to the documents that have it,
sorted by the table's `order`; a key of None leaves the document out of that
index. `text` gives (scope, searchable text) for partial-match search. A backend
on a database would create the same indexes from these declarations.
"""

from dataclasses import dataclass
from typing import Any, Callable

from sandbox.store.text_index import FIELD_SEPARATOR


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
    "clocks": Table(key=lambda c: str(c["merchantId"]), indexes={"merchant": lambda c: c["merchantId"]}),
    "schedule": Table(
        key=lambda e: f'{e["merchantId"]}:{e["kind"]}:{e["ref"]}',
        indexes={"merchant": lambda e: e["merchantId"]},
        order=lambda e: (e["dueAt"], e["seq"]),
    ),
    "events": Table(
        key=lambda e: e["id"],
        indexes={"merchant": lambda e: e["merchantId"], "subject": lambda e: (e["merchantId"], e["subject"])},
        order=lambda e: e["seq"],
    ),
    "deliveries": Table(
        key=lambda d: d["id"],
        indexes={"merchant": lambda d: d["merchantId"], "status": lambda d: d["status"]},
        order=lambda d: (d["merchantId"], d["seq"]),
    ),
    "merchants": Table(
        key=lambda m: str(m["id"]),
        indexes={"apiKey": lambda m: m["apiKey"], "merchant": lambda m: m["id"]},
    ),
    "addresses": Table(
        key=lambda a: f'{a["network"]}:{a["address"]}',
        indexes={
            "merchant": lambda a: a["merchantId"],
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
    "wallets": Table(
        key=lambda w: f'{w["network"]}:{w["address"]}:{w["asset"]}',
        indexes={
            "merchant": lambda w: w["merchantId"],
            "client": lambda w: (w["merchantId"], w["clientId"]) if w["clientId"] is not None else None,
        },
        order=lambda w: w["createdAt"],
    ),
    "payments": Table(
        key=lambda p: p["id"],
        indexes={
            "merchant": lambda p: p["merchantId"],
            "merchant_display": lambda p: (p["merchantId"], p["displayStatus"]),
            "merchant_method": lambda p: (p["merchantId"], p["assetShort"], p["assetNetwork"]),
            "merchant_method_display": lambda p: (p["merchantId"], p["assetShort"], p["assetNetwork"],
                                                  p["displayStatus"]),
            "merchant_invoice": lambda p: (p["merchantId"], p["invoice"]) if p["invoice"] is not None else None,
            "wallet": lambda p: (p["assetNetwork"], p["addressTo"], p["assetShort"]),
        },
        order=lambda p: p["seq"],
        text=lambda p: (p["merchantId"], FIELD_SEPARATOR.join(filter(None, [
            p["addressTo"], p["clientId"], p["invoice"], *p["txnIds"], *p["addressesFrom"]]))),
    ),
    "transactions": Table(
        key=lambda t: f'{t["merchantId"]}:{t["network"]}:{t["txnId"]}',  # one merchant's deposits never block another's
        indexes={
            "merchant": lambda t: t["merchantId"],
            "payment": lambda t: t["paymentId"],
            "wallet": lambda t: (t["network"], t["addressTo"], t["asset"]),
            "merchant_txn": lambda t: (t["merchantId"], t["txnId"]),
        },
        order=lambda t: (t["createdAt"], t["seq"]),
    ),
    "faults": Table(
        key=lambda f: f["id"],
        indexes={"merchant": lambda f: f["merchantId"]},
        order=lambda f: f["seq"],
    ),
    "snapshots": Table(
        key=lambda s: s["id"],
        indexes={"merchant": lambda s: s["merchantId"]},
        order=lambda s: s["seq"],
    ),
}

# The tables that hold a merchant's state, each with a `merchant` index: what a
# snapshot saves and a restore puts back (meta is the store's; snapshots are kept).
MERCHANT_STATE = tuple(name for name in TABLES if name not in ("meta", "snapshots"))

# Meta records that belong to one store and never travel in an export: the key that
# signs dashboard sessions (a copy of the data must not accept the original's cookies).
SESSION_SECRET = "sessionSecret"
STORE_LOCAL_META = (SESSION_SECRET,)
