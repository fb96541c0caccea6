"""The merchant's fees on incoming transactions."""

from decimal import Decimal

from sandbox.catalogue import Asset
from sandbox.domain.money import convert

DEFAULT_FEE_PERCENT = Decimal("1")  # of each incoming transaction
DEFAULT_FIXED_FEE_USD = Decimal("0.3")  # per incoming transaction, charged in the asset


def percent_fee(amount: Decimal, percent: Decimal, asset: Asset) -> Decimal:
    """Truncated to the asset's decimals: the merchant is never charged a fraction more."""
    return convert(amount, percent / 100, asset.decimals)


def in_asset(usd: Decimal, asset_price_usd: Decimal, asset: Asset) -> Decimal:
    """A USD amount expressed in the asset, truncated to its decimals."""
    return convert(usd, asset_price_usd, asset.decimals, divide=True)
