"""kill -9 in the middle of writes, many times: the store always loads, keeps every
acknowledged write, and its outbox still delivers every event."""

import http.client
import signal
import threading
import time

import pytest

from tests.receiver import Receiver
from tests.system.serving import Served

pytestmark = pytest.mark.slow
ROUNDS = 6


def withdrawal(number: int) -> dict:
    return {"amount": "1", "asset": {"short": "USDT", "network": "tron"}, "destTag": None,
            "addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "invoice": f"crash-{number}",
            "customer": {"id": 1, "name": "A", "email": "a@b.co"}}


def test_acknowledged_writes_survive_sigkill(tmp_path):
    with Receiver() as receiver:
        check_rounds_of_kills(str(tmp_path / "sandbox.json"), receiver)


def check_rounds_of_kills(data: str, receiver: Receiver) -> None:
    acknowledged: dict[str, str] = {}  # invoice: withdrawal id
    merchant = None
    for round_number in range(ROUNDS):
        # fold the journal every 50 transactions, so kills also land inside compactions
        server = Served("--data", data, "--seed", "1", env={"SANDBOX_COMPACT_AFTER": "50"}).__enter__()
        if merchant is None:
            merchant = server.demo_merchant
            assert server.request("PATCH", "/sandbox/merchants/me", {"webhookUrl": receiver.url},
                                  headers={"API-KEY": merchant["apiKey"]})[0] == 200
        stop = threading.Event()

        def write(worker: int):
            number = 0
            while not stop.is_set():
                number += 1
                try:
                    status, body = server.signed_post(merchant, "/v2/withdrawal",
                                                      withdrawal(round_number * 100_000 + worker * 10_000 + number))
                except (OSError, http.client.HTTPException):
                    return  # the server is gone; this request was never acknowledged
                if status == 200:
                    acknowledged[body["invoice"]] = body["id"]

        writers = [threading.Thread(target=write, args=(worker,)) for worker in range(4)]
        for writer in writers:
            writer.start()
        time.sleep(0.5 + 0.2 * round_number)
        server.stop(signal.SIGKILL)
        stop.set()
        for writer in writers:
            writer.join()

    assert len(acknowledged) > 50
    with Served("--data", data) as server:
        headers = {"API-KEY": merchant["apiKey"]}
        status, body = server.request("GET", "/v2/withdrawal?limit=1", headers=headers)
        assert status == 200
        assert body["total"] >= len(acknowledged)
        invoices = sorted(acknowledged)
        found = set()
        for start in range(0, len(invoices), 50):
            chunk = ",".join(invoices[start:start + 50])
            found |= {w["invoice"] for w in
                      server.request("GET", f"/v2/withdrawal?limit=100&invoices={chunk}", headers=headers)[1]["results"]}
        assert found == set(acknowledged)
        # the outbox: the server's own dispatcher brings the event each acknowledged
        # withdrawal made before a kill (OPEN: the clock advance below makes the later
        # ones anew) to the receiver, retries due or not (a synchronous
        # /sandbox/webhooks/dispatch of hundreds could outlast an HTTP timeout when busy)
        server.request("POST", "/sandbox/clock/advance", {"seconds": 86400}, headers=headers)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            notified = {event["data"]["id"] for event in receiver.events()
                        if event["type"] == "withdrawal.status_changed" and event["data"]["status"] == "OPEN"}
            if notified >= set(acknowledged.values()):
                break
            time.sleep(0.2)
        assert notified >= set(acknowledged.values())
