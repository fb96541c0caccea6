"""What the checkout page's sandbox buttons send."""

from decimal import Decimal

from sandbox.domain.payments import FULL, PARTIAL, RISKY, SimulatedDeposit, simulated_deposit


def test_full_pays_what_is_missing_with_the_usual_score():
    assert simulated_deposit(FULL, Decimal("12.5"), 6, 75) == SimulatedDeposit(Decimal("12.5"), None)


def test_partial_pays_half_rounded_down_to_the_asset_decimals():
    deposit = simulated_deposit(PARTIAL, Decimal("0.000003"), 6, 75)
    assert deposit.amount == Decimal("0.000001") and deposit.risk_score is None


def test_partial_of_one_smallest_unit_is_that_unit():
    assert simulated_deposit(PARTIAL, Decimal("0.000001"), 6, 75).amount == Decimal("0.000001")


def test_risky_scores_at_or_above_the_merchants_threshold():
    assert simulated_deposit(RISKY, Decimal("5"), 6, 75).risk_score == 90
    assert simulated_deposit(RISKY, Decimal("5"), 6, 97).risk_score == 97
    assert simulated_deposit(RISKY, Decimal("5"), 6, 100).risk_score == 100
