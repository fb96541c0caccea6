from decimal import Decimal

import pytest

from sandbox.domain.payments import Receipts, statuses


@pytest.mark.parametrize("received, deposits, flagged, expected", [
    ("0", 0, False, ("OPEN", "NEW")),
    ("4", 1, False, ("OPEN", "OPEN")),
    ("10", 1, False, ("COMPLETED", "COMPLETED")),
    ("10", 2, False, ("COMPLETED", "COMPLETED")),
    ("10.000001", 1, False, ("COMPLETED", "OVERPAID")),
    ("4", 1, True, ("OPEN", "AML_CHECK_DANGER")),
    ("12", 1, True, ("COMPLETED", "AML_CHECK_DANGER")),
])
def test_statuses_follow_the_received_total(received, deposits, flagged, expected):
    receipts = Receipts(requested=Decimal("10"), received=Decimal(received), deposits=deposits, flagged=flagged)
    assert statuses(receipts) == expected
