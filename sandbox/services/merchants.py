"""Merchants: creation (with seed-derived credentials), authentication, settings."""

import hashlib
import hmac
from datetime import timedelta
from decimal import Decimal

from sandbox.clock import to_iso
from sandbox.domain import aml, fees, signing
from sandbox.domain.money import format_amount
from sandbox.domain.errors import Forbidden, Num, Unauthorized
from sandbox.domain.seed import derive_token
from sandbox.services import Context, snapshots
from sandbox.services.webhooks import webhook_secret

DEMO_MERCHANT = {"name": "Demo Shop", "email": "demo@shop.example", "siteUrl": "https://shop.example",
                 "autoApproveSeconds": 600}

# Settings a merchant may change with PATCH /sandbox/merchants/me, and their defaults.
DEFAULTS = {
    "siteUrl": "", "logoUrl": "", "webhookUrl": None, "autoApproveSeconds": None,
    "hmacAlgorithm": signing.DEFAULT_ALGORITHM, "hmacEncoding": signing.DEFAULT_ENCODING,
    "feePercent": format_amount(fees.DEFAULT_FEE_PERCENT), "fixedFeeUsd": format_amount(fees.DEFAULT_FIXED_FEE_USD),
    "amlThreshold": aml.DEFAULT_THRESHOLD, "prices": {}, "paymentWebhooks": False, "rateLimits": {},
}
DEMO_MERCHANT_ID = 1
SETTINGS = ("name", "email", *DEFAULTS)


def create_merchant(ctx: Context, settings: dict) -> dict:
    """A new merchant; its API key and HMAC secret derive from the seed, the server's
    admin token (when it has one) and the merchant's id."""
    secret = [ctx.credential_secret] if ctx.credential_secret else []
    with ctx.store.transaction():
        counter = ctx.store.get("meta", "merchantIds")  # ids of purged merchants are never given again
        merchant_id = max(counter["last"] if counter else 0, ctx.store.count_all("merchants")) + 1
        ctx.store.put("meta", {"name": "merchantIds", "last": merchant_id})
        merchant = {
            "id": merchant_id,
            **_settled({**DEFAULTS, **settings}),
            "apiKey": "sk_sandbox_" + derive_token(ctx.seed, "api-key", *secret, merchant_id, size=20),
            "hmacSecret": "hs_sandbox_" + derive_token(ctx.seed, "hmac-secret", *secret, merchant_id, size=24),
            "webhookSecret": webhook_secret(ctx, merchant_id, 0),
            "webhookSecretVersion": 0,
            "createdAt": to_iso(ctx.clock.now()),
            "lastActiveOn": ctx.clock.now().date().isoformat(),  # wall-clock day; what purges go by
        }
        ctx.store.put("merchants", merchant)
    return merchant


def ensure_demo_merchant(ctx: Context) -> tuple[dict, bool]:
    """Merchant #1; on first start with an empty store, the demo merchant. (merchant, created now)"""
    with ctx.store.transaction():
        existing = ctx.store.get("merchants", str(DEMO_MERCHANT_ID))
        if existing:
            return existing, False
        return create_merchant(ctx, DEMO_MERCHANT), True


def _settled(settings: dict) -> dict:
    """Settings as stored: empty URLs for none, decimals in canonical form."""
    settled = dict(settings)
    for url in ("siteUrl", "logoUrl"):
        if url in settled:
            settled[url] = settled[url] or ""
    for amount in ("feePercent", "fixedFeeUsd"):
        if amount in settled:
            settled[amount] = format_amount(Decimal(settled[amount]))
    if "prices" in settled:  # a null price removes the override
        settled["prices"] = {coin: format_amount(Decimal(price)) for coin, price in settled["prices"].items()
                             if price is not None}
    if "rateLimits" in settled:  # so does a null limit
        settled["rateLimits"] = {operation: limit for operation, limit in settled["rateLimits"].items() if limit}
    return settled


def find_by_key(ctx: Context, api_key: str | None) -> dict | None:
    """The merchant of an API key, with the defaults of settings added after it was stored."""
    found = ctx.store.find("merchants", "apiKey", api_key) if api_key else []
    return {**DEFAULTS, **found[0]} if found else None


