"""Asset and network names as clients send them."""

from decimal import Decimal

from sandbox import catalogue
from sandbox.catalogue import Asset, Network
from sandbox.domain.errors import InvalidRequest, Num
from sandbox.domain.money import decimal_places, parse_amount


def normalise_network(name: str) -> str:
    """Networks are lowercase and tickers uppercase, whatever the client sent (the
    spec states it for deposit addresses; the sandbox applies it everywhere)."""
    return name.strip().lower()


def normalise_ticker(short: str) -> str:
    return short.strip().upper()


def normalise(network_name: str, asset_short: str) -> tuple[str, str]:
    return normalise_network(network_name), normalise_ticker(asset_short)


def require_network(network_name: str) -> Network:
    network = catalogue.network(network_name)
    if network is None:
        raise InvalidRequest(f"assetNetwork {network_name} is not supported", num=Num.UNKNOWN_NETWORK)
    return network


def require_asset(network: Network, asset_short: str) -> Asset:
    asset = network.assets.get(asset_short)
    if asset is None:
        raise InvalidRequest(f"assetShort {asset_short} is not supported on {network.name}", num=Num.UNKNOWN_ASSET)
    return asset


def parse_asset_amount(text: str, asset: Asset, field: str = "amount", *, positive: bool = True) -> Decimal:
    """A decimal string of the asset: no more decimals than it has, above 0 when `positive`."""
    amount = parse_amount(text)
    if amount is None:
        raise InvalidRequest(f"{field} must be a decimal string")
    if positive and amount <= 0:
        raise InvalidRequest(f"{field} must be greater than 0")
    if decimal_places(amount) > asset.decimals:
        raise InvalidRequest(f"{field} has more decimal places than {asset.short} on {asset.network} "
                             f"supports ({asset.decimals})")
    return amount
