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
    """What a payment has received so far, and whether its window closed first."""

    requested: Decimal
    received: Decimal  # deposits with enough confirmations: totalReceivedAmount
    confirming: Decimal  # deposits seen, still short of confirmsNeeded
    deposits: int  # deposits seen
    flagged: bool  # a deposit scored at or above the AML threshold
    expired: bool = False  # the timeout passed before the payment was complete


def statuses(receipts: Receipts) -> tuple[str, str]:
    """(status, displayStatus).

    status: COMPLETED once the confirmed total reaches the amount before the
    window closes; EXPIRED when it closes first, and for good; OPEN until then.
    displayStatus: AML_CHECK_DANGER after a flagged deposit; else, by the confirmed
    total, COMPLETED or OVERPAID (even after expiry: late funds still count); else
    NEW before any deposit, OPEN while the window is open (or, after it, while a
    deposit big enough is still confirming), UNDERPAID when the window closed on
    too little, EXPIRED when it closed on nothing."""
    if receipts.expired:
        status = EXPIRED
    else:
        status = COMPLETED if receipts.received >= receipts.requested else OPEN
    if receipts.flagged:
        display = AML_CHECK_DANGER
    elif receipts.received > receipts.requested:
        display = OVERPAID
    elif receipts.received == receipts.requested:
        display = COMPLETED
    elif receipts.deposits == 0:
        display = EXPIRED if receipts.expired else NEW
    elif not receipts.expired or receipts.received + receipts.confirming >= receipts.requested:
        display = OPEN
    else:
        display = UNDERPAID
    return status, display
