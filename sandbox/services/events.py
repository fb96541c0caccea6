"""Events: every status change a merchant could be notified of, stored with its data."""

from datetime import datetime

from sandbox.clock import to_iso
from sandbox.domain.seed import derive_uuid
from sandbox.services import Context

WITHDRAWAL_STATUS_CHANGED = "withdrawal.status_changed"
PAYMENT_STATUS_CHANGED = "payment.status_changed"


def record(ctx: Context, merchant_id: int, event_type: str, data: dict, at: datetime) -> dict:
    """Store an event; its id derives from the seed and the merchant's event count."""
    sequence = ctx.store.count("events", "merchant", merchant_id)
    event = {"id": derive_uuid(ctx.seed, "event", merchant_id, sequence), "merchantId": merchant_id,
             "seq": sequence, "type": event_type, "createdAt": to_iso(at), "data": data}
    ctx.store.put("events", event)
    return event
