"""Webhooks against a real HTTP receiver on 127.0.0.1 (no mocked HTTP client)."""

import hashlib
import hmac
import json
import socket

import pytest
from freezegun import freeze_time

from sandbox.services import webhooks
from tests.conftest import MerchantClient, make_merchant
from tests.receiver import Receiver

TIMEOUT = 2.0
TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"


def withdrawal_body(invoice="INV-1") -> dict:
    return {"amount": "5", "asset": {"short": "USDT", "network": "tron"}, "addressTo": TRON_TO, "destTag": None,
            "invoice": invoice, "customer": {"id": 1, "name": "A", "email": "a@b.co"}}


@pytest.fixture
def frozen_wall():
    with freeze_time("2026-11-21T10:00:00Z") as wall:
        yield wall


@pytest.fixture
def hooked(client):
    """A merchant with auto-approval after 300 s, whose webhooks go to `set_url`."""
    merchant = make_merchant(client, name="Hooked", autoApproveSeconds=300)
    shop = MerchantClient(client, merchant)

    def set_url(url):
        client.patch("/sandbox/merchants/me", json={"webhookUrl": url}, headers={"API-KEY": merchant["apiKey"]})

    shop.set_url = set_url
    return shop


def dispatch(shop) -> int:
    return webhooks.dispatch_due(shop.client.application.extensions["sandbox"], TIMEOUT)


def deliveries(shop, **query) -> list[dict]:
    return shop.get("/sandbox/webhooks/deliveries", **query).json["results"]


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/down"


def test_a_withdrawal_webhook_is_signed_and_carries_the_withdrawal(hooked, frozen_wall):
    with Receiver() as receiver:
        hooked.set_url(receiver.url)
        created = hooked.post("/v2/withdrawal", withdrawal_body()).json
        assert dispatch(hooked) == 1
    (request,) = receiver.requests
    expected = hmac.new(hooked.merchant["webhookSecret"].encode(), request["body"], hashlib.sha256).hexdigest()
    assert request["headers"]["X-HMAC"] == expected
    assert request["headers"]["Content-Type"] == "application/json"
    assert request["headers"]["X-Webhook-Attempt"] == "1"
    event = json.loads(request["body"])
    assert request["headers"]["X-Webhook-Id"] == event["id"]
    assert set(event) == {"id", "type", "createdAt", "data"}
    assert event["type"] == "withdrawal.status_changed" and event["data"] == created


def test_every_status_change_is_sent_in_order(hooked, frozen_wall):
    with Receiver() as receiver:
        hooked.set_url(receiver.url)
        created = hooked.post("/v2/withdrawal", withdrawal_body()).json
        hooked.control("POST", "/sandbox/clock/advance", {"seconds": 400})
        dispatch(hooked)
    assert [e["data"]["status"] for e in receiver.events()] == ["OPEN", "APPROVED", "COMPLETE"]
    assert {e["data"]["id"] for e in receiver.events()} == {created["id"]}
    listed = hooked.get("/sandbox/events").json
    assert [e["data"]["status"] for e in listed["results"]] == ["COMPLETE", "APPROVED", "OPEN"]  # newest first


def test_retries_follow_the_backoff_on_the_merchants_clock(hooked, frozen_wall, client):
    client.patch("/sandbox/merchants/me", json={"autoApproveSeconds": None},  # one event only
                 headers={"API-KEY": hooked.merchant["apiKey"]})
    with Receiver(answers=(500,)) as receiver:
        hooked.set_url(receiver.url)
        hooked.post("/v2/withdrawal", withdrawal_body())
        dispatch(hooked)
        assert len(receiver.requests) == 1
        dispatch(hooked)  # not due yet: nothing
        hooked.control("POST", "/sandbox/clock/advance", {"seconds": 9})
        assert dispatch(hooked) == 0
        hooked.control("POST", "/sandbox/clock/advance", {"seconds": 1})
        dispatch(hooked)
        assert [r["headers"]["X-Webhook-Attempt"] for r in receiver.requests] == ["1", "2"]
        for seconds in (60, 300, 1800, 7200, 21600, 43200):
            hooked.control("POST", "/sandbox/clock/advance", {"seconds": seconds - 1})
            assert dispatch(hooked) == 0
            hooked.control("POST", "/sandbox/clock/advance", {"seconds": 1})
            assert dispatch(hooked) == 1
        hooked.control("POST", "/sandbox/clock/advance", {"seconds": 10 ** 6})
        assert dispatch(hooked) == 0
    assert len(receiver.requests) == 8
    (delivery,) = deliveries(hooked, type="withdrawal.status_changed")
    assert delivery["status"] == "FAILED" and len(delivery["attempts"]) == 8
    assert delivery["attempts"][1]["at"] == "2026-11-21T10:00:10.000000Z"
    assert delivery["attempts"][0]["responseStatus"] == 500 and delivery["attempts"][0]["error"] == "HTTP 500"


