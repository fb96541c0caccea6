"""The simulated market: USD prices, and deterministic fee-price movements derived
from the seed and the clock."""

from datetime import datetime
from decimal import ROUND_HALF_EVEN, Decimal


from sandbox.domain.money import convert
from sandbox.domain.seed import derive_fraction

# USD prices of each coin; a merchant's `prices` setting overrides any of them.
DEFAULT_PRICES_USD = {
    "USDT": Decimal("1"), "USDC": Decimal("1"), "TRX": Decimal("0.25"), "ETH": Decimal("3500"),
    "BNB": Decimal("600"), "POL": Decimal("0.5"), "SOL": Decimal("150"), "TON": Decimal("5.5"),
    "BTC": Decimal("95000"),
}
USD_PLACES = 8


def price_usd(asset_short: str, overrides: dict[str, str] | None = None) -> Decimal:
    override = (overrides or {}).get(asset_short)
    return Decimal(override) if override is not None else DEFAULT_PRICES_USD[asset_short]


def to_usd(amount: Decimal, asset_short: str, overrides: dict[str, str] | None = None) -> Decimal:
    """Rounded half-even to 8 decimals (a value shown, not charged)."""
    return convert(amount, price_usd(asset_short, overrides), USD_PLACES, rounding=ROUND_HALF_EVEN)

PRICE_WINDOW_SECONDS = 300  # gas prices and fee rates change every five minutes


def fee_price_factor(seed: int, network: str, now: datetime) -> Decimal:
    """A factor between 0.80 and 1.25 applied to a network's base gas price or fee rate."""
    window = int(now.timestamp()) // PRICE_WINDOW_SECONDS
    return Decimal("0.80") + (Decimal("0.45") * Decimal(str(derive_fraction(seed, "fee-market", network, window)))
                              ).quantize(Decimal("0.0001"))
