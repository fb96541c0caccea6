"""kill -9 in the middle of writes: the store always loads and keeps every acknowledged write."""

import http.client
import signal
import threading
import time

import pytest

from tests.system.serving import Served

pytestmark = pytest.mark.slow
ROUNDS = 3


def withdrawal(number: int) -> dict:
    return {"amount": "1", "asset": {"short": "USDT", "network": "tron"}, "destTag": None,
            "addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "invoice": f"crash-{number}",
            "customer": {"id": 1, "name": "A", "email": "a@b.co"}}


def test_acknowledged_writes_survive_sigkill(tmp_path):
    data = str(tmp_path / "sandbox.json")
    acknowledged: list[str] = []
    merchant = None
    for round_number in range(ROUNDS):
        # fold the journal every 50 transactions, so kills also land inside compactions
        server = Served("--data", data, "--seed", "1", env={"SANDBOX_COMPACT_AFTER": "50"}).__enter__()
        merchant = merchant or server.demo_merchant
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
                    acknowledged.append(body["invoice"])

        writers = [threading.Thread(target=write, args=(worker,)) for worker in range(4)]
        for writer in writers:
            writer.start()
        time.sleep(0.7 + 0.3 * round_number)
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
        found = set()
        for start in range(0, len(acknowledged), 50):
            chunk = ",".join(acknowledged[start:start + 50])
            found |= {w["invoice"] for w in
                      server.request("GET", f"/v2/withdrawal?limit=100&invoices={chunk}", headers=headers)[1]["results"]}
        assert found == set(acknowledged)
