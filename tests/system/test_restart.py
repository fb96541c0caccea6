"""A restart (same data file) keeps clocks, pending transitions and their order."""

import pytest

from tests.system.serving import Served

pytestmark = pytest.mark.slow


def withdrawal(invoice: str) -> dict:
    return {"amount": "5", "asset": {"short": "USDT", "network": "tron"}, "destTag": None, "invoice": invoice,
            "addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "customer": {"id": 1, "name": "A", "email": "a@b.co"}}


def test_clocks_and_pending_transitions_survive_a_restart(tmp_path):
    data = str(tmp_path / "sandbox.json")
    with Served("--data", data) as server:
        merchant = server.demo_merchant  # auto-approves after 600 s
        key = {"API-KEY": merchant["apiKey"]}
        frozen = server.request("PUT", "/sandbox/clock", {"now": "2030-01-01T00:00:00Z", "frozen": True}, key)[1]
        first = server.signed_post(merchant, "/v2/withdrawal", withdrawal("first"))[1]
        server.request("POST", "/sandbox/clock/advance", {"seconds": 100}, key)
        second = server.signed_post(merchant, "/v2/withdrawal", withdrawal("second"))[1]
        payment = server.request("POST", "/sandbox/payments", {"amount": "7", "assetShort": "USDT",
                                                               "assetNetwork": "tron", "confirmsNeeded": 10}, key)[1]
        server.request("POST", "/sandbox/transactions", {"assetNetwork": "tron", "assetShort": "USDT",
                                                         "addressTo": payment["data"]["addressTo"], "amount": "7"}, key)
    with Served("--data", data) as server:
        assert server.request("GET", "/sandbox/clock", headers=key)[1] == {"now": "2030-01-01T00:01:40.000000Z",
                                                                           "frozen": True}
        assert frozen["frozen"] is True
        server.request("POST", "/sandbox/clock/advance", {"seconds": 3600}, key)
        listed = server.request("GET", "/v2/withdrawal", headers=key)[1]["results"]
        done = {w["invoice"]: w for w in listed}
        assert done["first"]["status"] == done["second"]["status"] == "COMPLETE"
        assert done["first"]["updatedAt"] == "2030-01-01T00:10:15.000000Z"  # approved at +600, processed +15
        assert done["second"]["updatedAt"] == "2030-01-01T00:11:55.000000Z"
        paid = server.request("GET", f"/v2/payment/{payment['data']['id']}", headers=key)[1]["data"]
        assert (paid["status"], paid["totalReceivedAmount"]) == ("COMPLETED", "7")
        assert paid["updatedAt"] == "2030-01-01T00:02:10.000000Z"  # 10 tron blocks after the deposit
        assert first["id"] != second["id"]


def test_the_ticker_applies_due_transitions_without_any_request(tmp_path):
    """Observed in the journal on disk, since any request would catch up by itself."""
    import time

    data = tmp_path / "sandbox.json"
    with Served("--data", str(data)) as server:
        merchant = server.demo_merchant
        key = {"API-KEY": merchant["apiKey"]}
        server.request("PATCH", "/sandbox/merchants/me", {"autoApproveSeconds": 1}, key)
        created = server.signed_post(merchant, "/v2/withdrawal", withdrawal("tick"))[1]
        journal = tmp_path / "sandbox.json.journal"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and '"status":"APPROVED"' not in journal.read_text():
            time.sleep(0.2)
        assert '"status":"APPROVED"' in journal.read_text() and created["id"] in journal.read_text()
