"""EVM networks (ethereum, bsc, polygon): hex addresses with EIP-55 checksums, gas fees."""

import re
from decimal import Decimal

from bip_utils import Bip44, Bip44Coins, Kekkak256

from sandbox.catalogue import Asset
from sandbox.chains.base import AccountState, Chain, FeeEstimate, balance_details

GWEI = Decimal("0.000000001")
NATIVE_GAS = 21_000
TOKEN_GAS = 65_000
# Typical gas prices (gwei) the simulated market moves around.
BASE_GAS_PRICE_GWEI = {"ethereum": Decimal("4"), "bsc": Decimal("0.1"), "polygon": Decimal("30")}

_HEX_ADDRESS = re.compile(r"^0x[0-9a-fA-F]{40}$")


def checksum_address(address: str) -> str:
    """EIP-55: a hex digit is uppercase where the keccak of the lowercase address has a nibble >= 8."""
    digits = address[2:].lower()
    nibbles = Kekkak256.QuickDigest(digits.encode()).hex()
    return "0x" + "".join(c.upper() if int(n, 16) >= 8 else c for c, n in zip(digits, nibbles))


class Evm(Chain):
    bip44_coin = (Bip44, Bip44Coins.ETHEREUM)

    def is_valid_address(self, address: str) -> bool:
        """All-lowercase and all-uppercase hex carry no checksum; mixed case must be EIP-55."""
        if not isinstance(address, str) or not _HEX_ADDRESS.match(address):
            return False
        digits = address[2:]
        return digits in (digits.lower(), digits.upper()) or checksum_address(address) == address

    def canonical(self, address: str) -> str:
        """EIP-55 checksum spelling; EVM addresses are case-insensitive."""
        return checksum_address(address)

    def transaction_id(self, digest: bytes) -> str:
        return "0x" + digest[:32].hex()

    def gas_price(self, price_factor: Decimal) -> Decimal:
        """In the native coin, rounded to a whole wei."""
        gwei = (BASE_GAS_PRICE_GWEI[self.network.name] * price_factor).quantize(Decimal("0.000000001"))
        return gwei * GWEI

    def estimate_fee(self, asset: Asset, sender: AccountState, recipient: AccountState,
                     price_factor: Decimal) -> FeeEstimate:
        gas = NATIVE_GAS if asset.is_native else TOKEN_GAS
        fee = gas * self.gas_price(price_factor)
        return FeeEstimate(fee=fee, fee_currency=self.network.native_asset,
                           can_proceed=sender.native_balance >= fee,
                           details=balance_details(fee, sender.native_balance))
