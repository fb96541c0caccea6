"""Asset and network names as clients send them."""

from sandbox import catalogue
from sandbox.catalogue import Asset, Network
from sandbox.domain.errors import InvalidRequest


def normalise(network_name: str, asset_short: str | None = None) -> tuple[str, str | None]:
    """Networks are lowercase and tickers uppercase, whatever the client sent (the
    spec states it for deposit addresses; the sandbox applies it everywhere)."""
    return network_name.strip().lower(), asset_short.strip().upper() if asset_short is not None else None


def require_network(network_name: str) -> Network:
    network = catalogue.network(network_name)
    if network is None:
        raise InvalidRequest(f"assetNetwork {network_name} is not supported", num=10043)
    return network


def require_asset(network: Network, asset_short: str) -> Asset:
    asset = network.assets.get(asset_short)
    if asset is None:
        raise InvalidRequest(f"assetShort {asset_short} is not supported on {network.name}", num=10044)
    return asset
