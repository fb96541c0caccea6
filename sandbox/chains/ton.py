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


class Ton(Chain):
    bip44_coin = (Bip44, Bip44Coins.TON)
    uses_memo = True

    def is_valid_address(self, address: str) -> bool:
        if not isinstance(address, str) or not (_FRIENDLY.match(address) or _RAW.match(address)):
            return False
        try:
            Address(address)
        except (AddressError, ValueError, TypeError):
            return False
        return True

    def estimate_fee(self, asset: Asset, sender: AccountState, recipient: AccountState,
                     price_factor: Decimal) -> FeeEstimate:
        fee = NATIVE_TRANSFER_FEE if asset.is_native else JETTON_TRANSFER_FEE
        return FeeEstimate(fee=fee, fee_currency=self.network.native_asset,
                           can_proceed=sender.native_balance >= fee,
                           details=balance_details(fee, sender.native_balance))
