"""Time. `Clock` is the one place that reads the wall clock (never call
datetime.now() elsewhere); `MerchantClock` is a merchant's sandbox time derived
from it: following it with an offset, or frozen at a moment."""

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sandbox.domain.errors import InvalidRequest

# How far ahead of the wall clock a merchant's clock may go: far enough for any test,
# and far from datetime's year-9999 edge, where adding a timeout would overflow.
MAX_AHEAD = timedelta(days=100 * 366)


class Clock:
    """Wall-clock time in UTC (freezegun moves it in tests)."""

    def now(self) -> datetime:
        return datetime.now(timezone.utc)


@dataclass(frozen=True)
class MerchantClock:
    """A merchant's clock: the wall clock shifted by `offset`, or stopped at `frozen_at`.
    It never goes backwards: every change is checked against the time it shows."""

    offset: timedelta = timedelta(0)
    frozen_at: datetime | None = None

    @property
    def frozen(self) -> bool:
        return self.frozen_at is not None

    def now(self, wall: datetime) -> datetime:
        return self.frozen_at if self.frozen_at is not None else wall + self.offset

    def set_to(self, moment: datetime, wall: datetime, *, frozen: bool | None = None) -> "MerchantClock":
        """Show `moment` now, then run (or stay frozen, when `frozen` is true)."""
        if moment < self.now(wall):
            raise InvalidRequest("the clock cannot move backwards")
        if moment > wall + MAX_AHEAD:
            raise InvalidRequest("the clock cannot run more than 100 years ahead")
        stay_frozen = self.frozen if frozen is None else frozen
        return MerchantClock(frozen_at=moment) if stay_frozen else MerchantClock(offset=moment - wall)

    def advanced(self, seconds: float, wall: datetime) -> "MerchantClock":
        if seconds < 0:
            raise InvalidRequest("the clock cannot move backwards")
        return self.set_to(self.now(wall) + timedelta(seconds=seconds), wall)


def to_iso(moment: datetime) -> str:
    """ISO 8601 in UTC with microseconds and a `Z`, e.g. 2026-11-21T10:00:00.000000Z."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def from_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
