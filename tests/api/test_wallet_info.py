"""GET /v2/merchants/wallets/info: wallets, balances, payments, transactions, AML, USD, filters, pages."""

from datetime import datetime, timezone

import pytest
from freezegun import freeze_time

PATH = "/v2/merchants/wallets/info"
DAY1, DAY2, DAY3 = (datetime(2026, 11, d, 12, 0, tzinfo=timezone.utc) for d in (10, 11, 12))


def unix(moment: datetime) -> str:
    return str(int(moment.timestamp()))


def info(shop, client_id="alice", **query):
    response = shop.get(PATH, clientId=client_id, **query)
    assert response.status_code == 200, response.json
    return response.json


@pytest.fixture
def alice(shop):
    """alice: a tron address paid over three days (one payment, one stray deposit, one risky one), an
    ethereum wallet with ETH, and an empty USDC wallet on tron."""
    with freeze_time(DAY1):
        payment = shop.control("POST", "/sandbox/payments", {"amount": "100", "assetShort": "USDT",
                                                             "assetNetwork": "tron", "clientId": "alice",
                                                             "invoice": "A-1", "timeout": 7 * 24 * 3600}).json["data"]
        tron = payment["addressTo"]
        shop.deposit("tron", "USDT", tron, "60")
    with freeze_time(DAY2):
        shop.deposit("tron", "USDT", tron, "40")
        shop.deposit("tron", "USDT", tron, "5")  # after completion: credits the wallet, no payment
        eth = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "ethereum", "assetShort": "ETH",
                                                         "clientId": "alice"}).json["addresses"][0]["address"]
        shop.deposit("ethereum", "ETH", eth, "0.5")
        shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDC", "clientId": "alice"})
    with freeze_time(DAY3):
        bsc = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "bsc", "assetShort": "USDT",
                                                         "clientId": "alice"}).json["addresses"][0]["address"]
        shop.deposit("bsc", "USDT", bsc, "7", riskScore=99)
    return {"payment": payment, "tron": tron, "eth": eth, "bsc": bsc}


def by_asset(body) -> dict:
    return {(w["assetShort"], w["assetNetwork"]): w for w in body["wallets"]}


def test_every_wallet_with_balances_in_asset_and_usd(shop, alice):
    body = info(shop)
    assert body["clientId"] == "alice" and body["assetShort"] == "USD"
    assert body["createdAt"] == "2026-11-10T12:00:00.000000Z"
    wallets = by_asset(body)
    assert set(wallets) == {("USDT", "tron"), ("ETH", "ethereum"), ("USDC", "tron"), ("USDT", "bsc")}
    assert wallets[("USDT", "tron")]["balance"] == {"amount": "105", "amountUsd": "105",
                                                    "updatedAt": "2026-11-11T12:00:00.000000Z"}
    assert wallets[("ETH", "ethereum")]["balance"]["amountUsd"] == "1750"  # 0.5 at 3,500
    assert wallets[("USDT", "bsc")]["status"] == "BLOCKED" and wallets[("USDT", "bsc")]["isBlocked"] is True
    assert wallets[("USDT", "tron")]["status"] == "ACTIVE" and wallets[("USDT", "tron")]["isBlocked"] is False


def test_payments_with_transactions_aml_and_fees(shop, alice):
    tron = by_asset(info(shop))[("USDT", "tron")]
    (paid,) = tron["payments"]
    assert paid["id"] == alice["payment"]["id"]
    assert (paid["status"], paid["displayStatus"], paid["totalReceivedAmount"]) == ("COMPLETED", "COMPLETED", "100")
    assert paid["totalReceivedAmountUsd"] == "100" and paid["type"] == "api" and paid["invoice"] == "A-1"
    assert paid["customerId"] == 0 and paid["customerName"] == "" and f"/checkout/{paid['id']}/" in paid["checkoutUrl"]
    assert [t["amount"] for t in paid["transactions"]] == ["40", "60"]  # newest first
    assert [t["amount"] for t in tron["transactions"]] == ["5", "40", "60"]
    first = paid["transactions"][-1]
    assert first["aml"]["isDanger"] is False and first["aml"]["amlPriceUsd"] == "0.1"
    assert first["aml"]["checkedAt"] == first["createdAt"] == "2026-11-10T12:00:00.000000Z"
    assert first["fees"]["percentFee"] == {"amount": "0.6", "amountUsd": "0.6"}
    assert set(first["fees"]) == {"fixedFee", "networkFee", "percentFee"}


