"""GET /v2/network-fee: the fee model, canProceed, details and the {code, num, message} errors."""

from decimal import Decimal

import pytest
from freezegun import freeze_time


PATH = "/v2/network-fee"
TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
ETH_TO = "0xdAC17F958D2ee523a2206206994597C13D831ec7"


def address(shop, network: str, asset: str) -> str:
    body = {"assetNetwork": network, "assetShort": asset, "number": 1}
    return shop.post("/v2/deposit-addresses/create", body).json["addresses"][0]["address"]


def test_unfunded_tron_wallet_cannot_proceed(shop):
    sender = address(shop, "tron", "USDT")
    body = shop.get(PATH, assetNetwork="tron", addressFrom=sender, addressTo=TRON_TO, assetShort="USDT").json
    assert body["assetNetwork"] == "tron"
    (entry,) = body["fees"]
    assert entry == {"assetShort": "USDT", "fee": "6.7735", "feeCurrency": "TRX", "canProceed": False,
                     "details": {"energy": 64_285, "bandwidth": 345, "isActivated": False,
                                 "resource": {"energy": 0, "bandwidth": 0}}}


def test_funded_tron_wallet_can_proceed_and_uses_free_bandwidth(shop):
    sender = address(shop, "tron", "USDT")
    shop.deposit("tron", "TRX", sender, "20")
    entry = shop.get(PATH, assetNetwork="tron", addressFrom=sender, addressTo=TRON_TO, assetShort="USDT").json["fees"][0]
    assert entry["canProceed"] is True
    assert entry["fee"] == "6.4285"
    assert entry["details"]["isActivated"] is True
    assert entry["details"]["resource"] == {"energy": 0, "bandwidth": 600}


def test_recipient_inside_the_sandbox_without_the_token_costs_more_energy(shop):
    sender, fresh = address(shop, "tron", "USDT"), address(shop, "tron", "USDT")
    entry = shop.get(PATH, assetNetwork="tron", addressFrom=sender, addressTo=fresh, assetShort="USDT").json["fees"][0]
    assert entry["details"]["energy"] == 130_285


def test_without_asset_short_every_withdraw_enabled_coin_is_estimated(shop):
    sender = address(shop, "tron", "TRX")
    fees = shop.get(PATH, assetNetwork="tron", addressFrom=sender, addressTo=TRON_TO).json["fees"]
    assert [entry["assetShort"] for entry in fees] == ["TRX", "USDT"]  # USDC on tron is not withdraw-enabled
    assert fees[0]["details"]["energy"] == 0


@freeze_time("2026-11-21T12:00:00Z")
def test_evm_short_balance_details_and_deterministic_gas_price(shop):
    sender = address(shop, "ethereum", "USDT")
    first = shop.get(PATH, assetNetwork="ethereum", addressFrom=sender, addressTo=ETH_TO, assetShort="USDT").json
    again = shop.get(PATH, assetNetwork="ethereum", addressFrom=sender, addressTo=ETH_TO, assetShort="USDT").json
    assert first == again
    entry = first["fees"][0]
    fee = Decimal(entry["fee"])
    assert entry["feeCurrency"] == "ETH" and entry["canProceed"] is False
    assert 65_000 * Decimal("3.2e-9") <= fee <= 65_000 * Decimal("5e-9")  # 4 gwei, moved by at most -20%/+25%
    assert entry["details"] == {"feeRequired": entry["fee"], "feeAvailable": "0", "feeDeficit": entry["fee"]}
    shop.deposit("ethereum", "ETH", sender, "1")
    funded = shop.get(PATH, assetNetwork="ethereum", addressFrom=sender, addressTo=ETH_TO, assetShort="USDT").json
    assert funded["fees"][0]["canProceed"] is True and funded["fees"][0]["details"] == {}


