"""Malformed input of every kind gets a clear 4xx, never a 500."""

import json

import pytest

BODY_ENDPOINTS = ["/v2/deposit-addresses/create", "/v2/withdrawal"]


@pytest.mark.parametrize("path", BODY_ENDPOINTS)
@pytest.mark.parametrize("raw, message", [
    (b"{", "request body is not valid JSON"),
    (b"\xff\xfe", "request body is not valid JSON"),
    (b"[1, 2]", "request body must be a JSON object"),
    (b'"text"', "request body must be a JSON object"),
    (b"null", "request body must be a JSON object"),
    (b"1" * 5000, "request body is not valid JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "request body is not valid JSON"),
    (b'{"assetNetwork": NaN}', None),
])
def test_malformed_bodies(shop, path, raw, message):
    response = shop.post(path, raw)
    assert response.status_code == 400
    if message:
        assert response.json["error"] == message


@pytest.mark.parametrize("path, raw", [
    ("/v2/deposit-addresses/create", b'{"assetNetwork": "tron", "assetShort": "USDT", "clientId": "\\ud800"}'),
    ("/v2/withdrawal", b'{"amount": "1", "asset": {"short": "USDT", "network": "tron"}, "destTag": null, '
                       b'"addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "invoice": "\\udfff", '
                       b'"customer": {"id": 1, "name": "A", "email": "a@b.co"}}'),
])
def test_lone_surrogates_are_rejected_not_stored(shop, path, raw):
    response = shop.post(path, raw)
    assert response.status_code == 400
    assert "valid Unicode" in response.json["error"]


def test_odd_but_valid_unicode_is_kept(shop):
    client_id = "клиент-😀-\u200b"
    body = {"assetNetwork": "tron", "assetShort": "USDT", "clientId": client_id}
    first = shop.post("/v2/deposit-addresses/create", body).json
    assert shop.post("/v2/deposit-addresses/create", body).json == first


def test_wrong_content_type_is_400(shop):
    raw = json.dumps({"assetNetwork": "tron", "assetShort": "USDT", "number": 1}).encode()
    response = shop.post("/v2/deposit-addresses/create", raw, headers={"Content-Type": "text/plain"})
    assert response.status_code == 400
    assert response.json == {"error": "Content-Type must be application/json"}


def test_huge_numbers_are_400(shop):
    for number in [10**30, 1e308, -1, True]:
        response = shop.post("/v2/deposit-addresses/create",
                             {"assetNetwork": "tron", "assetShort": "USDT", "number": number})
        assert response.status_code == 400, number


def test_oversized_body_is_413(shop):
    response = shop.post("/v2/withdrawal", b'{"invoice": "' + b"x" * 2_000_000 + b'"}')
    assert response.status_code == 413
    assert "error" in response.json


def test_unknown_path_is_json_404(client):
    response = client.get("/v2/nothing-here")
    assert response.status_code == 404
    assert response.json == {"error": "not found"}


def test_wrong_method_is_405_with_allow(client):
    response = client.delete("/v2/withdrawal")
    assert response.status_code == 405
    assert set(response.headers["Allow"].split(", ")) >= {"GET", "POST"}
    assert response.json == {"error": "method not allowed"}


def test_unknown_fields_are_ignored(shop):
    body = {"assetNetwork": "tron", "assetShort": "USDT", "number": 1, "color": "blue"}
    assert shop.post("/v2/deposit-addresses/create", body).status_code == 200


@pytest.mark.parametrize("query, status", [("limit=%00", 400), ("statuses=%FF%FE", 400), ("ids=" + "a" * 4096, 200),
                                           ("ids=" + "a" * 4097, 400), ("invoices=%00", 400)])
def test_odd_query_strings_are_handled(shop, query, status):
    response = shop.client.get(f"/v2/withdrawal?{query}", headers={"API-KEY": shop.merchant["apiKey"]})
    assert response.status_code == status
    assert response.is_json
