"""Deposit addresses: fresh ones, or the one bound to a clientId on a network."""

from sandbox.domain.assets import normalise, require_asset, require_network
from sandbox.domain.errors import InvalidRequest
from sandbox.services import Context, addresses, wallets

MAX_ADDRESSES = 100


def create_deposit_addresses(ctx: Context, merchant: dict, asset_network: str, asset_short: str,
                             number, client_id: str | None) -> list[dict]:
    """With a clientId: the address bound to merchant + network + clientId (created
    on first use), whatever the asset, and `number` is ignored whatever it holds.
    Without: `number` (an integer from 1 to 100) fresh addresses."""
    network_name, short = normalise(asset_network, asset_short)
    network = require_network(network_name)
    asset = require_asset(network, short)
    if client_id is None and not (type(number) is int and 1 <= number <= MAX_ADDRESSES):  # bool is no number
        raise InvalidRequest(f"number must be between 1 and {MAX_ADDRESSES}")
    with ctx.store.transaction():
        if client_id is not None:
            records = [addresses.client_address(ctx, merchant["id"], network, client_id)]
        else:
            records = [addresses.new_address(ctx, merchant["id"], network, None) for _ in range(number)]
        for record in records:
            wallets.ensure_wallet(ctx, record, asset.short)
    return [{"symbol": asset.short, "address": r["address"], "dest_tag": r["destTag"]} for r in records]
