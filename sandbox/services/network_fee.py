"""Network fee estimates, with the fee model a withdrawal uses."""

from decimal import Decimal

from sandbox.catalogue import Asset, Network
from sandbox.chains import EXTERNAL_ACCOUNT, chain_for
from sandbox.domain.assets import normalise_network, normalise_ticker, require_asset, require_network
from sandbox.domain.errors import InvalidRequest, Num
from sandbox.domain.market import fee_price_factor, price_usd
from sandbox.domain.money import CONVERSION_PRECISION, convert, format_amount
from sandbox.domain import faults as fault_rules
from sandbox.services import Context, addresses, clocks, faults, wallets

def estimate_network_fee(ctx: Context, merchant: dict, asset_network: str, address_from: str, address_to: str,
                         asset_short: str | None = None) -> dict:
    """One estimate per coin: the requested one, or every withdraw-enabled coin of the network."""
    network = require_network(normalise_network(asset_network))
    if asset_short is not None:
        asset = require_asset(network, normalise_ticker(asset_short))
        if not asset.withdraw_enabled:
            raise InvalidRequest(f"withdrawals of {asset.short} are not enabled on {network.name}",
                                 num=Num.WITHDRAWALS_DISABLED)
        assets = [asset]
    else:
        assets = network.withdrawable
    chain = chain_for(network.name)
    if not chain.is_valid_address(address_to):
        raise InvalidRequest(f"addressTo is not a valid {network.name} address", num=Num.INVALID_ADDRESS_TO)
    with ctx.store.transaction():
        source = addresses.merchant_address(ctx, merchant["id"], network, address_from)
        if source is None:
            raise InvalidRequest(f"addressFrom not found on {network.name}", num=Num.UNKNOWN_ADDRESS_FROM)
        factor = fee_price_factor(ctx.seed, network.name, clocks.now(ctx, merchant["id"]))
        scanner_down = bool(faults.hits(ctx, merchant, fault_rules.SCANNER_OPERATION, network=network.name))
        fees = []
        for asset in assets:
            if scanner_down:  # the spec's answer when a coin's fee cannot be computed
                fees.append({"assetShort": asset.short, "fee": "0", "feeCurrency": network.native_asset,
                             "canProceed": False, "details": {"error": fault_rules.SCANNER_ERROR}})
                continue
            estimate = chain.estimate_fee(asset, wallets.account_state(ctx, network, source["address"], asset),
                                          wallets.account_state(ctx, network, address_to, asset), factor)
            fees.append({"assetShort": asset.short, "fee": format_amount(estimate.fee),
                         "feeCurrency": estimate.fee_currency, "canProceed": estimate.can_proceed,
                         "details": estimate.details})
    return {"assetNetwork": asset_network, "fees": fees}


def sweep_fee(ctx: Context, merchant: dict, network: Network, asset: Asset) -> Decimal:
    """The network fee of moving a deposit on from its address, in the deposit's asset:
    the same fee model, from a funded sender to an established wallet."""
    chain = chain_for(network.name)
    funded = chain.account(native_balance=Decimal("Infinity"), activated=True, holds_asset=True)
    estimate = chain.estimate_fee(asset, funded, EXTERNAL_ACCOUNT,
                                  fee_price_factor(ctx.seed, network.name, clocks.now(ctx, merchant["id"])))
    rate = convert(price_usd(network.native_asset, merchant["prices"]), price_usd(asset.short, merchant["prices"]),
                   CONVERSION_PRECISION // 2, divide=True)  # native coins per unit of the asset
    return convert(estimate.fee, rate, asset.decimals)