def test_gas_price_moves_with_time(shop):
    sender = address(shop, "ethereum", "ETH")
    fees = set()
    for hour in range(6):
        with freeze_time(f"2026-11-21T{hour:02d}:00:00Z"):
            fees.add(shop.get(PATH, assetNetwork="ethereum", addressFrom=sender, addressTo=ETH_TO,
                              assetShort="ETH").json["fees"][0]["fee"])
    assert len(fees) > 1


@pytest.mark.parametrize("network, asset, to, currency", [
    ("bsc", "USDT", ETH_TO, "BNB"), ("polygon", "USDC", ETH_TO, "POL"),
    ("solana", "USDC", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", "SOL"),
    ("ton", "USDT", "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs", "TON"),
    ("bitcoin", "BTC", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "BTC"),
])
def test_each_network_charges_its_native_coin(shop, network, asset, to, currency):
    sender = address(shop, network, asset)
    entry = shop.get(PATH, assetNetwork=network, addressFrom=sender, addressTo=to, assetShort=asset).json["fees"][0]
    assert entry["feeCurrency"] == currency and Decimal(entry["fee"]) > 0
    assert entry["canProceed"] is False and set(entry["details"]) == {"feeRequired", "feeAvailable", "feeDeficit"}


def test_network_and_asset_are_normalised_but_echoed_as_sent(shop):
    sender = address(shop, "tron", "USDT")
    body = shop.get(PATH, assetNetwork="TRON", addressFrom=sender, addressTo=TRON_TO, assetShort="usdt").json
    assert body["assetNetwork"] == "TRON" and body["fees"][0]["assetShort"] == "USDT"


@pytest.mark.parametrize("params, num, message", [
    ({"addressFrom": "x", "addressTo": TRON_TO}, 10040, "assetNetwork is required"),
    ({"assetNetwork": "", "addressFrom": "x", "addressTo": TRON_TO}, 10040, "assetNetwork is required"),
    ({"assetNetwork": "tron", "addressTo": TRON_TO}, 10041, "addressFrom is required"),
    ({"assetNetwork": "tron", "addressFrom": "SENDER"}, 10042, "addressTo is required"),
    ({"assetNetwork": "dogecoin", "addressFrom": "SENDER", "addressTo": TRON_TO}, 10043,
     "assetNetwork dogecoin is not supported"),
    ({"assetNetwork": "tron", "addressFrom": "SENDER", "addressTo": TRON_TO, "assetShort": "BTC"}, 10044,
     "assetShort BTC is not supported on tron"),
    ({"assetNetwork": "tron", "addressFrom": "SENDER", "addressTo": "nope"}, 10045,
     "addressTo is not a valid tron address"),
    ({"assetNetwork": "tron", "addressFrom": TRON_TO, "addressTo": TRON_TO}, 10046, "addressFrom not found on tron"),
    ({"assetNetwork": "tron", "addressFrom": "SENDER", "addressTo": TRON_TO, "assetShort": "USDC"}, 10047,
     "withdrawals of USDC are not enabled on tron"),
])
def test_errors_have_code_num_and_message(shop, params, num, message):
    if params.get("addressFrom") == "SENDER":
        params = {**params, "addressFrom": address(shop, "tron", "USDT")}
    response = shop.get(PATH, **params)
    assert response.status_code == 400
    assert response.json == {"code": 400, "num": num, "message": message}


def test_a_wallet_on_another_network_or_of_another_merchant_is_not_found(shop, other_shop):
    eth_sender = address(shop, "ethereum", "USDT")
    theirs = address(other_shop, "tron", "USDT")
    for sender, network, to in [(eth_sender, "bsc", ETH_TO), (theirs, "tron", TRON_TO)]:
        response = shop.get(PATH, assetNetwork=network, addressFrom=sender, addressTo=to)
        assert response.json["num"] == 10046


def test_unauthorized_uses_the_same_shape(client):
    response = client.get(PATH, query_string={"assetNetwork": "tron"})
    assert response.status_code == 401
    assert response.json == {"code": 401, "num": 10001, "message": "unauthorized"}
