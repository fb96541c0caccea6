"""POST /sandbox/transactions: simulated on-chain deposits, their fees, AML and effects."""

from decimal import Decimal

import pytest

from sandbox.chains import chain_for


def address(shop, network="tron", asset="USDT", client_id="client-1") -> str:
    return shop.post("/v2/deposit-addresses/create", {"assetNetwork": network, "assetShort": asset,
                                                      "clientId": client_id}).json["addresses"][0]["address"]


def payment(shop, amount="10", client_id="client-1", network="tron", asset="USDT") -> dict:
    return shop.control("POST", "/sandbox/payments", {"amount": amount, "assetShort": asset, "assetNetwork": network,
                                                      "clientId": client_id}).json["data"]


def get_payment(shop, payment_id) -> dict:
    return shop.client.get(f"/v2/payment/{payment_id}", headers={"API-KEY": shop.merchant["apiKey"]}).json["data"]


def wallet(shop, client_id="client-1", **query) -> list[dict]:
    return shop.get("/v2/merchants/wallets/info", clientId=client_id, **query).json["wallets"]


@pytest.mark.parametrize("network, asset", [("tron", "USDT"), ("ethereum", "ETH"), ("solana", "USDC"),
                                            ("ton", "TON"), ("bitcoin", "BTC"), ("bsc", "USDT")])
def test_generated_sender_and_txn_id_are_valid_for_the_network(shop, network, asset):
    deposit = shop.deposit(network, asset, address(shop, network, asset), "0.5")
    chain = chain_for(network)
    assert chain.is_valid_address(deposit["addressFrom"])
    assert deposit["txnId"] and deposit["paymentId"] is None
    if network in ("ethereum", "bsc"):
        assert deposit["txnId"].startswith("0x") and len(deposit["txnId"]) == 66
    elif network == "solana":
        assert 80 <= len(deposit["txnId"]) <= 90
    else:
        assert len(deposit["txnId"]) == 64


def test_given_sender_and_txn_id_are_kept_and_a_txn_id_is_recorded_once(shop):
    to = address(shop)
    deposit = shop.deposit("tron", "USDT", to, "1", addressFrom="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", txnId="abc123")
    assert deposit["addressFrom"] == "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" and deposit["txnId"] == "abc123"
    again = shop.control("POST", "/sandbox/transactions", {"assetNetwork": "tron", "assetShort": "USDT",
                                                           "addressTo": to, "amount": "1", "txnId": "abc123"})
    assert again.status_code == 409
    assert again.json == {"error": "transaction abc123 is already recorded on tron"}


@pytest.mark.parametrize("overrides, message", [
    ({"addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"}, "addressTo is not one of this merchant's deposit addresses"),
    ({"addressFrom": "nope"}, "addressFrom is not a valid tron address"),
    ({"amount": "0"}, "amount must be greater than 0"),
    ({"riskScore": 101}, "riskScore"),
    ({"assetShort": "BTC"}, "assetShort BTC is not supported on tron"),
])
def test_deposit_validation(shop, overrides, message):
    body = {"assetNetwork": "tron", "assetShort": "USDT", "addressTo": address(shop), "amount": "1", **overrides}
    response = shop.control("POST", "/sandbox/transactions", body)
    assert response.status_code == 400 and response.json["error"].startswith(message)


def test_another_merchants_address_is_not_a_deposit_address(shop, other_shop):
    response = other_shop.control("POST", "/sandbox/transactions", {"assetNetwork": "tron", "assetShort": "USDT",
                                                                    "addressTo": address(shop), "amount": "1"})
    assert response.status_code == 400


def test_ton_memo_must_match(shop):
    to = address(shop, "ton", "TON", "memo-1")
    assert shop.deposit("ton", "TON", to, "1", destTag="memo-1")["destTag"] == "memo-1"
    wrong = shop.control("POST", "/sandbox/transactions", {"assetNetwork": "ton", "assetShort": "TON",
                                                           "addressTo": to, "amount": "1", "destTag": "other"})
    assert wrong.status_code == 400 and wrong.json == {"error": "destTag does not match the memo of addressTo"}


