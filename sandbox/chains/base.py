"""The interface every simulated network family implements."""

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

from bip_utils import Bip44Changes

from sandbox.catalogue import Asset, Network
from sandbox.domain.money import ZERO, format_amount


@dataclass(frozen=True)
class AccountState:
    """What a fee model needs to know of one address on one network.

    `activated`: the account exists on chain (TRON: has received TRX).
    `holds_asset`: holds a balance (or token account) of the asset being sent.
    `energy` / `bandwidth`: TRON resources the account has available now.
    """

    native_balance: Decimal = ZERO
    activated: bool = False
    holds_asset: bool = False
    energy: int = 0
    bandwidth: int = 0


# The state assumed for a recipient the sandbox does not know: an established
# wallet (activated, already holding the asset), as exchanges and shops are.
EXTERNAL_ACCOUNT = AccountState(activated=True, holds_asset=True)


@dataclass(frozen=True)
class FeeEstimate:
    fee: Decimal
    fee_currency: str
    can_proceed: bool
    details: dict = field(default_factory=dict)


def balance_details(required: Decimal, available: Decimal) -> dict:
    """The spec's EVM/Solana breakdown: present only when the balance falls short."""
    if available >= required:
        return {}
    return {"feeRequired": format_amount(required), "feeAvailable": format_amount(available),
            "feeDeficit": format_amount(required - available)}


@lru_cache(maxsize=4096)
def _bip44_change_node(coin, master_seed: bytes, account: int, change: int):
    """The account/change node; cached because deriving from the master costs ~1 ms."""
    context_class, coin_enum = coin
    change_type = Bip44Changes.CHAIN_INT if change else Bip44Changes.CHAIN_EXT
    return context_class.FromSeed(master_seed, coin_enum).Purpose().Coin().Account(account).Change(change_type)


class Chain(ABC):
    """One network: addresses (derive, validate) and the fee of a transfer."""

    #: Networks whose deposits are told apart by a memo (dest_tag).
    uses_memo = False

    def __init__(self, network: Network):
        self.network = network

    @property
    @abstractmethod
    def bip44_coin(self) -> tuple:
        """(bip_utils context class, coin enum) used to derive addresses."""

    def derive_address(self, master_seed: bytes, account: int, index: int, change: int = 0) -> str:
        """The address at m/purpose'/coin'/account'/change/index of this network's master seed."""
        node = _bip44_change_node(self.bip44_coin, master_seed, account, change)
        return node.AddressIndex(index).PublicKey().ToAddress()

    @abstractmethod
    def is_valid_address(self, address: str) -> bool:
        """Whether `address` is well formed for the network, checksum included."""

    def canonical(self, address: str) -> str:
        """The one spelling of an address the sandbox stores (networks whose
        addresses are case-insensitive override this)."""
        return address

    def transaction_id(self, digest: bytes) -> str:
        """A transaction id in this network's format, made from 64 derived bytes."""
        return digest[:32].hex()

    def account(self, native_balance: Decimal, activated: bool, holds_asset: bool) -> AccountState:
        """The chain's view of an address the sandbox knows."""
        return AccountState(native_balance=native_balance, activated=activated, holds_asset=holds_asset)

    @abstractmethod
    def estimate_fee(self, asset: Asset, sender: AccountState, recipient: AccountState,
                     price_factor: Decimal) -> FeeEstimate:
        """The network fee of sending `asset` from `sender` to `recipient`.

        `price_factor` scales market-driven prices (gas price, fee rate) around
        their base so estimates move realistically yet deterministically.
        """