def test_an_exhausted_delivery_lets_the_later_events_of_its_subject_go(hooked, frozen_wall):
    with Receiver(answers=(500,) * 8 + (200,)) as receiver:
        hooked.set_url(receiver.url)
        hooked.post("/v2/withdrawal", withdrawal_body())
        for _ in range(10):
            hooked.control("POST", "/sandbox/clock/advance", {"seconds": 43200})
            dispatch(hooked)
    statuses = [e["data"]["status"] for e in receiver.events()]
    assert statuses == ["OPEN"] * 8 + ["APPROVED", "COMPLETE"]


def test_a_receiver_down_then_up_gets_every_event_once_in_order(hooked, frozen_wall):
    hooked.set_url(closed_port_url())
    first = hooked.post("/v2/withdrawal", withdrawal_body("first")).json
    second = hooked.post("/v2/withdrawal", withdrawal_body("second")).json
    hooked.control("POST", "/sandbox/clock/advance", {"seconds": 400})  # both COMPLETE: 6 events
    dispatch(hooked)  # all fail: connection refused
    assert all(d["attempts"][0]["error"].startswith("ConnectionRefusedError") for d in deliveries(hooked)[-2:])
    with Receiver() as receiver:
        hooked.set_url(receiver.url)
        for _ in range(4):  # the retries fall due over the following minutes
            hooked.control("POST", "/sandbox/clock/advance", {"seconds": 300})
            dispatch(hooked)
    for withdrawal in (first, second):
        statuses = [e["data"]["status"] for e in receiver.events() if e["data"]["id"] == withdrawal["id"]]
        assert statuses == ["OPEN", "APPROVED", "COMPLETE"]
    assert len(receiver.requests) == 6
    assert all(d["status"] == "DELIVERED" for d in deliveries(hooked))


def test_payment_webhooks_are_off_by_default(hooked, frozen_wall, client):
    with Receiver() as receiver:
        hooked.set_url(receiver.url)
        payment = hooked.control("POST", "/sandbox/payments", {"amount": "10", "assetShort": "USDT",
                                                               "assetNetwork": "tron"}).json["data"]
        hooked.deposit("tron", "USDT", payment["addressTo"], "10")
        dispatch(hooked)
        assert receiver.requests == []
        client.patch("/sandbox/merchants/me", json={"paymentWebhooks": True},
                     headers={"API-KEY": hooked.merchant["apiKey"]})
        other = hooked.control("POST", "/sandbox/payments", {"amount": "10", "assetShort": "USDT",
                                                             "assetNetwork": "tron"}).json["data"]
        hooked.deposit("tron", "USDT", other["addressTo"], "10")
        dispatch(hooked)
    assert [(e["type"], e["data"]["id"], e["data"]["displayStatus"]) for e in receiver.events()] == [
        ("payment.status_changed", other["id"], "OPEN"), ("payment.status_changed", other["id"], "COMPLETED")]
    assert receiver.events()[1]["data"]["transactions"][0]["riskScore"] >= 0  # the get-payment shape


def test_the_test_event_is_sent_now(hooked):
    assert hooked.control("POST", "/sandbox/webhooks/test").status_code == 400  # no URL yet
    with Receiver() as receiver:
        hooked.set_url(receiver.url)
        response = hooked.control("POST", "/sandbox/webhooks/test")
    assert response.status_code == 200 and response.json["status"] == "DELIVERED"
    assert response.json["attempts"][0]["responseStatus"] == 200
    assert receiver.events()[0]["type"] == "webhook.test"


def test_redeliver_sends_the_same_event_again(hooked, frozen_wall):
    with Receiver() as receiver:
        hooked.set_url(receiver.url)
        hooked.post("/v2/withdrawal", withdrawal_body())
        dispatch(hooked)
        (original,) = deliveries(hooked)
        again = hooked.control("POST", f"/sandbox/webhooks/deliveries/{original['id']}/redeliver")
        assert again.status_code == 201 and again.json["status"] == "PENDING"
        dispatch(hooked)
    assert len(receiver.requests) == 2 and receiver.requests[0]["body"] == receiver.requests[1]["body"]
    assert hooked.control("POST", "/sandbox/webhooks/deliveries/nope/redeliver").status_code == 404


