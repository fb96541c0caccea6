"""API-KEY on every /v2 call (401), X-HMAC over the raw body on the creating POSTs (403),
per-merchant signature schemes, and tenant isolation."""

import base64
import hashlib
import hmac
import json

import pytest

from tests.conftest import MerchantClient, make_merchant

GETS = ["/v2/withdrawal", "/v2/network-fee"]
POSTS = ["/v2/deposit-addresses/create", "/v2/withdrawal"]
DEPOSIT_BODY = {"assetNetwork": "tron", "assetShort": "USDT", "number": 1}


@pytest.mark.parametrize("path", GETS + POSTS)
@pytest.mark.parametrize("key", [None, "", "sk_sandbox_unknown"])
def test_missing_or_unknown_api_key_is_401(client, path, key):
    headers = {} if key is None else {"API-KEY": key}
    response = client.open(path, method="POST" if path in POSTS else "GET", json={}, headers=headers)
    assert response.status_code == 401


def test_401_comes_before_validation(client):
    response = client.post("/v2/deposit-addresses/create", data=b"not json", headers={"API-KEY": "bad"})
    assert response.status_code == 401 and response.json == {"error": "unauthorized"}


@pytest.mark.parametrize("path", POSTS)
def test_missing_or_wrong_signature_is_403(shop, path):
    raw = json.dumps(DEPOSIT_BODY).encode()
    for signature in ["", "deadbeef", shop.sign(raw + b" "), shop.sign(raw).upper()]:
        response = shop.post(path, raw, signature=signature)
        assert response.status_code == 403
        assert response.json == {"error": "invalid signature"}
    no_header = shop.client.post(path, data=raw, headers={"API-KEY": shop.merchant["apiKey"],
                                                          "Content-Type": "application/json"})
    assert no_header.status_code == 403


def test_the_signature_covers_the_exact_bytes_sent(shop):
    spaced = b'{ "assetNetwork" : "tron", "assetShort": "USDT", "number": 1 }'
    assert shop.post("/v2/deposit-addresses/create", spaced).status_code == 200
    compact = json.dumps(DEPOSIT_BODY, separators=(",", ":")).encode()
    response = shop.post("/v2/deposit-addresses/create", spaced, signature=shop.sign(compact))
    assert response.status_code == 403


def test_403_comes_before_validation(shop):
    response = shop.post("/v2/withdrawal", {"amount": "x"}, signature="00")
    assert response.status_code == 403


def test_a_valid_signature_over_an_invalid_body_reaches_validation(shop):
    assert shop.post("/v2/withdrawal", b"{not json").status_code == 400


def test_signature_is_lowercase_hex_hmac_sha256_by_default(shop):
    raw = json.dumps(DEPOSIT_BODY).encode()
    signature = hmac.new(shop.merchant["hmacSecret"].encode(), raw, hashlib.sha256).hexdigest()
    assert shop.post("/v2/deposit-addresses/create", raw, signature=signature).status_code == 200


def test_a_merchant_can_switch_to_sha512_base64(client):
    merchant = make_merchant(client, hmacAlgorithm="sha512", hmacEncoding="base64")
    raw = json.dumps(DEPOSIT_BODY).encode()
    signature = base64.b64encode(hmac.new(merchant["hmacSecret"].encode(), raw, hashlib.sha512).digest()).decode()
    shop = MerchantClient(client, merchant)
    assert shop.post("/v2/deposit-addresses/create", raw, signature=signature).status_code == 200
    hex256 = hmac.new(merchant["hmacSecret"].encode(), raw, hashlib.sha256).hexdigest()
    assert shop.post("/v2/deposit-addresses/create", raw, signature=hex256).status_code == 403


def test_gets_need_no_signature(shop):
    assert shop.get("/v2/withdrawal").status_code == 200


def test_one_merchants_key_never_shows_anothers_data(shop, other_shop):
    created = shop.post("/v2/withdrawal", {
        "amount": "1", "asset": {"short": "USDT", "network": "tron"}, "addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
        "customer": {"id": 1, "name": "A", "email": "a@b.co"}, "destTag": None, "invoice": "SECRET"}).json
    assert other_shop.get("/v2/withdrawal", ids=created["id"]).json == {"results": [], "page": 0, "limit": 20,
                                                                        "total": 0}
    # another merchant's signature does not sign for me
    raw = json.dumps(DEPOSIT_BODY).encode()
    assert shop.post("/v2/deposit-addresses/create", raw, signature=other_shop.sign(raw)).status_code == 403
