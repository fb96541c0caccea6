"""The simulated AML check of incoming transactions."""

from decimal import Decimal

from sandbox.domain.seed import derive_int

DEFAULT_THRESHOLD = 75  # a risk score at or above it is dangerous
CHECK_PRICE_USD = Decimal("0.1")  # what one check costs the merchant
DEFAULT_SCORE_CEILING = 20  # scores drawn when none is given stay low: 0..20


def default_risk_score(seed: int, merchant_id: int, network: str, txn_id: str) -> int:
    return derive_int(seed, "aml", merchant_id, network, txn_id, below=DEFAULT_SCORE_CEILING + 1)


def is_danger(risk_score: int, threshold: int) -> bool:
    return risk_score >= threshold