def test_deposits_pay_the_oldest_open_payment_of_the_same_asset(shop):
    first, second = payment(shop), payment(shop)
    usdc = shop.deposit("tron", "USDC", first["addressTo"], "10")
    assert usdc["paymentId"] is None  # another asset: no payment of it here
    assert shop.deposit("tron", "USDT", first["addressTo"], "10")["paymentId"] == first["id"]
    assert shop.deposit("tron", "USDT", first["addressTo"], "3")["paymentId"] == second["id"]
    assert get_payment(shop, first["id"])["status"] == "COMPLETED"
    assert get_payment(shop, second["id"])["displayStatus"] == "OPEN"


@pytest.mark.parametrize("deposits, status, display", [
    (["4"], "OPEN", "OPEN"), (["4", "6"], "COMPLETED", "COMPLETED"), (["12"], "COMPLETED", "OVERPAID"),
])
def test_payment_statuses_follow_the_deposits(shop, deposits, status, display):
    made = payment(shop)
    for amount in deposits:
        shop.deposit("tron", "USDT", made["addressTo"], amount)
    body = get_payment(shop, made["id"])
    assert (body["status"], body["displayStatus"]) == (status, display)
    assert Decimal(body["totalReceivedAmount"]) == sum(map(Decimal, deposits))
    assert len(body["transactions"]) == len(deposits)


def test_a_dangerous_deposit_flags_the_payment_and_blocks_the_wallet(shop):
    made = payment(shop)
    deposit = shop.deposit("tron", "USDT", made["addressTo"], "10", riskScore=75)
    assert deposit["isDanger"] is True
    assert get_payment(shop, made["id"])["displayStatus"] == "AML_CHECK_DANGER"
    (blocked,) = wallet(shop)
    assert blocked["status"] == "BLOCKED" and blocked["isBlocked"] is True
    assert blocked["balance"]["amount"] == "10"


def test_the_aml_threshold_is_a_merchant_setting(shop, client, merchant):
    client.patch("/sandbox/merchants/me", json={"amlThreshold": 90}, headers={"API-KEY": merchant["apiKey"]})
    assert shop.deposit("tron", "USDT", address(shop), "1", riskScore=89)["isDanger"] is False
    assert shop.deposit("tron", "USDT", address(shop), "1", riskScore=90)["isDanger"] is True


def test_default_risk_scores_are_low_and_deterministic(shop):
    to = address(shop)
    scores = [shop.deposit("tron", "USDT", to, "1")["riskScore"] for _ in range(10)]
    assert all(0 <= score <= 20 for score in scores) and len(set(scores)) > 1


def test_fees(shop, client, merchant):
    made = payment(shop, amount="200")
    deposit = shop.deposit("tron", "USDT", made["addressTo"], "123.45")
    assert deposit["percentFee"] == "1.2345"  # 1 %
    assert deposit["fixedFee"] == made["fixedFee"] == "0.3"
    assert deposit["networkFee"] == "1.607125"  # 6.4285 TRX of energy at 0.25 USD, in USDT
    client.patch("/sandbox/merchants/me", json={"feePercent": "2.5", "fixedFeeUsd": "1"},
                 headers={"API-KEY": merchant["apiKey"]})
    unpaid = shop.deposit("tron", "USDT", address(shop, client_id="other"), "10")
    assert (unpaid["percentFee"], unpaid["fixedFee"]) == ("0.25", "1")


def test_native_deposits_fund_network_fees(shop):
    sender = address(shop, "ethereum", "USDT")
    query = {"assetNetwork": "ethereum", "addressFrom": sender,
             "addressTo": "0xdAC17F958D2ee523a2206206994597C13D831ec7", "assetShort": "USDT"}
    assert shop.get("/v2/network-fee", **query).json["fees"][0]["canProceed"] is False
    shop.deposit("ethereum", "ETH", sender, "0.01")
    assert shop.get("/v2/network-fee", **query).json["fees"][0]["canProceed"] is True


def test_same_seed_same_deposits(app, merchant):
    from sandbox.app import Settings, create_app
    from sandbox.store import Store
    from tests.conftest import MerchantClient, make_merchant

    def run():
        client = create_app(Store(), Settings(seed=5)).test_client()
        shop = MerchantClient(client, make_merchant(client))
        to = address(shop)
        first = shop.deposit("tron", "USDT", to, "1")
        return first["txnId"], first["addressFrom"], first["riskScore"]

    assert run() == run()
