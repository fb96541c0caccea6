"""Webhooks: an outbox of deliveries, sent off the request path and retried on the
merchant's clock.

Each event the merchant wants becomes a delivery: the exact body bytes, signed when
sent with the merchant's webhook secret. An attempt succeeds on a 2xx; otherwise the
next one is due after the backoff (10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h: eight
attempts in all), counted on the merchant's clock, so moving the clock makes retries
due. Deliveries of one subject (a withdrawal, a payment) go in order: a later one
waits while an earlier one is still pending. The outbox lives in the store, so a
restart loses nothing (at least once).
"""

import json
import threading
import time
from datetime import datetime, timedelta

from sandbox import delivery
from sandbox.clock import from_iso, to_iso
from sandbox.domain import signing
from sandbox.domain.errors import InvalidRequest, NotFound
from sandbox.domain.seed import derive_token, derive_uuid
from sandbox.services import Context, clocks, page_of, snapshots

PENDING, DELIVERED, FAILED = "PENDING", "DELIVERED", "FAILED"
DELIVERY_STATUSES = (PENDING, DELIVERED, FAILED)
BACKOFF = [timedelta(seconds=s) for s in (10, 60, 300, 1800, 7200, 21600, 43200)]
MAX_ATTEMPTS = len(BACKOFF) + 1
TEST_EVENT = "webhook.test"

# Deliveries being attempted right now, so that no two threads send the same one.
_in_flight: set[str] = set()
_in_flight_lock = threading.Lock()


def webhook_secret(ctx: Context, merchant_id: int, version: int) -> str:
    secret = [ctx.credential_secret] if ctx.credential_secret else []
    return "whsec_" + derive_token(ctx.seed, "webhook-secret", *secret, merchant_id, version, size=24)


def rotate_secret(ctx: Context, merchant: dict) -> str:
    """A new webhook secret; the old one stops signing at once. Shown only here."""
    with ctx.store.transaction():
        current = ctx.store.get("merchants", str(merchant["id"]))
        version = current["webhookSecretVersion"] + 1
        ctx.store.put("merchants", {**current, "webhookSecretVersion": version,
                                    "webhookSecret": webhook_secret(ctx, merchant["id"], version)})
        return webhook_secret(ctx, merchant["id"], version)


def enqueue(ctx: Context, merchant: dict, event: dict) -> dict | None:
    """A delivery of `event`, when the merchant has a webhook URL and wants this kind."""
    if not merchant.get("webhookUrl"):
        return None
    if event["type"].startswith("payment.") and not merchant["paymentWebhooks"]:
        return None
    return _new_delivery(ctx, merchant, event, from_iso(event["createdAt"]))


def _new_delivery(ctx: Context, merchant: dict, event: dict, due_at: datetime) -> dict:
    sequence = ctx.store.count("deliveries", "merchant", merchant["id"])
    body = json.dumps(public_event(event), separators=(",", ":"), ensure_ascii=False)
    delivery_id = derive_uuid(ctx.seed, "delivery", merchant["id"], *snapshots.restores(ctx, merchant["id"]), sequence)
    record = {"id": delivery_id, "merchantId": merchant["id"],
              "seq": sequence, "eventId": event["id"], "eventType": event["type"], "subject": event["subject"],
              "body": body, "status": PENDING, "attempts": [], "nextAttemptAt": to_iso(due_at),
              "createdAt": to_iso(clocks.now(ctx, merchant["id"]))}
    ctx.store.put("deliveries", record)
    return record


def public_event(event: dict) -> dict:
    """What a webhook carries, and GET /sandbox/events shows."""
    return {"id": event["id"], "type": event["type"], "createdAt": event["createdAt"], "data": event["data"]}


def due(ctx: Context, merchant_id: int | None = None) -> list[dict]:
    """Pending deliveries (of one merchant, or all) whose attempt is due on their
    merchant's clock and which no earlier pending delivery of the same subject holds
    back, oldest first."""
    with ctx.store.transaction():
        eligible, held, nows = [], set(), {}
        for pending in ctx.store.find("deliveries", "status", PENDING):
            if merchant_id is not None and pending["merchantId"] != merchant_id:
                continue
            subject = (pending["merchantId"], pending["subject"])
            if subject in held:
                continue
            held.add(subject)
            if pending["merchantId"] not in nows:
                try:
                    nows[pending["merchantId"]] = clocks.now(ctx, pending["merchantId"])
                except (OverflowError, ValueError):  # a clock that cannot be read holds up only its merchant
                    nows[pending["merchantId"]] = None
            now = nows[pending["merchantId"]]
            if now is not None and from_iso(pending["nextAttemptAt"]) <= now:
                eligible.append(pending)
        return eligible


def attempt(ctx: Context, delivery_id: str, timeout: float) -> dict:
    """One attempt of a pending delivery that is due: claimed (no other thread sends it
    meanwhile), signed, sent outside the store's lock (a slow receiver holds up nothing
    else), and recorded. A delivery not due, or already being sent, is left alone."""
    with _in_flight_lock:
        if delivery_id in _in_flight:
            return ctx.store.get("deliveries", delivery_id)
        _in_flight.add(delivery_id)
    try:
        return _attempt(ctx, delivery_id, timeout)
    finally:
        with _in_flight_lock:
            _in_flight.discard(delivery_id)


