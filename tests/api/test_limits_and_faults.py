"""Rate limits (429), fault injection, merchant reset and purge."""

from datetime import timedelta

import pytest
from freezegun import freeze_time

from sandbox.client import GatewayClient
from sandbox.services.merchants import ensure_demo_merchant

TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"


@pytest.fixture
def gateway(app) -> GatewayClient:
    return GatewayClient.in_process(app)


def merchant(gateway, **settings) -> GatewayClient:
    return gateway.as_merchant(gateway.create_merchant(name="Shop", email="shop@example.com", **settings).json)


def tron_address(shop) -> str:
    return shop.create_deposit_addresses("tron", "USDT", number=1).json["addresses"][0]["address"]


@pytest.mark.parametrize("operation, call, body", [
    ("listPayments", lambda shop: shop.list_payments(), {"error": "rate limit exceeded"}),
    ("listWithdrawals", lambda shop: shop.list_withdrawals(), {"error": "rate limit exceeded"}),
    ("estimateNetworkFee", lambda shop: shop.network_fee("tron", tron_address(shop), TRON_TO),
     {"code": 429, "num": 10029, "message": "rate limit exceeded"}),
])
def test_a_lowered_limit_gives_429_with_retry_after_and_the_family_body(gateway, operation, call, body):
    shop = merchant(gateway, rateLimits={operation: {"requests": 2, "seconds": 120}})
    assert [call(shop).status for _ in range(2)] == [200, 200]
    limited = call(shop)
    assert limited.status == 429 and limited.json == body
    assert 0 < int(limited.headers["Retry-After"]) <= 120
    neighbour = merchant(gateway, rateLimits={operation: {"requests": 2, "seconds": 120}})
    assert call(neighbour).status == 200  # per API key


def test_limits_are_per_operation_and_generous_by_default(gateway):
    shop = merchant(gateway, rateLimits={"listPayments": {"requests": 1, "seconds": 60}})
    assert [shop.list_payments().status for _ in range(2)] == [200, 429]
    assert all(shop.list_withdrawals().status == 200 for _ in range(50))
    assert shop.get_payment("nope").status == 400  # not a limited operation
    assert shop.update_settings(rateLimits={"listPayments": None}).json["rateLimits"] == {}
    assert shop.list_payments().status == 200  # the default again: 6000 a minute


def test_rate_limit_settings_are_validated(gateway):
    shop = merchant(gateway)
    for bad in ({"getPayment": {"requests": 1, "seconds": 1}}, {"listPayments": {"requests": 0, "seconds": 1}},
                {"listPayments": {"requests": 1}}, {"listPayments": "5/minute"}, {"": None}):
        response = shop.update_settings(rateLimits=bad)
        assert response.status == 400 and "rateLimits" in response.json["error"]


def test_an_error_fault_hits_the_next_calls_then_stops(gateway):
    shop = merchant(gateway)
    created = shop.request("POST", "/sandbox/faults", {"kind": "error", "operation": "createDepositAddresses",
                                                       "times": 2})
    assert created.status == 201 and created.json["message"] == "wallet generation service unavailable"
    answers = [shop.create_deposit_addresses("tron", "USDT", number=1) for _ in range(3)]
    assert [a.status for a in answers] == [500, 500, 200]
    assert answers[0].json == {"error": "wallet generation service unavailable"}
    (listed,) = shop.request("GET", "/sandbox/faults").json["results"]
    assert (listed["fired"], listed["remaining"], listed["live"]) == (2, 0, False)


def test_a_share_of_calls_with_a_chosen_status_and_message(gateway):
    shop = merchant(gateway)
    shop.request("POST", "/sandbox/faults", {"kind": "error", "operation": "listPayments", "share": 0.25,
                                             "status": 503, "message": "maintenance"})
    answers = [shop.list_payments() for _ in range(8)]
    assert [a.status for a in answers] == [200, 200, 200, 503] * 2
    assert answers[3].json == {"error": "maintenance"}


def test_a_fault_window_on_the_merchant_clock(gateway):
    shop = merchant(gateway)
    shop.request("POST", "/sandbox/faults", {"kind": "error", "operation": "createWithdrawal", "forSeconds": 600})
    body = {"amount": "5", "asset": {"short": "USDT", "network": "tron"}, "addressTo": TRON_TO, "destTag": None,
            "invoice": "W", "customer": {"id": 1, "name": "A", "email": "a@b.co"}}
    assert shop.create_withdrawal(body).json == {"error": "internal error"}
    shop.advance_clock(601)
    assert shop.create_withdrawal(body).status == 200


