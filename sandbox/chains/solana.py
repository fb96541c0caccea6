"""Solana: 32-byte base58 addresses; a fee per signature plus rent for new token accounts."""

from decimal import Decimal

from bip_utils import Base58Decoder, Base58Encoder, Bip44, Bip44Coins

from sandbox.catalogue import Asset
from sandbox.chains.base import AccountState, Chain, FeeEstimate, balance_details

ADDRESS_BYTES = 32
SIGNATURE_FEE = Decimal("0.000005")  # 5,000 lamports
TOKEN_ACCOUNT_RENT = Decimal("0.00203928")  # rent-exempt minimum of an associated token account


class Solana(Chain):
    bip44_coin = (Bip44, Bip44Coins.SOLANA)

    def is_valid_address(self, address: str) -> bool:
        """Any 32 bytes in base58: program-derived addresses are off the curve, yet valid."""
        try:
            return len(Base58Decoder.Decode(address)) == ADDRESS_BYTES
        except (ValueError, TypeError):
            return False

    def transaction_id(self, digest: bytes) -> str:
        """A transaction signature: 64 bytes in base58."""
        return Base58Encoder.Encode(digest[:64])

    def estimate_fee(self, asset: Asset, sender: AccountState, recipient: AccountState,
                     price_factor: Decimal) -> FeeEstimate:
        """Base fees are fixed by the protocol; `price_factor` does not apply."""
        fee = SIGNATURE_FEE
        if not asset.is_native and not recipient.holds_asset:
            fee += TOKEN_ACCOUNT_RENT
        return FeeEstimate(fee=fee, fee_currency=self.network.native_asset,
                           can_proceed=sender.native_balance >= fee,
                           details=balance_details(fee, sender.native_balance))
