"""The merchant's addresses on each network: derivation, binding to clients, lookup.

Addresses are real: derived with BIP-32/44 paths from a master seed per network
(which itself derives from the sandbox seed), the merchant id as the account and
a running index per merchant and network, m/44'/coin'/merchant'/0/index.
Addresses of the outside world (senders of simulated deposits) come from a
separate master seed, so they are just as valid and never collide.
"""

from sandbox.catalogue import Network
from sandbox.chains import chain_for
from sandbox.clock import to_iso
from sandbox.domain.seed import derive_bytes, derive_int
from sandbox.services import Context, clocks

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
              "destTag": dest_tag, "index": index, "createdAt": to_iso(clocks.now(ctx, merchant_id))}
    ctx.store.put("addresses", record)
    return record


def hot_wallet(ctx: Context, merchant_id: int, network: Network) -> str:
    """The merchant's pooled wallet on `network`, which pays withdrawals not in direct
    mode: m/44'/coin'/merchant'/1/0, the first internal address of its account."""
    master = derive_bytes(ctx.seed, "bip32", network.name, size=64)
    return chain_for(network.name).derive_address(master, merchant_id, 0, change=1)


def client_address(ctx: Context, merchant_id: int, network: Network, client_id: str) -> dict:
    """The address bound to merchant + network + clientId, created on first use."""
    with ctx.store.transaction():
        bound = ctx.store.find("addresses", "client", (merchant_id, network.name, client_id))
        return bound[0] if bound else new_address(ctx, merchant_id, network, client_id)


def outside_address(ctx: Context, network: Network, *path) -> str:
    """A valid address of someone outside the sandbox (a deposit's sender), derived from `path`."""
    index = derive_int(ctx.seed, "outside-index", network.name, *path, below=2**31)
    return chain_for(network.name).derive_address(derive_bytes(ctx.seed, "bip32-outside", network.name, size=64),
                                                  0, index)


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
