"""Derived addresses are valid for their network, checked by libraries independent of
bip-utils; validation rejects broken checksums."""

import base58
import bech32
import eth_utils
import pytest
from pytoniq_core import Address

from sandbox import catalogue
from sandbox.chains import chain_for
from sandbox.domain.seed import derive_bytes

MASTER = {name: derive_bytes(1, "bip32", name, size=64) for name in catalogue.networks()}


def derived(network: str, count: int = 5) -> list[str]:
    chain = chain_for(network)
    return [chain.derive_address(MASTER[network], 3, index) for index in range(count)]


def test_tron_addresses_are_base58check_with_the_0x41_prefix():
    for address in derived("tron"):
        payload = base58.b58decode_check(address)
        assert len(payload) == 21 and payload[0] == 0x41


@pytest.mark.parametrize("network", ["ethereum", "bsc", "polygon"])
def test_evm_addresses_carry_an_eip55_checksum(network):
    for address in derived(network):
        assert eth_utils.is_checksum_address(address)


def test_solana_addresses_are_32_byte_base58():
    for address in derived("solana"):
        assert len(base58.b58decode(address)) == 32


def test_ton_addresses_are_user_friendly_with_a_valid_crc():
    for address in derived("ton"):
        parsed = Address(address)
        assert parsed.wc == 0 and len(address) == 48


def test_bitcoin_addresses_are_native_segwit_p2wpkh():
    for address in derived("bitcoin"):
        version, program = bech32.decode("bc", address)
        assert version == 0 and len(program) == 20


def test_evm_networks_do_not_share_addresses():
    assert not set(derived("ethereum")) & set(derived("bsc"))


def test_derivation_is_deterministic_and_distinct_per_account():
    chain = chain_for("tron")
    assert chain.derive_address(MASTER["tron"], 1, 0) == chain.derive_address(MASTER["tron"], 1, 0)
    assert chain.derive_address(MASTER["tron"], 1, 0) != chain.derive_address(MASTER["tron"], 2, 0)


VALID = {
    "tron": ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
    "ethereum": ["0xdAC17F958D2ee523a2206206994597C13D831ec7", "0xdac17f958d2ee523a2206206994597c13d831ec7",
                 "0xDAC17F958D2EE523A2206206994597C13D831EC7"],
    "solana": ["Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"],
    "ton": ["EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs", "0:" + "ab" * 32],
    "bitcoin": ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297",
                "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"],
}
INVALID = {
    "tron": ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T", "0xdAC17F958D2ee523a2206206994597C13D831ec7", ""],
    "ethereum": ["0xdAC17F958D2ee523a2206206994597C13D831eC7", "0xdac17f958d2ee523a2206206994597c13d831e",
                 "dAC17F958D2ee523a2206206994597C13D831ec7", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
    "solana": ["1" * 31, "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNY0", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYBB"],
    "ton": ["EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDt", "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs=",
            "hello", "255:" + "ab" * 32, "-999:" + "ab" * 32, "kQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_ntm"],
    "bitcoin": ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx",
                "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb"],
}


@pytest.mark.parametrize("network, address", [(n, a) for n, items in VALID.items() for a in items])
def test_valid_addresses_pass(network, address):
    assert chain_for(network).is_valid_address(address)


@pytest.mark.parametrize("network, address", [(n, a) for n, items in INVALID.items() for a in items])
def test_invalid_addresses_fail(network, address):
    assert not chain_for(network).is_valid_address(address)


def test_canonical_spellings_identify_one_account():
    assert chain_for("ethereum").canonical("0xdac17f958d2ee523a2206206994597c13d831ec7") == \
        "0xdAC17F958D2ee523a2206206994597C13D831ec7"
    ton = chain_for("ton")
    friendly = "UQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_p0p"
    assert ton.canonical("EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs") == friendly
    assert ton.canonical(friendly) == friendly
    assert ton.canonical("0:b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621dfe") == friendly
    assert chain_for("bitcoin").canonical("BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ") == \
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