def test_latency_fault_and_network_fee_scanner(gateway):
    shop = merchant(gateway)
    address = tron_address(shop)
    shop.request("POST", "/sandbox/faults", {"kind": "scanner", "network": "TRON"})
    fees = shop.network_fee("tron", address, TRON_TO).json["fees"]
    assert fees and all(f["canProceed"] is False and f["details"] == {"error": "network scanner unavailable"}
                        for f in fees)
    ethereum = shop.create_deposit_addresses("ethereum", "USDT", number=1).json["addresses"][0]["address"]
    assert "error" not in shop.network_fee("ethereum", ethereum, "0xdAC17F958D2ee523a2206206994597C13D831ec7"
                                           ).json["fees"][0]["details"]  # another network's scanner is up
    slow = shop.request("POST", "/sandbox/faults", {"kind": "latency", "operation": "getPayment", "latencyMs": 300})
    assert slow.status == 201
    with freeze_time(tick=True) as wall:  # real sleeping still happens; the wall clock is read around it
        before = wall()
        shop.get_payment("nope")
        assert wall() - before >= timedelta(milliseconds=300)


@pytest.mark.parametrize("body, message", [
    ({"kind": "error"}, "operation is required"),
    ({"kind": "latency", "operation": "getPayment"}, "latencyMs is required"),
    ({"kind": "scanner"}, "network is required"),
    ({"kind": "scanner", "network": "mars"}, "mars"),
    ({"kind": "error", "operation": "nope"}, "operation"),
    ({"kind": "error", "operation": "getPayment", "share": 0}, "share"),
    ({"kind": "error", "operation": "getPayment", "status": 200}, "status"),
])
def test_bad_faults_are_400s(gateway, body, message):
    response = merchant(gateway).request("POST", "/sandbox/faults", body)
    assert response.status == 400 and message in response.json["error"]


def test_faults_never_reach_another_merchant_and_clear(gateway):
    shop, other = merchant(gateway), merchant(gateway)
    fault = shop.request("POST", "/sandbox/faults", {"kind": "error", "operation": "listPayments"}).json
    assert other.list_payments().status == 200 and other.request("GET", "/sandbox/faults").json == {"results": []}
    assert other.request("DELETE", f"/sandbox/faults/{fault['id']}").status == 404
    assert shop.list_payments().status == 500
    assert shop.request("DELETE", f"/sandbox/faults/{fault['id']}").status == 204
    assert shop.list_payments().status == 200


def test_reset_gives_a_fresh_start_and_keeps_the_credentials(gateway):
    shop, other = merchant(gateway), merchant(gateway)
    shop.create_payment(amount="5", assetShort="USDT", assetNetwork="tron", clientId="c1")
    other.create_payment(amount="5", assetShort="USDT", assetNetwork="tron")
    shop.request("POST", "/sandbox/faults", {"kind": "error", "operation": "getPayment"})
    shop.advance_clock(3600)
    reset = shop.request("POST", "/sandbox/merchants/me/reset")
    assert reset.status == 200 and reset.json["clock"]["frozen"] is False
    assert shop.list_payments().json["total"] == 0
    assert shop.wallet_info("c1").status == 404
    assert shop.request("GET", "/sandbox/faults").json == {"results": []}
    assert other.list_payments().json["total"] == 1


@pytest.fixture
def demo(app):
    """The demo merchant (id 1), which purges keep, as a served sandbox has it."""
    ensure_demo_merchant(app.extensions["sandbox"])


def test_purge_removes_idle_merchants_but_the_demo_and_never_reuses_ids(demo, gateway):
    with freeze_time("2026-01-01T12:00:00Z"):
        idle = merchant(gateway)
        idle.create_payment(amount="5", assetShort="USDT", assetNetwork="tron")
    active = merchant(gateway)
    active.list_payments()
    purged = gateway.request("POST", "/sandbox/merchants/purge", {"idleDays": 30})
    assert purged.status == 200 and purged.json == {"purged": [2]}
    assert idle.list_payments().status == 401 and active.list_payments().status == 200
    assert merchant(gateway).request("GET", "/sandbox/merchants/me").json["id"] == 4
    assert gateway.request("POST", "/sandbox/merchants/purge", {"idleDays": -1}).status == 400


