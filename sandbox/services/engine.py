"""The engine: the one place that applies transitions when they fall due, in time order.

A transition is scheduled for a moment on its merchant's clock (a withdrawal's
approval and completion, a deposit's confirmation, a payment's expiry). When a
merchant's request arrives, when its clock is moved or set, and on every tick of
the ticker, every transition due by then is applied, earliest first, each at its own
moment, as it would have happened in real time. Handlers may schedule further transitions
(approval schedules completion), which join the same ordered queue.
"""

import logging
from datetime import datetime
from typing import Callable

from sandbox.clock import from_iso, to_iso
from sandbox.services import Context, clocks, next_number

log = logging.getLogger(__name__)

Handler = Callable[[Context, str, datetime], None]  # (ctx, ref, moment it fell due)


def _handlers() -> dict[str, Handler]:
    """Kinds of transition and who applies them (imported here: they import the engine)."""
    from sandbox.services import payments, transactions, withdrawals

    return {
        withdrawals.APPROVE: withdrawals.approve_when_due,
        withdrawals.COMPLETE: withdrawals.complete_when_due,
        transactions.CONFIRM: transactions.confirm_when_due,
        payments.EXPIRE: payments.expire_when_due,
    }


def schedule(ctx: Context, merchant_id: int, kind: str, ref: str, due_at: datetime) -> None:
    """Queue a transition; transitions due at the same moment apply in the order they were queued."""
    with ctx.store.transaction():
        ctx.store.put("schedule", {"merchantId": merchant_id, "kind": kind, "ref": ref, "dueAt": to_iso(due_at),
                                   "seq": next_number(ctx, "schedule-sequence", merchant_id)})


def unschedule(ctx: Context, merchant_id: int, kind: str, ref: str) -> None:
    ctx.store.delete("schedule", f"{merchant_id}:{kind}:{ref}")


def catch_up(ctx: Context, merchant_id: int) -> int:
    """Apply every transition due by the merchant's now; how many were applied."""
    handlers = _handlers()
    applied = 0
    with ctx.store.transaction():
        now = clocks.now(ctx, merchant_id)
        while True:
            first = ctx.store.find_page("schedule", "merchant", merchant_id, 0, 1)
            if not first or from_iso(first[0]["dueAt"]) > now:
                return applied
            due = first[0]
            ctx.store.delete("schedule", f"{merchant_id}:{due['kind']}:{due['ref']}")
            handlers[due["kind"]](ctx, due["ref"], from_iso(due["dueAt"]))
            applied += 1


def settled_now(ctx: Context, merchant_id: int) -> datetime:
    """The merchant's now, with everything due by then applied: what an operation reads
    inside its transaction, so that no transition can fall due between its check and
    its change (the request's own catch-up ran in a transaction of its own)."""
    with ctx.store.transaction():
        catch_up(ctx, merchant_id)
        return clocks.now(ctx, merchant_id)


def catch_up_all(ctx: Context) -> int:
    """What the background ticker runs: every merchant's due transitions. One
    merchant's failure is logged and never keeps the others waiting."""
    applied = 0
    for merchant in ctx.store.all("merchants"):
        try:
            applied += catch_up(ctx, merchant["id"])
        except Exception:
            log.exception("applying the due transitions of merchant %s failed", merchant["id"])
    return applied