def test_a_rotated_secret_signs_from_then_on(hooked, frozen_wall):
    with Receiver() as receiver:
        hooked.set_url(receiver.url)
        rotated = hooked.control("POST", "/sandbox/webhooks/secret").json["webhookSecret"]
        assert rotated != hooked.merchant["webhookSecret"]
        hooked.post("/v2/withdrawal", withdrawal_body())
        dispatch(hooked)
    (request,) = receiver.requests
    assert request["headers"]["X-HMAC"] == hmac.new(rotated.encode(), request["body"], hashlib.sha256).hexdigest()


def test_redirects_are_not_followed(hooked, frozen_wall):
    with Receiver(answers=(302,), location="http://elsewhere.example/steal") as receiver:
        hooked.set_url(receiver.url)
        hooked.post("/v2/withdrawal", withdrawal_body())
        dispatch(hooked)
    (attempt,) = deliveries(hooked)[0]["attempts"]
    assert attempt["responseStatus"] == 302 and "not followed" in attempt["error"]
    assert deliveries(hooked)[0]["status"] == "PENDING"  # a failed attempt: retried later, never redirected


def test_response_bodies_are_capped_and_timeouts_enforced(hooked, frozen_wall):
    with Receiver(body=b"x" * 100_000) as receiver:
        hooked.set_url(receiver.url)
        hooked.post("/v2/withdrawal", withdrawal_body())
        dispatch(hooked)
    assert len(deliveries(hooked)[0]["attempts"][0]["responseBody"]) == 4096
    with Receiver(delay=TIMEOUT + 1) as slow:
        hooked.set_url(slow.url)
        hooked.control("POST", "/sandbox/webhooks/deliveries/{}/redeliver".format(deliveries(hooked)[0]["id"]))
        dispatch(hooked)
    attempt = deliveries(hooked)[0]["attempts"][0]
    assert attempt["error"] == f"no answer within {TIMEOUT:g} s" and attempt["responseStatus"] is None


def test_the_secret_never_appears_in_the_deliveries_log(hooked, frozen_wall):
    with Receiver() as receiver:
        hooked.set_url(receiver.url)
        hooked.post("/v2/withdrawal", withdrawal_body())
        dispatch(hooked)
    log = json.dumps(hooked.get("/sandbox/webhooks/deliveries").json)
    assert hooked.merchant["webhookSecret"] not in log and hooked.merchant["hmacSecret"] not in log


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/hooks", "file:///etc/passwd", "javascript:alert(1)",
                                 "http:///hooks", "http://@/", "http://[::1"])
def test_only_http_and_https_urls(hooked, client, url):
    response = client.patch("/sandbox/merchants/me", json={"webhookUrl": url},
                            headers={"API-KEY": hooked.merchant["apiKey"]})
    assert response.status_code == 400


def test_a_failing_endpoint_of_one_merchant_does_not_hold_up_another(hooked, client, frozen_wall):
    other = MerchantClient(client, make_merchant(client, name="Other", autoApproveSeconds=300))
    with Receiver(answers=(500,)) as failing, Receiver() as working:
        hooked.set_url(failing.url)
        client.patch("/sandbox/merchants/me", json={"webhookUrl": working.url},
                     headers={"API-KEY": other.merchant["apiKey"]})
        hooked.post("/v2/withdrawal", withdrawal_body())
        other.post("/v2/withdrawal", withdrawal_body())
        dispatch(hooked)
    assert len(working.requests) == 1 and len(failing.requests) == 1


def test_deliveries_filter_and_page(hooked, frozen_wall):
    with Receiver() as receiver:
        hooked.set_url(receiver.url)
        hooked.post("/v2/withdrawal", withdrawal_body())
        hooked.control("POST", "/sandbox/clock/advance", {"seconds": 400})
        dispatch(hooked)
    assert len(deliveries(hooked, status="DELIVERED")) == 3 and deliveries(hooked, status="FAILED") == []
    page = hooked.get("/sandbox/webhooks/deliveries", limit=2, page=2).json
    assert page["total"] == 3 and len(page["results"]) == 1
    event_id = receiver.events()[0]["id"]
    assert [d["eventId"] for d in deliveries(hooked, eventId=event_id)] == [event_id]
    assert hooked.get("/sandbox/webhooks/deliveries", status="LOST").status_code == 400