def test_purge_needs_the_admin_token_when_the_server_has_one():
    from sandbox.app import Settings, create_app
    from sandbox.store import Store
    guarded = GatewayClient.in_process(create_app(Store(), Settings(admin_token="t0ken")))
    assert guarded.request("POST", "/sandbox/merchants/purge", {"idleDays": 1}).status == 401
    guarded.admin_token = "t0ken"
    assert guarded.request("POST", "/sandbox/merchants/purge", {"idleDays": 1}).status == 200


def test_retry_after_comes_with_a_429_only(gateway):
    shop = merchant(gateway, rateLimits={"listPayments": {"requests": 3, "seconds": 120}})
    first = shop.list_payments()
    assert first.status == 200 and first.headers["X-RateLimit-Limit"] == "3" and "Retry-After" not in first.headers
    shop.request("POST", "/sandbox/faults", {"kind": "error", "operation": "listPayments", "status": 503, "times": 1})
    injected = shop.list_payments()
    assert injected.status == 503 and "Retry-After" not in injected.headers  # a client would wait the window out
    assert shop.list_payments().status == 200
    limited = shop.list_payments()
    assert limited.status == 429 and 0 < int(limited.headers["Retry-After"]) <= 120


def test_a_deleted_faults_id_is_never_given_again(gateway):
    shop = merchant(gateway)

    def add() -> str:
        return shop.request("POST", "/sandbox/faults", {"kind": "error", "operation": "getPayment",
                                                        "share": 0.5}).json["id"]

    first, second = add(), add()
    assert shop.request("DELETE", f"/sandbox/faults/{first}").status == 204
    third = add()
    assert third not in (first, second)
    assert [f["id"] for f in shop.request("GET", "/sandbox/faults").json["results"]] == [second, third]
    assert shop.request("DELETE", "/sandbox/faults").status == 204
    assert add() not in (first, second, third)


def test_a_merchant_has_at_most_50_faults(gateway):
    shop = merchant(gateway)
    body = {"kind": "error", "operation": "getPayment", "times": 1}
    assert {shop.request("POST", "/sandbox/faults", body).status for _ in range(50)} == {201}
    refused = shop.request("POST", "/sandbox/faults", body)
    assert refused.status == 400 and "at most 50 faults" in refused.json["error"]


def test_restoring_an_old_snapshot_does_not_make_an_active_merchant_look_idle(gateway):
    with freeze_time("2026-01-01T12:00:00Z"):
        shop = merchant(gateway)
        snapshot = shop.snapshot().json["id"]
    assert shop.list_payments().status == 200  # active today
    assert shop.restore(snapshot).status == 200
    assert gateway.request("POST", "/sandbox/merchants/purge", {"idleDays": 30}).json == {"purged": []}
    assert shop.list_payments().status == 200


def test_purge_counts_merchants_without_recorded_activity_from_their_creation(demo, app, gateway):
    store = app.extensions["sandbox"].store
    with freeze_time("2026-01-01T12:00:00Z"):
        old = merchant(gateway)
    new = merchant(gateway)
    old_id, new_id = (m.request("GET", "/sandbox/merchants/me").json["id"] for m in (old, new))
    with store.transaction():  # as stored before lastActiveOn existed
        for merchant_id in (old_id, new_id):
            record = store.get("merchants", str(merchant_id))
            store.put("merchants", {k: v for k, v in record.items() if k != "lastActiveOn"})
    assert gateway.request("POST", "/sandbox/merchants/purge", {"idleDays": 30}).json == {"purged": [old_id]}


def test_purge_leaves_no_counter_of_the_merchant_behind(demo, app, gateway):
    with freeze_time("2026-01-01T12:00:00Z"):
        idle = merchant(gateway)
        idle.request("POST", "/sandbox/faults", {"kind": "error", "operation": "getPayment", "times": 1})
        idle.create_payment(amount="5", assetShort="USDT", assetNetwork="tron")  # schedules its expiry
        idle.snapshot()
        idle_id = idle.request("GET", "/sandbox/merchants/me").json["id"]
        idle.restore(idle.snapshots().json["results"][0]["id"])
    store = app.extensions["sandbox"].store
    owned = {record["name"] for record in store.all("meta") if record["name"].endswith(f":{idle_id}")}
    assert {"fault-sequence", "schedule-sequence", "restores"} <= {name.partition(":")[0] for name in owned}
    assert gateway.request("POST", "/sandbox/merchants/purge", {"idleDays": 30}).json == {"purged": [idle_id]}
    assert not {record["name"] for record in store.all("meta")} & owned
