"""Simulated networks, one module per family behind the `Chain` interface."""

from functools import cache

from sandbox import catalogue
from sandbox.chains.base import EXTERNAL_ACCOUNT, AccountState, Chain, FeeEstimate
from sandbox.chains.bitcoin import Bitcoin
from sandbox.chains.evm import Evm
from sandbox.chains.solana import Solana
from sandbox.chains.ton import Ton
from sandbox.chains.tron import Tron

FAMILIES: dict[str, type[Chain]] = {"tron": Tron, "evm": Evm, "solana": Solana, "ton": Ton, "bitcoin": Bitcoin}

__all__ = ["AccountState", "Chain", "EXTERNAL_ACCOUNT", "FeeEstimate", "chain_for"]


@cache
def chain_for(network_name: str) -> Chain | None:
    """The chain of a catalogue network, or None for a network the sandbox does not simulate."""
    network = catalogue.network(network_name)
    return FAMILIES[network.family](network) if network else None
