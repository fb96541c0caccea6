"""OPEN → APPROVED → COMPLETE, or CANCELLED: driven by clocks, never by sleeping."""

import pytest
from freezegun import freeze_time

from sandbox.chains import chain_for
from tests.conftest import MerchantClient, make_merchant

WALL = "2026-11-21T10:00:00Z"
TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
PROCESSING = {"tron": 15, "ethereum": 60}  # five block times


def withdrawal_body(**overrides) -> dict:
    return {"amount": "25", "asset": {"short": "USDT", "network": "tron"}, "addressTo": TRON_TO, "destTag": None,
            "invoice": "INV", "customer": {"id": 1, "name": "A", "email": "a@b.co"}, **overrides}


def advance(shop, seconds):
    return shop.control("POST", "/sandbox/clock/advance", {"seconds": seconds})


def fetch(shop, withdrawal_id) -> dict:
    (found,) = shop.get("/v2/withdrawal", ids=withdrawal_id).json["results"]
    return found


@pytest.fixture
def frozen_wall():
    with freeze_time(WALL) as wall:
        yield wall


@pytest.fixture
def manual(client):
    return MerchantClient(client, make_merchant(client, name="Manual"))


def test_auto_approval_then_completion(shop, frozen_wall):
    created = shop.post("/v2/withdrawal", withdrawal_body()).json  # the merchant auto-approves after 300 s
    assert created["timeToApprove"] == "2026-11-21T10:05:00.000000Z"
    advance(shop, 299)
    assert fetch(shop, created["id"])["status"] == "OPEN"
    advance(shop, 1)
    approved = fetch(shop, created["id"])
    assert approved["status"] == "APPROVED" and approved["updatedAt"] == "2026-11-21T10:05:00.000000Z"
    assert approved["txnId"] == "" and approved["receivedAmount"] == "0"
    advance(shop, PROCESSING["tron"])
    complete = fetch(shop, created["id"])
    assert complete["status"] == "COMPLETE"
    assert complete["updatedAt"] == "2026-11-21T10:05:15.000000Z"
    assert len(complete["txnId"]) == 64 and complete["receivedAmount"] == "25"
    assert chain_for("tron").is_valid_address(complete["addressFrom"])


def test_one_advance_applies_everything_due_in_time_order(shop, frozen_wall):
    created = shop.post("/v2/withdrawal", withdrawal_body()).json
    advance(shop, 3600)  # approval at +300 and completion at +315 happen within this call
    complete = fetch(shop, created["id"])
    assert complete["status"] == "COMPLETE" and complete["updatedAt"] == "2026-11-21T10:05:15.000000Z"


def test_completion_order_follows_approval_time(manual, frozen_wall):
    late = manual.post("/v2/withdrawal", withdrawal_body(invoice="late")).json
    early = manual.post("/v2/withdrawal", withdrawal_body(invoice="early")).json
    advance(manual, 300)
    manual.control("POST", f"/sandbox/withdrawals/{early['id']}/approve")
    advance(manual, 300)
    manual.control("POST", f"/sandbox/withdrawals/{late['id']}/approve")
    advance(manual, 3600)
    assert fetch(manual, early["id"])["updatedAt"] < fetch(manual, late["id"])["updatedAt"]
    events = [e for e in manual.merchant_events() if e["data"]["status"] == "COMPLETE"]
    assert [e["data"]["invoice"] for e in events] == ["early", "late"]


def test_manual_approval(manual, frozen_wall):
    created = manual.post("/v2/withdrawal", withdrawal_body()).json
    assert created["timeToApprove"] is None
    advance(manual, 86400)
    assert fetch(manual, created["id"])["status"] == "OPEN"  # nobody approves it
    approved = manual.control("POST", f"/sandbox/withdrawals/{created['id']}/approve")
    assert approved.status_code == 200 and approved.json["status"] == "APPROVED"
    assert manual.get("/v2/withdrawal", statuses="APPROVED").json["total"] == 1
    advance(manual, PROCESSING["tron"])
    assert fetch(manual, created["id"])["status"] == "COMPLETE"


