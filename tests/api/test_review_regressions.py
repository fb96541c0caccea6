"""Behaviours an independent review found wrong once; each test fails if they come back."""

import json

import pytest

from sandbox.app import Settings, create_app
from sandbox.domain.seed import derive_token
from sandbox.store import Store
from tests.conftest import MerchantClient, make_merchant

TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"


def withdrawal(**overrides) -> dict:
    return {"amount": "1", "asset": {"short": "USDT", "network": "tron"}, "addressTo": TRON_TO, "destTag": None,
            "invoice": "I", "customer": {"id": 1, "name": "A", "email": "a@b.co"}, **overrides}


def test_with_an_admin_token_the_public_seed_does_not_give_away_credentials():
    client = create_app(Store(), Settings(seed=987654321, admin_token="secret-admin")).test_client()
    created = client.post("/sandbox/merchants", json={"name": "S", "email": "s@s.co"},
                          headers={"X-Sandbox-Admin-Token": "secret-admin"}).json
    seed = client.get("/sandbox/health").json["seed"]
    guessed = "sk_sandbox_" + derive_token(seed, "api-key", created["id"], size=20)
    assert guessed != created["apiKey"]
    assert client.get("/sandbox/merchants/me", headers={"API-KEY": guessed}).status_code == 401


def test_amount_decimals_are_counted_as_sent(shop):
    response = shop.post("/v2/withdrawal", withdrawal(amount="1.5000000000"))
    assert response.status_code == 400
    assert response.json["error"] == "amount must be a decimal string with at most 8 decimal places"
    assert shop.post("/v2/withdrawal", withdrawal(amount="1.50000000")).status_code == 200


def test_transfer_all_of_an_empty_wallet_is_refused(shop):
    source = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDT",
                                                        "clientId": "c"}).json["addresses"][0]["address"]
    response = shop.post("/v2/withdrawal", withdrawal(addressFrom=source, clientId="c", transferAll=True))
    assert response.status_code == 400
    assert response.json == {"error": "transferAll: the balance of addressFrom is 0"}


def test_a_wrong_method_on_network_fee_keeps_the_coded_shape(client):
    response = client.post("/v2/network-fee")
    assert response.status_code == 405
    assert response.json == {"code": 405, "num": 10005, "message": "method not allowed"}


@pytest.mark.parametrize("spelling", ["EQ", "raw"])
def test_own_ton_address_is_found_in_any_spelling(shop, spelling):
    from pytoniq_core import Address

    own = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "ton", "assetShort": "TON",
                                                     "number": 1}).json["addresses"][0]["address"]
    parsed = Address(own)
    other = parsed.to_str(is_bounceable=True) if spelling == "EQ" else parsed.to_str(is_user_friendly=False)
    response = shop.get("/v2/network-fee", assetNetwork="ton", addressFrom=other,
                        addressTo="EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs")
    assert response.status_code == 200, response.json


@pytest.mark.parametrize("query, message", [
    ("limit=1&limit=500", "limit must be given once"), ("page=1&page=x", "page must be given once"),
    ("page=%EF%BC%91", "page must be an integer"), ("page=1000001", "page"), ("limit=+5", "limit must be an integer"),
])
def test_query_values_are_strict(shop, query, message):
    response = shop.client.get(f"/v2/withdrawal?{query}", headers={"API-KEY": shop.merchant["apiKey"]})
    assert response.status_code == 400
    assert response.json["error"].startswith(message)


def test_null_optional_fields_count_as_absent(shop):
    assert shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDT", "number": 2,
                                                      "clientId": None}).status_code == 200
    assert shop.post("/v2/withdrawal", withdrawal(addressFrom=None, clientId=None, transferAll=None)).status_code == 200


@pytest.mark.parametrize("value", ["yes", 1, "true", 0])
def test_transfer_all_is_a_json_boolean(shop, value):
    response = shop.post("/v2/withdrawal", withdrawal(transferAll=value))
    assert response.status_code == 400
    assert response.json == {"error": "transferAll must be a boolean"}


@pytest.mark.parametrize("body, message", [
    ({"assetNetwork": "   ", "assetShort": "USDT", "number": 1}, "assetNetwork is required"),
    ({"assetNetwork": "tron", "assetShort": "", "number": 1}, "assetShort is required"),
])
def test_blank_names_are_missing_names(shop, body, message):
    assert shop.post("/v2/deposit-addresses/create", body).json == {"error": message}


def test_blank_asset_short_on_network_fee_is_coded(shop):
    response = shop.get("/v2/network-fee", assetNetwork="tron", addressFrom=TRON_TO, addressTo=TRON_TO, assetShort="")
    assert response.json == {"code": 400, "num": 10044, "message": "assetShort must not be empty"}


def test_number_is_checked_after_the_network(shop):
    body = {"assetNetwork": "dogecoin", "assetShort": "X", "number": 0}
    assert shop.post("/v2/deposit-addresses/create", body).json == {"error": "assetNetwork dogecoin is not supported"}
