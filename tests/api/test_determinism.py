"""The same seed and the same requests give byte-identical responses."""

import json

from freezegun import freeze_time

from sandbox.app import Settings, create_app
from sandbox.domain.signing import sign
from sandbox.store import Store

SCRIPT = [
    ("POST", "/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDT", "number": 3}),
    ("POST", "/v2/deposit-addresses/create", {"assetNetwork": "ton", "assetShort": "TON", "number": 2}),
    ("POST", "/v2/deposit-addresses/create", {"assetNetwork": "ethereum", "assetShort": "USDC", "clientId": "c1"}),
    ("POST", "/v2/withdrawal", {"amount": "5", "asset": {"short": "USDT", "network": "tron"}, "destTag": None,
                                "addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "invoice": "I-1",
                                "customer": {"id": 1, "name": "A", "email": "a@b.co"}}),
    ("GET", "/v2/withdrawal", None),
    ("CONTROL", "/sandbox/payments", {"amount": "10", "assetShort": "USDT", "assetNetwork": "tron", "clientId": "c2"}),
    ("CONTROL", "/sandbox/transactions", {"assetNetwork": "tron", "assetShort": "USDT", "amount": "4",
                                          "addressTo": "<payment>", "confirmations": 100}),
    ("GET", "/v2/payment", None),
    ("GET", "/v2/merchants/wallets/info?clientId=c2", None),
]


def transcript(seed: int) -> list[bytes]:
    client = create_app(Store(), Settings(seed=seed)).test_client()
    with freeze_time("2026-11-21T08:00:00Z"):
        merchant = client.post("/sandbox/merchants", json={"name": "S", "email": "s@s.co"}).json
        bodies, payment_address = [], None
        for method, path, body in SCRIPT:
            headers = {"API-KEY": merchant["apiKey"]}
            if body and body.get("addressTo") == "<payment>":
                body = {**body, "addressTo": payment_address}
            raw = json.dumps(body).encode() if body else None
            if raw:
                headers.update({"X-HMAC": sign(merchant["hmacSecret"], raw), "Content-Type": "application/json"})
            response = client.open(path, method="POST" if method == "CONTROL" else method, data=raw, headers=headers)
            assert response.status_code < 300, response.json
            if path == "/sandbox/payments":
                payment_address = response.json["data"]["addressTo"]
            bodies.append(response.data)
    return bodies


def test_same_seed_same_bytes():
    assert transcript(11) == transcript(11)


def test_another_seed_other_addresses_and_ids():
    first, second = transcript(11), transcript(12)
    for step in (0, 3, 5, 6):  # addresses, withdrawal id, payment id, transaction id and sender
        assert first[step] != second[step]
