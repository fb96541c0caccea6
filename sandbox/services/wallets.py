"""The merchant's addresses on each network: derivation, lookup and balances.

Addresses are real: derived with BIP-32/44 paths from a master seed per network
(which itself derives from the sandbox seed), the merchant id as the account and
a running index per merchant and network, m/44'/coin'/merchant'/0/index.
"""

from decimal import Decimal

from sandbox.catalogue import Asset, Network
from sandbox.chains import EXTERNAL_ACCOUNT, AccountState, chain_for
from sandbox.clock import to_iso
from sandbox.domain.money import ZERO, format_amount
from sandbox.domain.seed import derive_bytes, derive_int
from sandbox.services import Context

MEMO_DIGITS = 9


def new_address(ctx: Context, merchant_id: int, network: Network, client_id: str | None) -> dict:
    """Derive and store the merchant's next deposit address on `network`."""
    index = ctx.store.count("addresses", "merchant_network", (merchant_id, network.name))
    chain = chain_for(network.name)
    address = chain.derive_address(derive_bytes(ctx.seed, "bip32", network.name, size=64), merchant_id, index)
    dest_tag = None
    if chain.uses_memo:
        dest_tag = client_id if client_id is not None else generated_memo(ctx.seed, merchant_id, index)
    record = {"merchantId": merchant_id, "network": network.name, "address": address, "clientId": client_id,
              "destTag": dest_tag, "index": index, "createdAt": to_iso(ctx.clock.now())}
    ctx.store.put("addresses", record)
    return record


def generated_memo(seed: int, merchant_id: int, index: int) -> str:
    """A numeric memo, as exchanges issue them, for deposits made without a clientId."""
    low = 10 ** (MEMO_DIGITS - 1)
    return str(low + derive_int(seed, "memo", merchant_id, index, below=9 * low))


def find_address(ctx: Context, network: Network, address: str) -> dict | None:
    """The deposit address record, in whichever spelling the client used."""
    return ctx.store.get("addresses", f"{network.name}:{chain_for(network.name).canonical(address)}")


def merchant_address(ctx: Context, merchant_id: int, network: Network, address: str) -> dict | None:
    """The record when `address` is one of this merchant's wallets; None otherwise,
    so that another merchant's address is indistinguishable from an unknown one."""
    record = find_address(ctx, network, address)
    return record if record and record["merchantId"] == merchant_id else None


def balance_of(ctx: Context, network: Network, address: str, asset_short: str) -> Decimal:
    record = ctx.store.get("balances", f"{network.name}:{address}:{asset_short}")
    return Decimal(record["amount"]) if record else ZERO


def credit(ctx: Context, network: Network, address: str, asset_short: str, amount: Decimal) -> Decimal:
    """Add `amount` (negative to debit) to a balance; returns the new balance."""
    with ctx.store.transaction():
        balance = balance_of(ctx, network, address, asset_short) + amount
        ctx.store.put("balances", {"network": network.name, "address": address, "asset": asset_short,
                                   "amount": format_amount(balance), "updatedAt": to_iso(ctx.clock.now())})
    return balance


def account_state(ctx: Context, network: Network, address: str, asset: Asset) -> AccountState:
    """What the chain knows of an address: sandbox addresses from their balances,
    addresses outside the sandbox as established wallets (EXTERNAL_ACCOUNT)."""
    record = find_address(ctx, network, address)
    if record is None:
        return EXTERNAL_ACCOUNT
    address = record["address"]
    activated = ctx.store.get("balances", f"{network.name}:{address}:{network.native_asset}") is not None
    return chain_for(network.name).account(
        native_balance=balance_of(ctx, network, address, network.native_asset),
        activated=activated,
        holds_asset=balance_of(ctx, network, address, asset.short) > 0,
    )
