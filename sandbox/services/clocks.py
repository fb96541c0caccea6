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


def advance(ctx: Context, merchant: dict, seconds: float) -> MerchantClock:
    from sandbox.services import engine  # the engine runs handlers that read clocks

    with ctx.store.transaction():
        clock = clock_of(ctx, merchant["id"]).advanced(seconds, ctx.clock.now())
        _save(ctx, merchant["id"], clock)
        engine.catch_up(ctx, merchant["id"])
        return clock


def update(ctx: Context, merchant: dict, *, moment: datetime | None = None, frozen: bool | None = None
           ) -> MerchantClock:
    """Set the time (never backwards) and/or freeze or release the clock."""
    from sandbox.services import engine

    with ctx.store.transaction():
        wall = ctx.clock.now()
        current = clock_of(ctx, merchant["id"])
        clock = current.set_to(moment or current.now(wall), wall, frozen=frozen)
        _save(ctx, merchant["id"], clock)
        engine.catch_up(ctx, merchant["id"])
        return clock
