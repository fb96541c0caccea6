"""The simulated market: deterministic price movements derived from the seed and the clock."""

from datetime import datetime
from decimal import Decimal

from sandbox.domain.seed import derive_fraction

PRICE_WINDOW_SECONDS = 300  # gas prices and fee rates change every five minutes


def fee_price_factor(seed: int, network: str, now: datetime) -> Decimal:
    """A factor between 0.80 and 1.25 applied to a network's base gas price or fee rate."""
    window = int(now.timestamp()) // PRICE_WINDOW_SECONDS
    return Decimal("0.80") + (Decimal("0.45") * Decimal(str(derive_fraction(seed, "fee-market", network, window)))
                              ).quantize(Decimal("0.0001"))