@pytest.mark.parametrize("approve_first", [False, True])
def test_cancel_before_processing(manual, frozen_wall, approve_first):
    created = manual.post("/v2/withdrawal", withdrawal_body()).json
    if approve_first:
        manual.control("POST", f"/sandbox/withdrawals/{created['id']}/approve")
    cancelled = manual.control("POST", f"/sandbox/withdrawals/{created['id']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json["status"] == "CANCELLED"
    advance(manual, 3600)
    assert fetch(manual, created["id"])["status"] == "CANCELLED"  # nothing scheduled survives a cancel


@pytest.mark.parametrize("state, action", [
    ("APPROVED", "approve"), ("COMPLETE", "approve"), ("COMPLETE", "cancel"), ("CANCELLED", "cancel"),
    ("CANCELLED", "approve"),
])
def test_forbidden_transitions_are_409(manual, frozen_wall, state, action):
    created = manual.post("/v2/withdrawal", withdrawal_body()).json
    path = f"/sandbox/withdrawals/{created['id']}"
    if state in ("APPROVED", "COMPLETE"):
        manual.control("POST", f"{path}/approve")
    if state == "COMPLETE":
        advance(manual, PROCESSING["tron"])
    if state == "CANCELLED":
        manual.control("POST", f"{path}/cancel")
    response = manual.control("POST", f"{path}/{action}")
    assert response.status_code == 409
    assert response.json["error"].startswith(f"the withdrawal is {state}")


def test_unknown_and_foreign_withdrawals_are_404(shop, other_shop):
    created = shop.post("/v2/withdrawal", withdrawal_body()).json
    assert other_shop.control("POST", f"/sandbox/withdrawals/{created['id']}/approve").status_code == 404
    assert shop.control("POST", "/sandbox/withdrawals/nope/cancel").json == {"error": "withdrawal not found"}


def client_source(shop, client_id="c1", amount="100") -> str:
    address = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDT",
                                                         "clientId": client_id}).json["addresses"][0]["address"]
    shop.deposit("tron", "USDT", address, amount)
    return address


def balance(shop, client_id="c1") -> str:
    return shop.get("/v2/merchants/wallets/info", clientId=client_id).json["wallets"][0]["balance"]["amount"]


def test_direct_mode_pays_from_the_client_address(shop, frozen_wall):
    source = client_source(shop)
    created = shop.post("/v2/withdrawal", withdrawal_body(addressFrom=source, clientId="c1")).json
    advance(shop, 315)
    complete = fetch(shop, created["id"])
    assert complete["status"] == "COMPLETE" and complete["addressFrom"] == source
    assert balance(shop) == "75"


def test_transfer_all_sends_the_balance_at_processing_time(shop, frozen_wall):
    source = client_source(shop)
    created = shop.post("/v2/withdrawal", withdrawal_body(addressFrom=source, clientId="c1", transferAll=True)).json
    assert created["amount"] == "100"
    shop.deposit("tron", "USDT", source, "20")  # arrives before processing
    advance(shop, 315)
    assert fetch(shop, created["id"])["receivedAmount"] == "120"
    assert balance(shop) == "0"


def test_a_source_too_small_at_processing_cancels_the_withdrawal(shop, frozen_wall):
    source = client_source(shop, amount="30")
    first = shop.post("/v2/withdrawal", withdrawal_body(addressFrom=source, clientId="c1", amount="25")).json
    second = shop.post("/v2/withdrawal", withdrawal_body(addressFrom=source, clientId="c1", amount="25")).json
    advance(shop, 315)
    assert fetch(shop, first["id"])["status"] == "COMPLETE"
    cancelled = fetch(shop, second["id"])
    assert cancelled["status"] == "CANCELLED" and cancelled["txnId"] == ""
    assert balance(shop) == "5"


def test_reading_after_time_to_approve_shows_approved_without_a_ticker(shop):
    with freeze_time(WALL) as wall:
        created = shop.post("/v2/withdrawal", withdrawal_body()).json
        wall.tick(301)  # real time passes; no clock call, no ticker
        assert fetch(shop, created["id"])["status"] == "APPROVED"


def test_clocks_of_two_merchants_move_their_own_withdrawals_only(shop, client, frozen_wall):
    other = MerchantClient(client, make_merchant(client, name="Other", autoApproveSeconds=300))
    mine, theirs = shop.post("/v2/withdrawal", withdrawal_body()).json, other.post("/v2/withdrawal",
                                                                                     withdrawal_body()).json
    advance(shop, 400)
    assert fetch(shop, mine["id"])["status"] == "COMPLETE"
    assert fetch(other, theirs["id"])["status"] == "OPEN"
