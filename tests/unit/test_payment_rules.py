"""The payment status rules, alone: both fields from what was received and when."""

from decimal import Decimal

import pytest

from sandbox.domain.payments import Receipts, statuses


@pytest.mark.parametrize("received, confirming, deposits, flagged, expired, expected", [
    ("0", "0", 0, False, False, ("OPEN", "NEW")),
    ("0", "10", 1, False, False, ("OPEN", "OPEN")),  # seen, still confirming
    ("4", "0", 1, False, False, ("OPEN", "OPEN")),
    ("10", "0", 1, False, False, ("COMPLETED", "COMPLETED")),
    ("10", "0", 2, False, False, ("COMPLETED", "COMPLETED")),
    ("10.000001", "0", 1, False, False, ("COMPLETED", "OVERPAID")),
    ("4", "0", 1, True, False, ("OPEN", "AML_CHECK_DANGER")),
    ("12", "0", 1, True, False, ("COMPLETED", "AML_CHECK_DANGER")),
    # the window closed first
    ("0", "0", 0, False, True, ("EXPIRED", "EXPIRED")),
    ("4", "0", 1, False, True, ("EXPIRED", "UNDERPAID")),
    ("4", "3", 2, False, True, ("EXPIRED", "UNDERPAID")),  # even with what is confirming: too little
    ("0", "10", 1, False, True, ("EXPIRED", "OPEN")),  # enough is still confirming
    ("10", "0", 1, False, True, ("EXPIRED", "COMPLETED")),  # confirmed after expiry
    ("11", "0", 1, False, True, ("EXPIRED", "OVERPAID")),
    ("0", "0", 1, True, True, ("EXPIRED", "AML_CHECK_DANGER")),
])
def test_statuses(received, confirming, deposits, flagged, expired, expected):
    receipts = Receipts(requested=Decimal("10"), received=Decimal(received), confirming=Decimal(confirming),
                        deposits=deposits, flagged=flagged, expired=expired)
    assert statuses(receipts) == expected
