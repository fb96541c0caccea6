"""The fee models of each network family, in the native coin."""

from decimal import Decimal

import pytest

from sandbox import catalogue
from sandbox.chains import EXTERNAL_ACCOUNT, AccountState, chain_for

ONE = Decimal(1)


def estimate(network, asset, sender, recipient=EXTERNAL_ACCOUNT, factor=ONE):
    return chain_for(network).estimate_fee(catalogue.asset(asset, network), sender, recipient, factor)


def test_tron_token_transfer_to_a_holder_burns_energy_and_bandwidth():
    sender = AccountState(native_balance=Decimal("100"), activated=True, bandwidth=0)
    result = estimate("tron", "USDT", sender)
    assert result.fee == Decimal("6.4285") + Decimal("0.345")
    assert result.details == {"energy": 64_285, "bandwidth": 345, "isActivated": True,
                              "resource": {"energy": 0, "bandwidth": 0}}
    assert result.can_proceed and result.fee_currency == "TRX"


def test_tron_token_transfer_to_a_fresh_address_needs_more_energy():
    sender = chain_for("tron").account(Decimal("100"), activated=True, holds_asset=True)
    fresh = AccountState(activated=False, holds_asset=False)
    result = estimate("tron", "USDT", sender, fresh)
    assert result.details["energy"] == 130_285
    assert result.fee == Decimal("13.0285")  # the free 600 bandwidth covers the 345 bytes
    assert result.details["resource"] == {"energy": 0, "bandwidth": 600}


def test_tron_native_transfer_to_an_unactivated_account_pays_activation():
    sender = chain_for("tron").account(Decimal("2"), activated=True, holds_asset=True)
    result = estimate("tron", "TRX", sender, AccountState(activated=False))
    assert result.details["energy"] == 0
    assert result.fee == Decimal("1.1")


def test_tron_cannot_proceed_from_an_unactivated_sender_or_without_enough_trx():
    assert not estimate("tron", "USDT", AccountState(native_balance=Decimal(100), activated=False)).can_proceed
    assert not estimate("tron", "USDT", AccountState(native_balance=Decimal(1), activated=True)).can_proceed


@pytest.mark.parametrize("network, asset, gas, gwei", [("ethereum", "USDT", 65_000, "4"), ("ethereum", "ETH", 21_000, "4"),
                                                       ("bsc", "USDT", 65_000, "0.1"), ("polygon", "POL", 21_000, "30")])
def test_evm_fee_is_gas_times_gas_price(network, asset, gas, gwei):
    result = estimate(network, asset, AccountState(native_balance=Decimal(1)))
    assert result.fee == gas * Decimal(gwei) * Decimal("1e-9")
    assert result.can_proceed and result.details == {}


def test_evm_short_balance_reports_the_deficit():
    result = estimate("ethereum", "USDT", AccountState(native_balance=Decimal("0.0001")))
    assert not result.can_proceed
    assert result.details == {"feeRequired": "0.00026", "feeAvailable": "0.0001", "feeDeficit": "0.00016"}


def test_gas_price_follows_the_market_factor():
    high = estimate("ethereum", "ETH", AccountState(), factor=Decimal("1.25"))
    assert high.fee == 21_000 * Decimal("5") * Decimal("1e-9")


def test_solana_fee_per_signature_plus_rent_for_a_new_token_account():
    rich = AccountState(native_balance=Decimal(1))
    assert estimate("solana", "SOL", rich).fee == Decimal("0.000005")
    assert estimate("solana", "USDC", rich).fee == Decimal("0.000005")
    assert estimate("solana", "USDC", rich, AccountState(holds_asset=False)).fee == Decimal("0.00204428")


def test_bitcoin_fee_is_vbytes_times_rate():
    result = estimate("bitcoin", "BTC", AccountState(native_balance=Decimal(1)))
    assert result.fee == Decimal("0.00001128")  # 141 vB at 8 sat/vB


def test_ton_jetton_costs_more_than_native():
    rich = AccountState(native_balance=Decimal(1))
    assert estimate("ton", "USDT", rich).fee > estimate("ton", "TON", rich).fee
