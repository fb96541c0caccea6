"""TON: user-friendly base64url addresses with a CRC16; deposits told apart by a memo."""

import re
from decimal import Decimal

from bip_utils import Bip44, Bip44Coins
from pytoniq_core import Address
from pytoniq_core.boc.address import AddressError

from sandbox.catalogue import Asset
from sandbox.chains.base import AccountState, Chain, FeeEstimate, balance_details

NATIVE_TRANSFER_FEE = Decimal("0.0055")
JETTON_TRANSFER_FEE = Decimal("0.05")  # attached to a jetton transfer; covers forward and storage fees

_FRIENDLY = re.compile(r"^[A-Za-z0-9_\-+/]{48}$")
_RAW = re.compile(r"^-?[0-9]{1,3}:[0-9a-fA-F]{64}$")


WORKCHAINS = (0, -1)


def _parse(address: str) -> Address | None:
    if not isinstance(address, str) or not (_FRIENDLY.match(address) or _RAW.match(address)):
        return None
    try:
        return Address(address)
    except (AddressError, ValueError, TypeError):
        return None


class Ton(Chain):
    bip44_coin = (Bip44, Bip44Coins.TON)
    uses_memo = True

    def is_valid_address(self, address: str) -> bool:
        """Mainnet, in the basechain (0) or the masterchain (-1); user-friendly or raw."""
        parsed = _parse(address)
        return parsed is not None and parsed.wc in WORKCHAINS and not parsed.is_test_only

    def canonical(self, address: str) -> str:
        """One spelling per account: user-friendly, non-bounceable (UQ…), as wallets show it."""
        parsed = _parse(address)
        return parsed.to_str(is_user_friendly=True, is_bounceable=False, is_url_safe=True) if parsed else address

    def estimate_fee(self, asset: Asset, sender: AccountState, recipient: AccountState,
                     price_factor: Decimal) -> FeeEstimate:
        fee = NATIVE_TRANSFER_FEE if asset.is_native else JETTON_TRANSFER_FEE
        return FeeEstimate(fee=fee, fee_currency=self.network.native_asset,
                           can_proceed=sender.native_balance >= fee,
                           details=balance_details(fee, sender.native_balance))
