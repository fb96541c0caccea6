"""TRON: base58check addresses, energy and bandwidth fees paid in TRX."""

from decimal import Decimal

from bip_utils import Bip44, Bip44Coins, TrxAddrDecoder

from sandbox.catalogue import Asset
from sandbox.chains.base import AccountState, Chain, FeeEstimate

SUN = Decimal("0.000001")
ENERGY_PRICE_SUN = 100  # burned per missing unit of energy
BANDWIDTH_PRICE_SUN = 1000  # burned per byte when free bandwidth does not cover the transaction
FREE_DAILY_BANDWIDTH = 600  # granted to every activated account
ACTIVATION_FEE = Decimal("1.1")  # creating a new account by sending it TRX
TOKEN_ENERGY_TO_HOLDER = 64_285
TOKEN_ENERGY_TO_FRESH = 130_285  # the recipient's balance slot is written for the first time
TOKEN_BANDWIDTH = 345
NATIVE_BANDWIDTH = 268


class Tron(Chain):
    bip44_coin = (Bip44, Bip44Coins.TRON)

    def is_valid_address(self, address: str) -> bool:
        try:
            TrxAddrDecoder.DecodeAddr(address)
        except (ValueError, TypeError):
            return False
        return True

    def account(self, native_balance: Decimal, activated: bool, holds_asset: bool) -> AccountState:
        """An activated account gets the daily free bandwidth; staked energy is not simulated."""
        return AccountState(native_balance=native_balance, activated=activated, holds_asset=holds_asset,
                            bandwidth=FREE_DAILY_BANDWIDTH if activated else 0)

    def estimate_fee(self, asset: Asset, sender: AccountState, recipient: AccountState,
                     price_factor: Decimal) -> FeeEstimate:
        """Burn model: missing energy at 100 sun a unit; the whole transaction's bytes at
        1,000 sun when free bandwidth cannot cover it (as TRON does); 1.1 TRX when TRX
        goes to an account that does not exist yet. TRON prices are fixed by the chain,
        so `price_factor` does not apply."""
        if asset.is_native:
            energy, bandwidth = 0, NATIVE_BANDWIDTH
        else:
            energy = TOKEN_ENERGY_TO_HOLDER if recipient.holds_asset else TOKEN_ENERGY_TO_FRESH
            bandwidth = TOKEN_BANDWIDTH
        burned_sun = max(0, energy - sender.energy) * ENERGY_PRICE_SUN
        if sender.bandwidth < bandwidth:
            burned_sun += bandwidth * BANDWIDTH_PRICE_SUN
        fee = burned_sun * SUN
        if asset.is_native and not recipient.activated:
            fee += ACTIVATION_FEE
        details = {
            "energy": energy,
            "bandwidth": bandwidth,
            "isActivated": sender.activated,
            "resource": {"energy": sender.energy, "bandwidth": sender.bandwidth},
        }
        can_proceed = sender.activated and sender.native_balance >= fee
        return FeeEstimate(fee=fee, fee_currency=self.network.native_asset, can_proceed=can_proceed, details=details)
