"""The one clock everything reads. Never call datetime.now() elsewhere."""

from datetime import datetime, timezone


class Clock:
    """Wall-clock time in UTC (freezegun moves it in tests)."""

    def now(self) -> datetime:
        return datetime.now(timezone.utc)


def to_iso(moment: datetime) -> str:
    """ISO 8601 in UTC with microseconds and a `Z`, e.g. 2026-11-21T10:00:00.000000Z."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def from_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