def test_price_overrides_change_usd_values(shop, client, merchant, alice):
    client.patch("/sandbox/merchants/me", json={"prices": {"ETH": "2000"}}, headers={"API-KEY": merchant["apiKey"]})
    assert by_asset(info(shop))[("ETH", "ethereum")]["balance"]["amountUsd"] == "1000"


def test_blocked_and_zero_balance_filters(shop, alice):
    assert ("USDT", "bsc") not in by_asset(info(shop, blocked="false"))
    assert ("USDC", "tron") not in by_asset(info(shop, zeroBalance="false"))
    assert ("USDC", "tron") in by_asset(info(shop, zeroBalance="true"))


def test_asset_filters(shop, alice):
    assert set(by_asset(info(shop, assetShort="usdt"))) == {("USDT", "tron"), ("USDT", "bsc")}
    assert set(by_asset(info(shop, assetNetwork="TRON"))) == {("USDT", "tron"), ("USDC", "tron")}


def test_the_period_needs_both_dates_and_never_touches_balances(shop, alice):
    day2 = info(shop, dateFrom=unix(DAY2), dateTo=unix(DAY2))
    tron = by_asset(day2)[("USDT", "tron")]
    assert [t["amount"] for t in tron["transactions"]] == ["5", "40"]
    assert tron["balance"]["amount"] == "105"
    assert day2["pagination"]["total"] == 3  # 40 and 5 on tron, 0.5 ETH
    only_one = info(shop, dateFrom=unix(DAY3))
    assert only_one["pagination"]["total"] == 5  # ignored: all transactions


def test_sort_ascending(shop, alice):
    tron = by_asset(info(shop, sort="asc"))[("USDT", "tron")]
    assert [t["amount"] for t in tron["transactions"]] == ["60", "40", "5"]


def test_pagination_runs_over_all_transactions(shop, alice):
    first = info(shop, limit=2)
    assert first["pagination"] == {"page": 1, "pageSize": 2, "hasNext": True, "hasPrev": False, "total": 5}
    assert [t["amount"] for t in by_asset(first)[("USDT", "bsc")]["transactions"]] == ["7"]
    last = info(shop, pageSize=2, limit=50, page=3)  # pageSize wins over limit
    assert last["pagination"] == {"page": 3, "pageSize": 2, "hasNext": False, "hasPrev": True, "total": 5}
    shown = [t["amount"] for w in last["wallets"] for t in w["transactions"]]
    assert shown == ["60"]
    assert by_asset(last)[("USDT", "tron")]["payments"][0]["transactions"][0]["amount"] == "60"


@pytest.mark.parametrize("query, status, message", [
    ({}, 400, "clientId is required"), ({"clientId": "alice", "limit": 1001}, 400, "limit"),
    ({"clientId": "alice", "dateFrom": "yesterday", "dateTo": "1"}, 400, "dateFrom must be a Unix timestamp"),
    ({"clientId": "alice", "sort": "up"}, 400, "sort"), ({"clientId": "alice", "blocked": "maybe"}, 400, "blocked"),
    ({"clientId": "nobody"}, 404, "client not found"),
])
def test_errors(shop, alice, query, status, message):
    response = shop.get(PATH, **query)
    assert response.status_code == status and response.json["error"].startswith(message)


def test_another_merchant_cannot_see_the_client(other_shop, alice):
    response = other_shop.get(PATH, clientId="alice")
    assert response.status_code == 404 and response.json == {"error": "client not found"}


def test_the_period_also_narrows_a_payments_transactions(shop, alice):
    day1 = by_asset(info(shop, dateFrom=unix(DAY1), dateTo=unix(DAY1)))[("USDT", "tron")]
    assert [t["amount"] for t in day1["payments"][0]["transactions"]] == ["60"]
    day3 = by_asset(info(shop, dateFrom=unix(DAY3), dateTo=unix(DAY3)))[("USDT", "tron")]
    assert day3["payments"][0]["transactions"] == [] and day3["payments"][0]["id"] == alice["payment"]["id"]


def test_default_page_size_is_100(shop, alice):
    assert info(shop)["pagination"]["pageSize"] == 100
