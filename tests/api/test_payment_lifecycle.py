"""Confirmations and expiry: every displayStatus reachable by time and deposits."""

import pytest
from freezegun import freeze_time

WALL = "2026-11-21T10:00:00Z"


@pytest.fixture(autouse=True)
def frozen_wall():
    with freeze_time(WALL) as wall:
        yield wall


def create(shop, **body) -> dict:
    return shop.control("POST", "/sandbox/payments", {"amount": "10", "assetShort": "USDT", "assetNetwork": "tron",
                                                      "timeout": 600, "confirmsNeeded": 3, **body}).json["data"]


def pay(shop, payment, amount, **extra) -> dict:
    return shop.deposit("tron", "USDT", payment["addressTo"], amount, confirmed=False, **extra)


def advance(shop, seconds):
    shop.control("POST", "/sandbox/clock/advance", {"seconds": seconds})


def state(shop, payment) -> tuple:
    data = shop.client.get(f"/v2/payment/{payment['id']}", headers={"API-KEY": shop.merchant["apiKey"]}).json["data"]
    return data["status"], data["displayStatus"], data["totalReceivedAmount"]


def test_a_deposit_counts_once_it_has_the_confirmations(shop):
    payment = create(shop)
    assert state(shop, payment) == ("OPEN", "NEW", "0")
    pay(shop, payment, "10")
    assert state(shop, payment) == ("OPEN", "OPEN", "0")  # seen: NEW becomes OPEN; not counted yet
    advance(shop, 8)  # two tron blocks of 3 s
    assert state(shop, payment) == ("OPEN", "OPEN", "0")
    advance(shop, 1)  # the third block
    assert state(shop, payment) == ("COMPLETED", "COMPLETED", "10")


def test_injected_confirmations_count_at_once_or_shorten_the_wait(shop):
    payment = create(shop, amount="20")
    pay(shop, payment, "10", confirmations=3)
    assert state(shop, payment) == ("OPEN", "OPEN", "10")
    pay(shop, payment, "10", confirmations=2)
    advance(shop, 3)
    assert state(shop, payment) == ("COMPLETED", "COMPLETED", "20")


def test_expiry_with_nothing_received(shop):
    payment = create(shop)
    advance(shop, 599)
    assert state(shop, payment)[0] == "OPEN"
    advance(shop, 1)
    assert state(shop, payment) == ("EXPIRED", "EXPIRED", "0")


def test_expiry_with_too_little(shop):
    payment = create(shop)
    pay(shop, payment, "4", confirmations=3)
    advance(shop, 600)
    assert state(shop, payment) == ("EXPIRED", "UNDERPAID", "4")


def test_expiry_while_a_sufficient_deposit_confirms_then_late_funds_count(shop):
    payment = create(shop, confirmsNeeded=300)  # 900 s of tron blocks: it confirms after the window
    pay(shop, payment, "10")
    advance(shop, 600)
    assert state(shop, payment) == ("EXPIRED", "OPEN", "0")
    advance(shop, 300)
    assert state(shop, payment) == ("EXPIRED", "COMPLETED", "10")


def test_late_overpayment_after_expiry(shop):
    payment = create(shop, confirmsNeeded=300)
    pay(shop, payment, "12")
    advance(shop, 900)
    assert state(shop, payment) == ("EXPIRED", "OVERPAID", "12")


def test_a_completed_payment_does_not_expire(shop):
    payment = create(shop)
    pay(shop, payment, "10", confirmations=3)
    advance(shop, 3600)
    assert state(shop, payment) == ("COMPLETED", "COMPLETED", "10")


def test_a_deposit_after_expiry_pays_no_expired_payment(shop):
    payment = create(shop)
    advance(shop, 600)
    deposit = pay(shop, payment, "10", confirmations=3)
    assert deposit["paymentId"] is None
    assert state(shop, payment) == ("EXPIRED", "EXPIRED", "0")


def test_the_wallet_is_credited_on_confirmation(shop):
    payment = create(shop, clientId="c")
    pay(shop, payment, "10")
    wallet = lambda: shop.get("/v2/merchants/wallets/info", clientId="c").json["wallets"][0]  # noqa: E731
    assert wallet()["balance"]["amount"] == "0"
    advance(shop, 9)
    assert wallet()["balance"]["amount"] == "10"
    assert wallet()["balance"]["updatedAt"] == "2026-11-21T10:00:09.000000Z"


def test_a_deposit_without_a_payment_confirms_at_the_networks_default(shop):
    address = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "ethereum", "assetShort": "ETH",
                                                         "clientId": "e"}).json["addresses"][0]["address"]
    deposit = shop.deposit("ethereum", "ETH", address, "1", confirmed=False)
    assert deposit["confirmsNeeded"] == 12 and deposit["confirmedAt"] is None
    advance(shop, 12 * 12)
    balance = shop.get("/v2/merchants/wallets/info", clientId="e").json["wallets"][0]["balance"]["amount"]
    assert balance == "1"


def test_status_changes_are_recorded_as_events(shop):
    payment = create(shop)
    pay(shop, payment, "10")
    advance(shop, 9)
    changes = [(e["data"]["status"], e["data"]["displayStatus"]) for e in shop.merchant_events()
               if e["type"] == "payment.status_changed"]
    assert changes == [("OPEN", "OPEN"), ("COMPLETED", "COMPLETED")]
