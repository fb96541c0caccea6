"""Payment rules: the two status fields and what moves them.

`status` is the lifecycle (OPEN, EXPIRED, COMPLETED); `displayStatus` is what a
merchant shows (NEW, OPEN, COMPLETED, EXPIRED, UNDERPAID, OVERPAID,
AML_CHECK_DANGER). The spec keeps them independent; these functions are the one
place that derives both from what has been received.
"""

from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

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


# The checkout page's sandbox buttons: what each one sends.
FULL, PARTIAL, RISKY = "full", "partial", "risky"
SIMULATIONS = (FULL, PARTIAL, RISKY)
RISKY_SCORE = 90  # a risk score that reads as dangerous; raised to the merchant's threshold when that is higher


@dataclass(frozen=True)
class SimulatedDeposit:
    amount: Decimal
    risk_score: int | None  # None: the sandbox's usual low score


def simulated_deposit(kind: str, missing: Decimal, decimals: int, aml_threshold: int) -> SimulatedDeposit:
    """The deposit a checkout button makes: `full` pays what is still missing,
    `partial` half of it (rounded down to the asset's decimals, at least one
    smallest unit), `risky` the missing amount from an address scored dangerous."""
    if kind == PARTIAL:
        unit = Decimal(1).scaleb(-decimals)
        return SimulatedDeposit(max((missing / 2).quantize(unit, rounding=ROUND_DOWN), unit), None)
    if kind == RISKY:
        return SimulatedDeposit(missing, min(max(RISKY_SCORE, aml_threshold), 100))
    return SimulatedDeposit(missing, None)
