"""Snapshots: POST /sandbox/snapshots, GET /sandbox/snapshots, POST …/{id}/restore."""

from sandbox.services import snapshots
from sandbox.store.schema import MERCHANT_STATE, TABLES
from tests.api.test_webhooks import closed_port_url, withdrawal_body

PAYMENT = {"amount": "10", "assetShort": "USDT", "assetNetwork": "tron", "timeout": 600, "clientId": "c-1"}


def state_of(ctx, merchant_id: int) -> dict:
    return {table: ctx.store.find(table, "merchant", merchant_id) for table in MERCHANT_STATE}


def test_every_table_but_the_stores_own_is_merchant_state_with_a_merchant_index():
    assert set(MERCHANT_STATE) == set(TABLES) - {"meta", "snapshots"}
    assert all("merchant" in TABLES[table].indexes for table in MERCHANT_STATE)


def test_restore_puts_back_exactly_the_state_of_the_snapshot(shop, ctx):
    shop.control("PUT", "/sandbox/clock", {"frozen": True})
    payment = shop.control("POST", "/sandbox/payments", PAYMENT).json["data"]
    before = state_of(ctx, shop.merchant["id"])
    taken = shop.control("POST", "/sandbox/snapshots")
    assert taken.status_code == 201
    assert taken.json["records"] == sum(len(documents) for documents in before.values())

    shop.deposit("tron", "USDT", payment["addressTo"], "10")
    created = shop.post("/v2/withdrawal", withdrawal_body()).json
    shop.control("PATCH", "/sandbox/merchants/me", {"feePercent": "2.5"})
    shop.control("POST", "/sandbox/clock/advance", {"seconds": 3600})
    assert shop.get(f"/v2/payment/{payment['id']}").json["data"]["status"] == "COMPLETED"

    restored = shop.control("POST", f"/sandbox/snapshots/{taken.json['id']}/restore")
    assert restored.status_code == 200, restored.json
    assert state_of(ctx, shop.merchant["id"]) == before
    assert restored.json["clock"]["frozen"] is True
    assert shop.get(f"/v2/payment/{payment['id']}").json["data"]["displayStatus"] == "NEW"
    assert shop.get("/v2/withdrawal", ids=created["id"]).json["total"] == 0
    assert shop.get("/v2/merchants/wallets/info", clientId="c-1").json["wallets"][0]["balance"]["amount"] == "0"
    assert shop.get("/sandbox/merchants/me").json["feePercent"] == before["merchants"][0]["feePercent"]
    assert shop.get("/v2/payment", search=payment["addressTo"]).json["total"] == 1  # search index follows


def test_a_snapshot_can_be_restored_again_and_ids_of_new_records_do_not_clash(shop):
    taken = shop.control("POST", "/sandbox/snapshots").json
    first = shop.post("/v2/withdrawal", withdrawal_body("A")).json
    shop.control("POST", f"/sandbox/snapshots/{taken['id']}/restore")
    second = shop.post("/v2/withdrawal", withdrawal_body("B")).json
    assert shop.get("/v2/withdrawal").json["total"] == 1
    shop.control("POST", f"/sandbox/snapshots/{taken['id']}/restore")
    assert shop.get("/v2/withdrawal").json["total"] == 0
    assert first["id"] == second["id"]  # the sandbox is deterministic: the same state makes the same ids


def test_restoring_touches_no_other_merchant(shop, other_shop, ctx):
    taken = shop.control("POST", "/sandbox/snapshots").json
    other_shop.post("/v2/withdrawal", withdrawal_body())
    other_before = state_of(ctx, other_shop.merchant["id"])
    shop.post("/v2/withdrawal", withdrawal_body())
    shop.control("POST", f"/sandbox/snapshots/{taken['id']}/restore")
    assert state_of(ctx, other_shop.merchant["id"]) == other_before


def test_another_merchants_snapshot_is_not_found(shop, other_shop):
    taken = shop.control("POST", "/sandbox/snapshots").json
    answer = other_shop.control("POST", f"/sandbox/snapshots/{taken['id']}/restore")
    assert (answer.status_code, answer.json) == (404, {"error": "snapshot not found"})
    assert other_shop.get("/sandbox/snapshots").json["total"] == 0
    assert shop.control("POST", "/sandbox/snapshots/nope/restore").status_code == 404


def test_snapshots_need_the_api_key(client):
    assert client.post("/sandbox/snapshots").status_code == 401


def test_the_oldest_snapshot_goes_past_the_limit_and_the_list_is_newest_first(shop):
    ids = [shop.control("POST", "/sandbox/snapshots").json["id"]
           for _ in range(snapshots.MAX_SNAPSHOTS_PER_MERCHANT + 1)]
    listed = shop.get("/sandbox/snapshots", limit=100).json
    assert listed["total"] == snapshots.MAX_SNAPSHOTS_PER_MERCHANT
    assert [s["id"] for s in listed["results"]] == ids[:0:-1]
    assert shop.control("POST", f"/sandbox/snapshots/{ids[0]}/restore").status_code == 404
    assert len(set(ids)) == len(ids)


def test_a_restore_undoes_webhook_deliveries_made_since(client, shop):
    client.patch("/sandbox/merchants/me", json={"webhookUrl": closed_port_url()},
                 headers={"API-KEY": shop.merchant["apiKey"]})
    taken = shop.control("POST", "/sandbox/snapshots").json
    shop.post("/v2/withdrawal", withdrawal_body())
    assert shop.control("POST", "/sandbox/webhooks/dispatch").json == {"attempted": 1}
    assert shop.get("/sandbox/webhooks/deliveries").json["total"] == 1
    shop.control("POST", f"/sandbox/snapshots/{taken['id']}/restore")
    assert shop.get("/sandbox/webhooks/deliveries").json["total"] == 0
    assert shop.control("POST", "/sandbox/webhooks/dispatch").json == {"attempted": 0}


def test_a_rotated_webhook_secret_stays_rotated_and_event_ids_never_repeat(shop):
    taken = shop.control("POST", "/sandbox/snapshots").json
    shop.post("/v2/withdrawal", withdrawal_body())
    before_restore = shop.get("/sandbox/events").json["results"][0]["id"]
    rotated = shop.control("POST", "/sandbox/webhooks/secret").json["webhookSecret"]
    shop.control("POST", f"/sandbox/snapshots/{taken['id']}/restore")
    shop.post("/v2/withdrawal", withdrawal_body())
    after_restore = shop.get("/sandbox/events").json["results"][0]["id"]
    assert after_restore != before_restore  # receivers de-duplicate webhooks by X-Webhook-Id
    assert shop.client.application.extensions["sandbox"].store.get(
        "merchants", str(shop.merchant["id"]))["webhookSecret"] == rotated
