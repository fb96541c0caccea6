"""The merchant's fees on incoming transactions."""

from decimal import Decimal

from sandbox.catalogue import Asset
from sandbox.domain.money import quantize_down

DEFAULT_FEE_PERCENT = Decimal("1")  # of each incoming transaction
DEFAULT_FIXED_FEE_USD = Decimal("0.3")  # per incoming transaction, charged in the asset


def percent_fee(amount: Decimal, percent: Decimal, asset: Asset) -> Decimal:
    return quantize_down(amount * percent / 100, asset.decimals)


def in_asset(usd: Decimal, asset_price_usd: Decimal, asset: Asset) -> Decimal:
    """A USD amount expressed in the asset, truncated to its decimals."""
    return quantize_down(usd / asset_price_usd, asset.decimals)