def _attempt(ctx: Context, delivery_id: str, timeout: float) -> dict:
    with ctx.store.transaction():
        record = ctx.store.get("deliveries", delivery_id)
        if record is None or record["status"] != PENDING:
            return record
        if from_iso(record["nextAttemptAt"]) > clocks.now(ctx, record["merchantId"]):
            return record  # rescheduled since it was found due
        merchant = ctx.store.get("merchants", str(record["merchantId"]))
        number = len(record["attempts"]) + 1
        body = record["body"].encode()
        headers = {"Content-Type": "application/json", "User-Agent": "gateway-sandbox-webhooks",
                   "X-Webhook-Id": record["eventId"], "X-Webhook-Attempt": str(number),
                   "X-HMAC": signing.sign(merchant["webhookSecret"], body, merchant["hmacAlgorithm"],
                                          merchant["hmacEncoding"])}
        url = merchant["webhookUrl"]
        started_at = clocks.now(ctx, merchant["id"])
    if url:
        outcome = delivery.post(url, body, headers, timeout)
    else:
        outcome = delivery.Outcome(None, "", 0, "the merchant has no webhookUrl")
    with ctx.store.transaction():
        claimed, record = record, ctx.store.get("deliveries", delivery_id)
        if record is None or record["eventId"] != claimed["eventId"] or record["attempts"] != claimed["attempts"]:
            return record  # a snapshot restored meanwhile took it away or put another in its place
        log = {"attempt": number, "at": to_iso(started_at), "url": url, "requestHeaders": headers,
               "responseStatus": outcome.status, "responseBody": outcome.body, "durationMs": outcome.duration_ms,
               "error": outcome.error}
        if outcome.delivered:
            changes = {"status": DELIVERED, "nextAttemptAt": None}
        elif number >= MAX_ATTEMPTS:
            changes = {"status": FAILED, "nextAttemptAt": None}
        else:
            changes = {"nextAttemptAt": to_iso(started_at + BACKOFF[number - 1])}
        updated = {**record, **changes, "attempts": [*record["attempts"], log]}
        ctx.store.put("deliveries", updated)
        return updated


def dispatch_due(ctx: Context, timeout: float, merchant_id: int | None = None) -> int:
    """Attempt every due delivery (of one merchant, or all), again and again while that
    makes more due (the next of a subject); how many attempts were made. One that
    another thread is sending is waited for: when this returns, every attempt due has
    been made and recorded. The in-process form of the dispatcher."""
    made = 0
    while batch := due(ctx, merchant_id):
        with _in_flight_lock:
            free = [record for record in batch if record["id"] not in _in_flight]
        for record in free:
            after = attempt(ctx, record["id"], timeout)
            made += after is not None and len(after["attempts"]) > len(record["attempts"])
        if len(free) < len(batch):
            time.sleep(0.02)
    return made


def redeliver(ctx: Context, merchant: dict, delivery_id: str) -> dict:
    """A new delivery of the same event, due now."""
    with ctx.store.transaction():
        original = _own(ctx, merchant, delivery_id)
        event = ctx.store.get("events", original["eventId"])
        return _new_delivery(ctx, merchant, event, clocks.now(ctx, merchant["id"]))


def send_test(ctx: Context, merchant: dict, timeout: float) -> dict:
    """A `webhook.test` event delivered at once, its outcome returned."""
    from sandbox.services import events  # events enqueue through this module

    if not merchant.get("webhookUrl"):
        raise InvalidRequest("set a webhookUrl first (PATCH /sandbox/merchants/me)")
    with ctx.store.transaction():
        now = clocks.now(ctx, merchant["id"])
        event = events.record(ctx, merchant["id"], TEST_EVENT, {"message": "a test event from gateway-sandbox"},
                              now, subject=f"test:{now.isoformat()}", notify=False)
        record = _new_delivery(ctx, merchant, event, now)
    return attempt(ctx, record["id"], timeout)


def last_outcome(delivery: dict) -> str:
    """The newest attempt of a delivery in words: `HTTP 503`, the transport error, or `no attempt yet`."""
    if not delivery["attempts"]:
        return "no attempt yet"
    last = delivery["attempts"][-1]
    return last["error"] or f"HTTP {last['responseStatus']}"


def list_deliveries(ctx: Context, merchant: dict, *, event_id=None, event_type=None, status=None, page=1,
                    limit=20) -> tuple[list[dict], int]:
    """The merchant's deliveries, newest first, with every attempt."""
    everything = ctx.store.find("deliveries", "merchant", merchant["id"])
    matches = [d for d in reversed(everything) if event_id in (None, d["eventId"])
               and event_type in (None, d["eventType"]) and status in (None, d["status"])]
    return page_of(matches, page, limit), len(matches)


def deliveries_of(ctx: Context, merchant: dict, event_ids) -> list[dict]:
    """The merchant's deliveries of these events, oldest first."""
    wanted = set(event_ids)
    return [d for d in ctx.store.find("deliveries", "merchant", merchant["id"]) if d["eventId"] in wanted]


def _own(ctx: Context, merchant: dict, delivery_id: str) -> dict:
    record = ctx.store.get("deliveries", delivery_id)
    if record is None or record["merchantId"] != merchant["id"]:
        raise NotFound("delivery not found")
    return record