def authenticate(ctx: Context, api_key: str | None) -> dict:
    """The merchant of the key (401 otherwise), its day of last activity noted."""
    merchant = find_by_key(ctx, api_key)
    if merchant is None:
        raise Unauthorized("unauthorized", num=Num.UNAUTHORIZED)
    return _note_activity(ctx, merchant)


def _note_activity(ctx: Context, merchant: dict) -> dict:
    """Today (wall clock) as the merchant's day of last activity: one write a day at most."""
    today = ctx.clock.now().date().isoformat()
    if merchant.get("lastActiveOn") != today:
        with ctx.store.transaction():
            current = ctx.store.get("merchants", str(merchant["id"]))
            ctx.store.put("merchants", {**current, "lastActiveOn": today})
        merchant = {**merchant, "lastActiveOn": today}
    return merchant


def key_digest(merchant: dict) -> str:
    """What a dashboard session keeps of the API key: enough to notice the key no
    longer belongs to the merchant (a replaced data file), never the key itself."""
    return hashlib.sha256(merchant["apiKey"].encode()).hexdigest()


def session_generation(ctx: Context, merchant_id: int) -> int:
    """Dashboard sessions carry it; signing out moves it on, which ends every session
    made before, copies of the cookie included. Kept in `meta`: a restore never revives one."""
    record = ctx.store.get("meta", f"sessions:{merchant_id}")
    return record["generation"] if record else 0


def end_sessions(ctx: Context, merchant: dict) -> None:
    with ctx.store.transaction():
        generation = session_generation(ctx, merchant["id"]) + 1
        ctx.store.put("meta", {"name": f"sessions:{merchant['id']}", "generation": generation})


def session_merchant(ctx: Context, merchant_id, digest, generation) -> dict | None:
    """The merchant a dashboard session belongs to, while that session still holds."""
    if not isinstance(merchant_id, int) or not isinstance(digest, str) or not isinstance(generation, int):
        return None
    stored = ctx.store.get("merchants", str(merchant_id))
    if stored is None or generation != session_generation(ctx, merchant_id) \
            or not hmac.compare_digest(key_digest(stored).encode(), digest.encode()):
        return None
    return _note_activity(ctx, {**DEFAULTS, **stored})


def purge_idle(ctx: Context, idle_days: int) -> list[int]:
    """Remove every merchant (but the demo merchant) not seen for `idle_days` days of
    wall-clock time, with all its records; the ids of those removed."""
    oldest_kept = (ctx.clock.now() - timedelta(days=idle_days)).date().isoformat()
    purged = []
    with ctx.store.transaction():
        for merchant in ctx.store.all("merchants"):
            # merchants stored before activity was recorded count from their creation
            last_active = merchant.get("lastActiveOn") or merchant["createdAt"][:10]
            if merchant["id"] != DEMO_MERCHANT_ID and last_active < oldest_kept:
                snapshots.remove_all(ctx, merchant["id"])
                purged.append(merchant["id"])
    return sorted(purged)


def verify_signature(merchant: dict, body: bytes, signature: str | None) -> None:
    if not signing.verify(merchant["hmacSecret"], body, signature, merchant["hmacAlgorithm"],
                          merchant["hmacEncoding"]):
        raise Forbidden("invalid signature", num=Num.FORBIDDEN)


def update_merchant(ctx: Context, merchant: dict, changes: dict) -> dict:
    with ctx.store.transaction():
        current = ctx.store.get("merchants", str(merchant["id"]))
        changes = {key: value for key, value in changes.items() if key in SETTINGS}
        for merged in ("prices", "rateLimits"):  # overrides merge with the ones set before
            if merged in changes:
                changes[merged] = {**current.get(merged, {}), **changes[merged]}
        updated = {**current, **_settled(changes)}
        ctx.store.put("merchants", updated)
    return {**DEFAULTS, **updated}


def merchant_object(merchant: dict) -> dict:
    """The spec's Merchant object (the list-payments quirk turns `id` into a string there)."""
    return {"id": merchant["id"], "name": merchant["name"], "siteUrl": merchant["siteUrl"],
            "logoUrl": merchant["logoUrl"], "email": merchant["email"]}
