"""Withdrawal rules: what a valid request is, and the states a withdrawal goes through."""

from decimal import Decimal

from sandbox.catalogue import Asset
from sandbox.domain.assets import parse_asset_amount
from sandbox.domain.errors import InvalidRequest
from sandbox.domain.money import decimal_places, parse_amount

OPEN, APPROVED, CANCELLED, COMPLETE = "OPEN", "APPROVED", "CANCELLED", "COMPLETE"
STATUSES = (OPEN, APPROVED, CANCELLED, COMPLETE)

# The only asset/network pairs POST /withdrawal accepts (the spec's list).
SUPPORTED_ASSETS = {("USDT", "tron"), ("USDT", "ethereum"), ("USDC", "ethereum")}
MAX_AMOUNT_PLACES = 8


def require_supported(short: str, network: str) -> None:
    if (short, network) not in SUPPORTED_ASSETS:
        raise InvalidRequest("unsupported asset and network combination")


def parse_requested_amount(text: str, asset: Asset) -> Decimal:
    """A positive decimal string with at most 8 decimals, and no more than the asset has."""
    amount = parse_amount(text)
    if amount is None or decimal_places(amount) > MAX_AMOUNT_PLACES:
        raise InvalidRequest("amount must be a decimal string with at most 8 decimal places")
    return parse_asset_amount(text, asset)


def require_direct_mode_pair(address_from: str | None, client_id: str | None, transfer_all: bool) -> bool:
    """Whether the request is in withdraw-direct mode; addressFrom and clientId go together."""
    if (address_from is None) != (client_id is None):
        raise InvalidRequest("addressFrom and clientId must be sent together")
    direct = address_from is not None
    if transfer_all and not direct:
        raise InvalidRequest("transferAll requires withdraw-direct mode (addressFrom and clientId)")
    return direct
