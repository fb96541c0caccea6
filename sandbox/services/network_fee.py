"""Network fee estimates, with the fee model a withdrawal uses."""

from sandbox.chains import chain_for
from sandbox.domain.assets import normalise, require_asset, require_network
from sandbox.domain.errors import InvalidRequest
from sandbox.domain.market import fee_price_factor
from sandbox.domain.money import format_amount
from sandbox.services import Context, wallets

# Stable `num` codes of the network-fee errors found here (the README lists them all).
INVALID_ADDRESS_TO, UNKNOWN_ADDRESS_FROM, WITHDRAWALS_DISABLED = 10045, 10046, 10047


def estimate_network_fee(ctx: Context, merchant: dict, asset_network: str, address_from: str, address_to: str,
                         asset_short: str | None = None) -> dict:
    """One estimate per coin: the requested one, or every withdraw-enabled coin of the network."""
    network_name, short = normalise(asset_network, asset_short)
    network = require_network(network_name)
    if short is not None:
        asset = require_asset(network, short)
        if not asset.withdraw_enabled:
            raise InvalidRequest(f"withdrawals of {asset.short} are not enabled on {network.name}",
                                 num=WITHDRAWALS_DISABLED)
        assets = [asset]
    else:
        assets = network.withdrawable
    chain = chain_for(network.name)
    if not chain.is_valid_address(address_to):
        raise InvalidRequest(f"addressTo is not a valid {network.name} address", num=INVALID_ADDRESS_TO)
    with ctx.store.transaction():
        source = wallets.merchant_address(ctx, merchant["id"], network, address_from)
        if source is None:
            raise InvalidRequest(f"addressFrom not found on {network.name}", num=UNKNOWN_ADDRESS_FROM)
        factor = fee_price_factor(ctx.seed, network.name, ctx.clock.now())
        fees = []
        for asset in assets:
            estimate = chain.estimate_fee(asset, wallets.account_state(ctx, network, source["address"], asset),
                                          wallets.account_state(ctx, network, address_to, asset), factor)
            fees.append({"assetShort": asset.short, "fee": format_amount(estimate.fee),
                         "feeCurrency": estimate.fee_currency, "canProceed": estimate.can_proceed,
                         "details": estimate.details})
    return {"assetNetwork": asset_network, "fees": fees}
