"""Bitcoin: native segwit deposit addresses (BIP-84); fee = size in vbytes x fee rate."""

from decimal import Decimal

from bip_utils import (Bip84, Bip84Coins, P2PKHAddrDecoder, P2SHAddrDecoder, SegwitBech32Decoder)
from bip_utils.bech32.bech32_ex import Bech32ChecksumError

from sandbox.catalogue import Asset
from sandbox.chains.base import AccountState, Chain, FeeEstimate, balance_details

SATOSHI = Decimal("0.00000001")
TRANSFER_VBYTES = 141  # one P2WPKH input, two outputs (payment and change)
BASE_FEE_RATE_SAT_PER_VBYTE = Decimal("8")
MAINNET_HRP = "bc"
_WITNESS_PROGRAM_SIZES = {0: (20, 32), 1: (32,)}  # P2WPKH/P2WSH; P2TR (bech32m)


class Bitcoin(Chain):
    bip44_coin = (Bip84, Bip84Coins.BITCOIN)

    def is_valid_address(self, address: str) -> bool:
        """bech32 (v0) and bech32m (v1, taproot) segwit, and legacy base58 P2PKH/P2SH."""
        if not isinstance(address, str):
            return False
        if address.lower().startswith(MAINNET_HRP + "1"):
            try:
                version, program = SegwitBech32Decoder.Decode(MAINNET_HRP, address)
            except (ValueError, TypeError, Bech32ChecksumError):
                return False
            return len(program) in _WITNESS_PROGRAM_SIZES.get(version, ())
        for decoder, prefix in ((P2PKHAddrDecoder, b"\x00"), (P2SHAddrDecoder, b"\x05")):
            try:
                decoder.DecodeAddr(address, net_ver=prefix)
                return True
            except (ValueError, TypeError):
                continue
        return False

    def canonical(self, address: str) -> str:
        """bech32 is case-insensitive and written in lowercase; base58 is case-sensitive."""
        return address.lower() if address.lower().startswith(MAINNET_HRP + "1") else address

    def estimate_fee(self, asset: Asset, sender: AccountState, recipient: AccountState,
                     price_factor: Decimal) -> FeeEstimate:
        rate = (BASE_FEE_RATE_SAT_PER_VBYTE * price_factor).quantize(Decimal(1))
        fee = TRANSFER_VBYTES * rate * SATOSHI
        return FeeEstimate(fee=fee, fee_currency=self.network.native_asset,
                           can_proceed=sender.native_balance >= fee,
                           details=balance_details(fee, sender.native_balance))
