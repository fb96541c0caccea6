"""Many threads against one served sandbox (gunicorn, one gthread worker, as in
production): the store's invariants hold under concurrent writes."""

from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest

from sandbox.client import GatewayClient
from tests.system.serving import Served

pytestmark = pytest.mark.slow
THREADS = 24
TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"


def together(calls):
    """Run every call at once on its own thread; their answers in order."""
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        return list(pool.map(lambda call: call(), calls))


@pytest.fixture(scope="module")
def served():
    with Served("--memory", "--threads", str(THREADS)) as server:
        yield server


@pytest.fixture
def shop(served) -> GatewayClient:
    gateway = GatewayClient(served.base_url)
    return gateway.as_merchant(gateway.create_merchant(name="Busy Shop", email="busy@example.com").json)


def withdrawal(shop, invoice: str) -> dict:
    return shop.create_withdrawal({"amount": "1", "asset": {"short": "USDT", "network": "tron"}, "addressTo": TRON_TO,
                                   "destTag": None, "invoice": invoice,
                                   "customer": {"id": 1, "name": "A", "email": "a@example.com"}}).json


def test_concurrent_creates_for_one_client_bind_one_address(shop):
    for network in ("tron", "ethereum", "ton"):
        answers = together([lambda: shop.create_deposit_addresses(network, "USDT", client_id="client-1")] * THREADS)
        assert {a.status for a in answers} == {200}
        assert len({a.json["addresses"][0]["address"] for a in answers}) == 1


def test_concurrent_decisions_on_one_withdrawal_have_one_winner(shop):
    for number in range(8):
        created = withdrawal(shop, f"race-{number}")
        approvals = together([lambda: shop.approve_withdrawal(created["id"])] * 6)
        assert sorted(a.status for a in approvals) == [200] + [409] * 5
        cancels = together([lambda: shop.cancel_withdrawal(created["id"])] * 6)
        assert sorted(a.status for a in cancels) == [200] + [409] * 5
    for number in range(8):  # approve against cancel: whichever lands first, the end is consistent
        created = withdrawal(shop, f"mixed-{number}")
        approve, cancel = together([lambda: shop.approve_withdrawal(created["id"]),
                                    lambda: shop.cancel_withdrawal(created["id"])])
        assert cancel.status == 200  # cancel is allowed from OPEN and from APPROVED
        assert approve.status in (200, 409)
        (listed,) = shop.list_withdrawals(ids=created["id"]).json["results"]
        assert listed["status"] == "CANCELLED"


def test_concurrent_deposits_lose_no_balance_update(shop):
    address = shop.create_deposit_addresses("tron", "USDT", client_id="wallet-client").json["addresses"][0]["address"]
    amounts = [f"{n}.25" for n in range(1, 61)]
    answers = together([lambda amount=amount: shop.deposit(assetNetwork="tron", assetShort="USDT", addressTo=address,
                                                           amount=amount, riskScore=1, confirmations=1000)
                        for amount in amounts])
    assert {a.status for a in answers} == {201}
    assert len({a.json["data"]["txnId"] for a in answers}) == len(amounts)
    (wallet,) = shop.wallet_info("wallet-client", assetShort="USDT").json["wallets"]
    assert Decimal(wallet["balance"]["amount"]) == sum(map(Decimal, amounts))


def test_concurrent_payments_and_lists_stay_consistent(shop):
    created = together([lambda n=n: shop.create_payment(amount="3", assetShort="USDT", assetNetwork="tron",
                                                        invoice=f"P-{n}") for n in range(THREADS * 2)])
    assert {c.status for c in created} == {201}
    assert len({c.json["data"]["id"] for c in created}) == THREADS * 2
    assert len({c.json["data"]["addressTo"] for c in created}) == THREADS * 2
    listed = together([lambda: shop.list_payments(limit=100)] * THREADS)
    assert {page.json["total"] for page in listed} == {THREADS * 2}
