"""Behaviours an independent review found wrong once; each test fails if they come back."""

import pytest

from sandbox.app import Settings, create_app
from sandbox.domain.seed import derive_token
from sandbox.store import Store

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


# -- second review: payments, deposits, wallets ---------------------------------------


def new_payment(shop, **body) -> dict:
    return shop.control("POST", "/sandbox/payments", {"amount": "10", "assetShort": "USDT", "assetNetwork": "tron",
                                                      **body}).json["data"]


def test_the_ids_filter_holds_when_more_ids_are_asked_than_exist(shop):
    mine = [new_payment(shop)["id"] for _ in range(2)]
    unknown = ["7d0a3f9e-4c55-4d9a-9b9b-000000000001", "7d0a3f9e-4c55-4d9a-9b9b-000000000002"]
    body = shop.get("/v2/payment", ids=",".join([mine[0], *unknown])).json
    assert body["total"] == 1 and [p["id"] for p in body["results"]] == [mine[0]]
    assert shop.get("/v2/payment", ids=",".join(unknown)).json["total"] == 0


def test_several_statuses_page_in_creation_order(shop):
    made = [new_payment(shop, invoice=f"I-{n}") for n in range(5)]
    for payment in made[1::2]:
        shop.deposit("tron", "USDT", payment["addressTo"], "10")  # COMPLETED; the others stay NEW
    body = shop.get("/v2/payment", statuses="NEW,COMPLETED", limit=2, page=2).json
    assert body["total"] == 5 and [p["invoice"] for p in body["results"]] == ["I-2", "I-1"]
    oldest = shop.get("/v2/payment", statuses="COMPLETED,NEW", sortOrder="asc", limit=3).json
    assert [p["invoice"] for p in oldest["results"]] == ["I-0", "I-1", "I-2"]


def test_extreme_settings_never_break_money_arithmetic(shop, client, merchant):
    headers = {"API-KEY": merchant["apiKey"]}
    assert client.patch("/sandbox/merchants/me", json={"fixedFeeUsd": "1" * 70}, headers=headers).status_code == 400
    assert client.patch("/sandbox/merchants/me", headers=headers, json={
        "fixedFeeUsd": "9" * 30, "prices": {"ETH": "0.000000000000000001", "USDT": "0.000000000000000001",
                                            "BNB": "9" * 30}}).status_code == 200
    eth = new_payment(shop, assetShort="ETH", assetNetwork="ethereum")
    assert eth["fixedFee"]
    bsc = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "bsc", "assetShort": "USDT",
                                                     "clientId": "big"}).json["addresses"][0]["address"]
    shop.deposit("bsc", "USDT", bsc, "9" * 30)
    assert shop.get("/v2/merchants/wallets/info", clientId="big").status_code == 200


@pytest.mark.parametrize("query", ["search=ab%00cd", "search=%07", "invoices=a%00"])
def test_control_characters_in_queries_are_400(shop, query):
    response = shop.client.get(f"/v2/payment?{query}", headers={"API-KEY": shop.merchant["apiKey"]})
    assert response.status_code == 400


def test_control_characters_in_bodies_are_400(shop):
    response = shop.control("POST", "/sandbox/payments", {"amount": "1", "assetShort": "USDT",
                                                          "assetNetwork": "tron", "clientId": "c\u0000"})
    assert response.status_code == 400 and "control characters" in response.json["error"]


def test_one_merchants_txn_ids_never_block_anothers(shop, other_shop):
    to_mine = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDT",
                                                         "number": 1}).json["addresses"][0]["address"]
    to_theirs = other_shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDT",
                                                                 "number": 1}).json["addresses"][0]["address"]
    mine = shop.deposit("tron", "USDT", to_mine, "1")
    theirs = other_shop.deposit("tron", "USDT", to_theirs, "1", txnId=mine["txnId"])
    assert theirs["txnId"] == mine["txnId"]  # each merchant's record; neither 409s the other
    assert other_shop.get("/v2/payment", txnIds=mine["txnId"]).json["total"] == 0


def test_ids_and_searches_ignore_case(shop):
    payment = new_payment(shop, invoice="Straße-ÄÖ")
    upper = shop.client.get(f"/v2/payment/{payment['id'].upper()}", headers={"API-KEY": shop.merchant["apiKey"]})
    assert upper.status_code == 200
    assert shop.get("/v2/payment", search=payment["id"].upper()).json["total"] == 1
    assert shop.get("/v2/payment", search="ä").json["total"] == 1  # short terms fold case too


def test_a_search_never_matches_across_two_fields(shop):
    new_payment(shop, clientId="alpha", invoice="beta")
    assert shop.get("/v2/payment", search="alpha").json["total"] == 1
    assert shop.get("/v2/payment", search="alpha beta").json["total"] == 0


def test_an_empty_dest_tag_on_a_deposit_means_none(shop):
    to = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDT",
                                                    "number": 1}).json["addresses"][0]["address"]
    assert shop.deposit("tron", "USDT", to, "1", destTag="")["destTag"] is None


def test_null_optional_fields_of_control_bodies_count_as_absent(shop):
    payment = new_payment(shop, clientId=None, customer=None, timeout=None, confirmsNeeded=None, fixedFee=None)
    assert payment["timeout"] == 3600 and payment["customer"] == {"id": 0, "name": "", "email": ""}
    deposit = shop.deposit("tron", "USDT", payment["addressTo"], "1", addressFrom=None, txnId=None, riskScore=None)
    assert deposit["txnId"] and deposit["addressFrom"]


def test_a_blocked_wallet_cannot_be_withdrawn_from(shop):
    source = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDT",
                                                        "clientId": "risky"}).json["addresses"][0]["address"]
    shop.deposit("tron", "USDT", source, "50", riskScore=99)
    response = shop.post("/v2/withdrawal", withdrawal(addressFrom=source, clientId="risky", transferAll=True))
    assert response.status_code == 400
    assert response.json == {"error": "the USDT wallet at addressFrom is BLOCKED by the AML check"}


def test_usd_of_a_completed_payment_stays_at_the_completion_price(shop, client, merchant):
    payment = new_payment(shop, assetShort="ETH", assetNetwork="ethereum", amount="1", clientId="eth-client")
    shop.deposit("ethereum", "ETH", payment["addressTo"], "1")
    client.patch("/sandbox/merchants/me", json={"prices": {"ETH": "1000"}}, headers={"API-KEY": merchant["apiKey"]})
    wallet = shop.get("/v2/merchants/wallets/info", clientId="eth-client").json["wallets"][0]
    assert wallet["payments"][0]["totalReceivedAmountUsd"] == "3500"
    assert wallet["balance"]["amountUsd"] == "1000"  # a balance is valued now


def test_fees_are_truncated_to_the_asset_decimals(shop):
    to = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDT",
                                                    "number": 1}).json["addresses"][0]["address"]
    assert shop.deposit("tron", "USDT", to, "0.999999")["percentFee"] == "0.009999"  # 1 % = 0.00999999
