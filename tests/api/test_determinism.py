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
]


def transcript(seed: int) -> list[bytes]:
    client = create_app(Store(), Settings(seed=seed)).test_client()
    with freeze_time("2026-11-21T08:00:00Z"):
        merchant = client.post("/sandbox/merchants", json={"name": "S", "email": "s@s.co"}).json
        bodies = []
        for method, path, body in SCRIPT:
            headers = {"API-KEY": merchant["apiKey"]}
            raw = json.dumps(body).encode() if body else None
            if raw:
                headers.update({"X-HMAC": sign(merchant["hmacSecret"], raw), "Content-Type": "application/json"})
            bodies.append(client.open(path, method=method, data=raw, headers=headers).data)
    return bodies


def test_same_seed_same_bytes():
    assert transcript(11) == transcript(11)


def test_another_seed_other_addresses_and_ids():
    assert transcript(11)[0] != transcript(12)[0]
    assert transcript(11)[3] != transcript(12)[3]
