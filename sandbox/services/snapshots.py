"""Per-merchant snapshots of sandbox state, as local chains offer evm_snapshot and
evm_revert: a QA suite sets a situation up once, snapshots it, and restores it
before each test instead of building it again.

A snapshot holds every record of the merchant (settings, clock, addresses, wallets,
payments, transactions, withdrawals, events, webhook deliveries, due transitions).
Restoring puts exactly those back — records made since are removed — and keeps the
snapshot, so it can be restored again. Other merchants are never touched; the webhook
secret stays the current one, and events made after a restore get ids never used
before.
"""

from sandbox.clock import to_iso
from sandbox.domain.errors import NotFound
from sandbox.domain.seed import derive_uuid
from sandbox.services import Context, clocks, page_of
from sandbox.store.schema import MERCHANT_STATE, TABLES

# Merchant fields a restore leaves as they are: a rotated webhook secret stays rotated
# (the old one stopped signing), and the last activity stays (purges go by it).
KEPT_AS_THEY_ARE = ("webhookSecret", "webhookSecretVersion", "lastActiveOn")
# Past this many, taking a snapshot drops the merchant's oldest one.
MAX_SNAPSHOTS_PER_MERCHANT = 20


def take(ctx: Context, merchant: dict) -> dict:
    """A new snapshot of the merchant's state, as it is now."""
    with ctx.store.transaction():
        kept = ctx.store.find("snapshots", "merchant", merchant["id"])
        sequence = kept[-1]["seq"] + 1 if kept else 0  # the newest is never dropped: ids never repeat
        for oldest in kept[:max(0, len(kept) + 1 - MAX_SNAPSHOTS_PER_MERCHANT)]:
            ctx.store.delete("snapshots", oldest["id"])
        tables = {table: ctx.store.find(table, "merchant", merchant["id"]) for table in MERCHANT_STATE}
        snapshot = {"id": derive_uuid(ctx.seed, "snapshot", merchant["id"], sequence), "merchantId": merchant["id"],
                    "seq": sequence, "createdAt": to_iso(clocks.now(ctx, merchant["id"])), "tables": tables}
        ctx.store.put("snapshots", snapshot)
        return summary(snapshot)


def restore(ctx: Context, merchant: dict, snapshot_id: str) -> dict:
    """The merchant's state put back as the snapshot holds it; the snapshot stays."""
    with ctx.store.transaction():
        snapshot = _owned(ctx, merchant, snapshot_id)
        _put_back(ctx, merchant["id"], snapshot["tables"])
        return {**summary(snapshot), "clock": clocks.state(ctx, merchant["id"])}


def reset(ctx: Context, merchant: dict) -> dict:
    """A fresh start for a merchant that keeps its settings and credentials (and its
    snapshots): no addresses, payments, withdrawals, events, faults; the clock back
    on real time. A shared sandbox's CI job calls it first."""
    with ctx.store.transaction():
        _put_back(ctx, merchant["id"], {"merchants": [ctx.store.get("merchants", str(merchant["id"]))]})
        return clocks.state(ctx, merchant["id"])


def _put_back(ctx: Context, merchant_id: int, tables: dict[str, list[dict]]) -> None:
    """Make the merchant's state exactly `tables` (a table not given: empty), and
    count a restore, so that ids of events made from now on never repeat."""
    settings_now = ctx.store.get("merchants", str(merchant_id))
    done = ctx.store.get("meta", f"restores:{merchant_id}")
    ctx.store.put("meta", {"name": f"restores:{merchant_id}", "count": (done["count"] if done else 0) + 1})
    for table in MERCHANT_STATE:
        key = TABLES[table].key
        saved = {key(document): document for document in tables.get(table, [])}
        if table == "merchants":
            saved = {name: {**document, **{field: settings_now[field] for field in KEPT_AS_THEY_ARE
                                           if field in settings_now}}
                     for name, document in saved.items()}
        for current in ctx.store.find(table, "merchant", merchant_id):
            if key(current) not in saved:
                ctx.store.delete(table, key(current))
        for name, document in saved.items():
            if ctx.store.get(table, name) != document:
                ctx.store.put(table, document)


def remove_all(ctx: Context, merchant_id: int) -> None:
    """Every record of the merchant, snapshots and settings included, gone for good."""
    with ctx.store.transaction():
        for table in (*MERCHANT_STATE, "snapshots"):
            for document in ctx.store.find(table, "merchant", merchant_id):
                ctx.store.delete(table, TABLES[table].key(document))
        for record in ctx.store.all("meta"):  # its counters: `{kind}:{merchant_id}`
            if record["name"].partition(":")[2] == str(merchant_id):
                ctx.store.delete("meta", record["name"])


def restores(ctx: Context, merchant_id: int) -> tuple:
    """What keeps ids of events and deliveries made after a restore from repeating
    those made before it (receivers de-duplicate webhooks by id): () until the
    merchant's first restore, then ("restore", n). Kept in `meta`, which restores
    never touch."""
    record = ctx.store.get("meta", f"restores:{merchant_id}")
    return ("restore", record["count"]) if record else ()


def list_snapshots(ctx: Context, merchant: dict, *, page: int, limit: int) -> tuple[list[dict], int]:
    """The merchant's snapshots, newest first."""
    kept = ctx.store.find("snapshots", "merchant", merchant["id"])
    return [summary(s) for s in page_of(kept[::-1], page, limit)], len(kept)


def summary(snapshot: dict) -> dict:
    return {"id": snapshot["id"], "createdAt": snapshot["createdAt"],
            "records": sum(len(documents) for documents in snapshot["tables"].values())}


def _owned(ctx: Context, merchant: dict, snapshot_id: str) -> dict:
    snapshot = ctx.store.get("snapshots", snapshot_id)
    if snapshot is None or snapshot["merchantId"] != merchant["id"]:
        raise NotFound("snapshot not found")
    return snapshot
