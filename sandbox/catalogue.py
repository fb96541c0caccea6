"""The asset catalogue: networks, their assets, decimals and settings (data/assets.json)."""

import json
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class Asset:
    short: str
    network: str
    name: str
    logo_url: str
    decimals: int
    withdraw_enabled: bool
    is_native: bool

    def as_api(self) -> dict:
        """The spec's Asset object."""
        return {"short": self.short, "name": self.name, "logoUrl": self.logo_url, "network": self.network}


@dataclass(frozen=True)
class Network:
    name: str
    family: str
    native_asset: str
    block_time: Decimal
    confirms_needed: int
    assets: dict[str, Asset]

    @property
    def withdrawable(self) -> list[Asset]:
        return [asset for asset in self.assets.values() if asset.withdraw_enabled]


@cache
def networks() -> dict[str, Network]:
    raw = json.loads(resources.files("sandbox").joinpath("data/assets.json").read_text())
    result = {}
    for name, spec in raw["networks"].items():
        assets = {
            short: Asset(short=short, network=name, name=a["name"], logo_url=a["logoUrl"], decimals=a["decimals"],
                         withdraw_enabled=a["withdrawEnabled"], is_native=short == spec["nativeAsset"])
            for short, a in spec["assets"].items()
        }
        result[name] = Network(name=name, family=spec["family"], native_asset=spec["nativeAsset"],
                               block_time=Decimal(str(spec["blockTimeSeconds"])),
                               confirms_needed=spec["confirmsNeeded"], assets=assets)
    return result


def network(name: str) -> Network | None:
    return networks().get(name)


def asset(short: str, network_name: str) -> Asset | None:
    found = networks().get(network_name)
    return found.assets.get(short) if found else None
