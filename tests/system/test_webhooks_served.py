"""Webhooks from a served sandbox (its dispatcher thread) to real receivers on 127.0.0.1."""

import hashlib
import hmac
import json
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from tests.receiver import Receiver
from tests.system.serving import Served, free_port

pytestmark = pytest.mark.slow


def withdrawal(invoice: str) -> dict:
    return {"amount": "5", "asset": {"short": "USDT", "network": "tron"}, "destTag": None, "invoice": invoice,
            "addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "customer": {"id": 1, "name": "A", "email": "a@b.co"}}


def wait_for(condition, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def test_undelivered_events_survive_a_restart(tmp_path):
    data = str(tmp_path / "sandbox.json")
    port = free_port()
    with Served("--data", data) as server:
        merchant = server.demo_merchant
        key = {"API-KEY": merchant["apiKey"]}
        server.request("PATCH", "/sandbox/merchants/me", {"webhookUrl": f"http://127.0.0.1:{port}/hooks"},
                       key)  # nobody listens there yet
        server.request("PUT", "/sandbox/clock", {"frozen": True}, key)
        created = server.signed_post(merchant, "/v2/withdrawal", withdrawal("restart"))[1]
        assert wait_for(lambda: server.request("GET", "/sandbox/webhooks/deliveries", headers=key)[1]["results"][0]
                        ["attempts"])  # tried once, refused
    with Receiver(port=port) as receiver, Served("--data", data) as server:
        server.request("POST", "/sandbox/clock/advance", {"seconds": 10}, key)  # the retry falls due
        assert wait_for(lambda: receiver.requests)
    event = receiver.events()[0]
    assert event["data"]["id"] == created["id"] and receiver.requests[0]["headers"]["X-Webhook-Attempt"] == "2"


def test_a_slow_receiver_does_not_slow_api_requests():
    with Receiver() as receiver, Served("--memory") as server:
        receiver.gate = threading.Event()  # every answer waits until released
        merchant = server.demo_merchant
        key = {"API-KEY": merchant["apiKey"]}
        server.request("PATCH", "/sandbox/merchants/me", {"webhookUrl": receiver.url}, key)
        server.signed_post(merchant, "/v2/withdrawal", withdrawal("slow"))
        assert wait_for(lambda: receiver.requests)  # the delivery is in flight, and stuck
        for number in range(20):  # meanwhile the API answers, reads and writes alike
            assert server.request("GET", "/v2/withdrawal", headers=key)[0] == 200
            assert server.signed_post(merchant, "/v2/withdrawal", withdrawal(f"more-{number}"))[0] == 200
        assert not receiver.gate.is_set() and len(receiver.requests) == 1
        receiver.gate.set()


def test_webhooks_listen_checks_signatures_prints_events_and_forwards():
    port = free_port()
    with Receiver() as downstream:
        listener = subprocess.Popen([sys.executable, "-m", "sandbox", "webhooks", "listen", "--port", str(port),
                                     "--secret", "whsec_test", "--forward-to", downstream.url],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            assert "Listening for webhooks" in listener.stdout.readline()
            body = json.dumps({"id": "e1", "type": "withdrawal.status_changed", "createdAt": "x",
                               "data": {"id": "w1", "status": "APPROVED"}}).encode()
            good = hmac.new(b"whsec_test", body, hashlib.sha256).hexdigest()

            def send(signature):
                request = urllib.request.Request(f"http://127.0.0.1:{port}/", data=body, method="POST", headers={
                    "Content-Type": "application/json", "X-HMAC": signature, "X-Webhook-Attempt": "1"})
                try:
                    with urllib.request.urlopen(request, timeout=10) as response:
                        return response.status
                except urllib.error.HTTPError as error:
                    return error.code

            assert send(good) == 200
            assert "<-- withdrawal.status_changed e1 attempt 1 [signature ok] id=w1 status=APPROVED" in \
                listener.stdout.readline()
            assert "answered 200" in listener.stdout.readline()
            assert send("0" * 64) == 401
            assert "BAD SIGNATURE" in listener.stdout.readline()
        finally:
            listener.terminate()
            listener.wait(10)
    assert len(downstream.requests) == 1 and downstream.requests[0]["headers"]["X-HMAC"] == good


def test_the_whole_loop_sandbox_to_listener():
    port = free_port()
    with Served("--memory") as server:
        merchant = server.demo_merchant
        key = {"API-KEY": merchant["apiKey"]}
        secret = server.request("POST", "/sandbox/webhooks/secret", None, key)[1]["webhookSecret"]
        listener = subprocess.Popen([sys.executable, "-m", "sandbox", "webhooks", "listen", "--port", str(port),
                                     "--secret", secret], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            listener.stdout.readline()
            server.request("PATCH", "/sandbox/merchants/me", {"webhookUrl": f"http://127.0.0.1:{port}/"}, key)
            server.signed_post(merchant, "/v2/withdrawal", withdrawal("loop"))
            server.request("POST", "/sandbox/clock/advance", {"seconds": 700}, key)
            lines = [listener.stdout.readline() for _ in range(3)]
        finally:
            listener.terminate()
            listener.wait(10)
    assert [line.split("status=")[-1].strip() for line in lines] == ["OPEN", "APPROVED", "COMPLETE"]
    assert all("[signature ok]" in line for line in lines)


def test_the_test_event_is_sent_once_even_with_the_dispatcher_running():
    with Receiver(delay=0.6) as receiver, Served("--memory") as server:
        merchant = server.demo_merchant
        key = {"API-KEY": merchant["apiKey"]}
        server.request("PATCH", "/sandbox/merchants/me", {"webhookUrl": receiver.url}, key)
        status, delivery = server.request("POST", "/sandbox/webhooks/test", None, key)
        time.sleep(1.5)  # time enough for the dispatcher to have sent it a second time
        assert status == 200 and delivery["status"] == "DELIVERED"
        assert len(receiver.requests) == 1
        listed = server.request("GET", "/sandbox/webhooks/deliveries", headers=key)[1]["results"][0]
        assert [a["attempt"] for a in listed["attempts"]] == [1]


def test_a_hanging_endpoint_of_one_merchant_never_delays_another():
    with Receiver() as hanging, Receiver() as healthy, Served("--memory", "--webhook-timeout", "20") as server:
        hanging.gate = threading.Event()
        stuck = server.demo_merchant
        created = server.request("POST", "/sandbox/merchants", {"name": "Healthy", "email": "h@shop.example",
                                                                "webhookUrl": healthy.url})[1]
        server.request("PATCH", "/sandbox/merchants/me", {"webhookUrl": hanging.url}, {"API-KEY": stuck["apiKey"]})
        for number in range(3):
            server.signed_post(stuck, "/v2/withdrawal", withdrawal(f"stuck-{number}"))
        assert wait_for(lambda: hanging.requests)  # the dispatcher is now waiting on it
        server.signed_post(created, "/v2/withdrawal", withdrawal("healthy"))
        assert wait_for(lambda: healthy.requests, seconds=3)
        hanging.gate.set()
