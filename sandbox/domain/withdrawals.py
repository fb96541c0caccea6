"""Withdrawal rules: what a valid request is, and the states a withdrawal goes through."""

import re
from decimal import Decimal

from datetime import timedelta

from sandbox.catalogue import Asset, Network
from sandbox.domain.assets import parse_asset_amount
from sandbox.domain.errors import Conflict, InvalidRequest

OPEN, APPROVED, CANCELLED, COMPLETE = "OPEN", "APPROVED", "CANCELLED", "COMPLETE"
STATUSES = (OPEN, APPROVED, CANCELLED, COMPLETE)
# The spec's state table, with cancellation allowed until processing starts.
TRANSITIONS = {OPEN: {APPROVED, CANCELLED}, APPROVED: {COMPLETE, CANCELLED}}
# Processing on chain takes this many of the network's block times after approval.
PROCESSING_BLOCKS = 5

# The only asset/network pairs POST /withdrawal accepts (the spec's list).
SUPPORTED_ASSETS = {("USDT", "tron"), ("USDT", "ethereum"), ("USDC", "ethereum")}
MAX_AMOUNT_PLACES = 8


def require_supported(short: str, network: str) -> None:
    if (short, network) not in SUPPORTED_ASSETS:
        raise InvalidRequest("unsupported asset and network combination")


_REQUESTED_AMOUNT = re.compile(r"^[0-9]{1,30}(\.[0-9]{1,%d})?$" % MAX_AMOUNT_PLACES)


def parse_requested_amount(text: str, asset: Asset) -> Decimal:
    """A positive decimal string with at most 8 decimals as sent (trailing zeros
    count), and no more significant ones than the asset has."""
    if not isinstance(text, str) or not _REQUESTED_AMOUNT.match(text):
        raise InvalidRequest("amount must be a decimal string with at most 8 decimal places")
    return parse_asset_amount(text, asset)


def require_transferable(balance: Decimal) -> Decimal:
    if balance <= 0:
        raise InvalidRequest("transferAll: the balance of addressFrom is 0")
    return balance


def require_direct_mode_pair(address_from: str | None, client_id: str | None, transfer_all: bool) -> bool:
    """Whether the request is in withdraw-direct mode; addressFrom and clientId go together."""
    if (address_from is None) != (client_id is None):
        raise InvalidRequest("addressFrom and clientId must be sent together")
    direct = address_from is not None
    if transfer_all and not direct:
        raise InvalidRequest("transferAll requires withdraw-direct mode (addressFrom and clientId)")
    return direct


def require_transition(current: str, target: str) -> None:
    if target not in TRANSITIONS.get(current, ()):
        allowed = " or ".join(sorted(state for state, targets in TRANSITIONS.items() if target in targets))
        raise Conflict(f"the withdrawal is {current}; only an {allowed} withdrawal can become {target}")


def processing_time(network: Network) -> timedelta:
    return timedelta(seconds=float(network.block_time * PROCESSING_BLOCKS))


def direct_payout(requested: Decimal, transfer_all: bool, balance: Decimal) -> Decimal | None:
    """What leaves a withdraw-direct source at processing: the whole balance for
    transferAll, else the amount; None when the balance cannot pay it."""
    payout = balance if transfer_all else requested
    return payout if 0 < payout <= balance else None
