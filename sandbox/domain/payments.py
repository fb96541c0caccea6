"""Payment rules: the two status fields and what moves them.

`status` is the lifecycle (OPEN, EXPIRED, COMPLETED); `displayStatus` is what a
merchant shows (NEW, OPEN, COMPLETED, EXPIRED, UNDERPAID, OVERPAID,
AML_CHECK_DANGER). The spec keeps them independent; these functions are the one
place that derives both from what has been received.
"""

from dataclasses import dataclass
from decimal import Decimal

OPEN, EXPIRED, COMPLETED = "OPEN", "EXPIRED", "COMPLETED"
STATUSES = (OPEN, EXPIRED, COMPLETED)
NEW, UNDERPAID, OVERPAID, AML_CHECK_DANGER = "NEW", "UNDERPAID", "OVERPAID", "AML_CHECK_DANGER"
DISPLAY_STATUSES = (NEW, OPEN, COMPLETED, EXPIRED, UNDERPAID, OVERPAID, AML_CHECK_DANGER)

DEFAULT_TIMEOUT_SECONDS = 3600


@dataclass(frozen=True)
class Receipts:
    """What a payment has received so far."""

    requested: Decimal
    received: Decimal  # total of its counted deposits
    deposits: int  # deposits seen
    flagged: bool  # a deposit scored at or above the AML threshold


def statuses(receipts: Receipts) -> tuple[str, str]:
    """(status, displayStatus). Full or more received completes the payment; a
    flagged deposit shows AML_CHECK_DANGER whatever the amounts."""
    status = COMPLETED if receipts.received >= receipts.requested else OPEN
    if receipts.flagged:
        display = AML_CHECK_DANGER
    elif receipts.deposits == 0:
        display = NEW
    elif receipts.received < receipts.requested:
        display = OPEN
    elif receipts.received == receipts.requested:
        display = COMPLETED
    else:
        display = OVERPAID
    return status, display
