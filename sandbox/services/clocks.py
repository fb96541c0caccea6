"""Each merchant's own sandbox clock: read it, freeze it, set it, move it forward.
Moving a clock applies every transition that became due, in time order."""

from datetime import datetime, timedelta

from sandbox.clock import MerchantClock, from_iso, to_iso
from sandbox.services import Context


def clock_of(ctx: Context, merchant_id: int) -> MerchantClock:
    record = ctx.store.get("clocks", str(merchant_id))
    if record is None:
        return MerchantClock()
    frozen_at = from_iso(record["frozenAt"]) if record["frozenAt"] else None
    return MerchantClock(offset=timedelta(microseconds=record["offsetMicroseconds"]), frozen_at=frozen_at)


def now(ctx: Context, merchant_id: int) -> datetime:
    """The merchant's time: what every timestamp it sees is made of."""
    return clock_of(ctx, merchant_id).now(ctx.clock.now())


def _save(ctx: Context, merchant_id: int, clock: MerchantClock) -> None:
    ctx.store.put("clocks", {"merchantId": merchant_id, "offsetMicroseconds": clock.offset // timedelta(microseconds=1),
                             "frozenAt": to_iso(clock.frozen_at) if clock.frozen_at else None})


def state(ctx: Context, merchant_id: int) -> dict:
    """`{"now", "frozen"}`, as the control API shows a clock."""
    clock = clock_of(ctx, merchant_id)
    return {"now": to_iso(clock.now(ctx.clock.now())), "frozen": clock.frozen}


def advance(ctx: Context, merchant: dict, seconds: float) -> dict:
    """Move the clock forward; everything due by then is applied before this returns."""
    from sandbox.services import engine  # the engine runs handlers that read clocks

    with ctx.store.transaction():
        _save(ctx, merchant["id"], clock_of(ctx, merchant["id"]).advanced(seconds, ctx.clock.now()))
        engine.catch_up(ctx, merchant["id"])
        return state(ctx, merchant["id"])


def update(ctx: Context, merchant: dict, *, moment: datetime | None = None, frozen: bool | None = None) -> dict:
    """Set the time (never backwards) and/or freeze or release the clock."""
    from sandbox.services import engine

    with ctx.store.transaction():
        wall = ctx.clock.now()
        current = clock_of(ctx, merchant["id"])
        _save(ctx, merchant["id"], current.set_to(moment or current.now(wall), wall, frozen=frozen))
        engine.catch_up(ctx, merchant["id"])
        return state(ctx, merchant["id"])
