"""Events: every status change a merchant could be notified of, stored with its data
and handed to the webhook outbox."""

from datetime import datetime

from sandbox.clock import to_iso
from sandbox.domain.seed import derive_uuid
from sandbox.services import Context, page_of, snapshots, webhooks

WITHDRAWAL_STATUS_CHANGED = "withdrawal.status_changed"
PAYMENT_STATUS_CHANGED = "payment.status_changed"
EVENT_TYPES = (WITHDRAWAL_STATUS_CHANGED, PAYMENT_STATUS_CHANGED, webhooks.TEST_EVENT)


def record(ctx: Context, merchant_id: int, event_type: str, data: dict, at: datetime, *, subject: str,
           notify: bool = True) -> dict:
    """Store an event (its id derives from the seed and the merchant's event count) and,
    unless told not to, queue its webhook. `subject` orders the deliveries."""
    with ctx.store.transaction():
        sequence = ctx.store.count("events", "merchant", merchant_id)
        event_id = derive_uuid(ctx.seed, "event", merchant_id, *snapshots.restores(ctx, merchant_id), sequence)
        event = {"id": event_id, "merchantId": merchant_id,
                 "seq": sequence, "type": event_type, "subject": subject, "createdAt": to_iso(at), "data": data}
        ctx.store.put("events", event)
        if notify:
            webhooks.enqueue(ctx, ctx.store.get("merchants", str(merchant_id)), event)
        return event


def list_events(ctx: Context, merchant: dict, *, event_type=None, page=1, limit=20) -> tuple[list[dict], int]:
    """The merchant's events, newest first."""
    everything = ctx.store.find("events", "merchant", merchant["id"])
    matches = [e for e in reversed(everything) if event_type in (None, e["type"])]
    return page_of(matches, page, limit), len(matches)


def about(ctx: Context, merchant: dict, subject: str) -> list[dict]:
    """The merchant's events about one withdrawal or payment, oldest first."""
    return ctx.store.find("events", "subject", (merchant["id"], subject))
