"""The /sandbox merchant controls: creation, admin token, settings."""

import pytest

from sandbox.app import Settings, create_app
from sandbox.store import Store


def test_create_returns_settings_and_credentials(client):
    response = client.post("/sandbox/merchants", json={"name": "Shop", "email": "a@shop.example",
                                                       "webhookUrl": "https://shop.example/hooks"})
    assert response.status_code == 201
    body = response.json
    assert isinstance(body["id"], int)
    assert body["autoApproveSeconds"] is None  # absent: manual approval
    assert body["webhookUrl"] == "https://shop.example/hooks"
    assert body["siteUrl"] == "" and body["logoUrl"] == ""
    assert body["apiKey"].startswith("sk_sandbox_") and body["hmacSecret"].startswith("hs_sandbox_")
    assert body["hmacAlgorithm"] == "sha256" and body["hmacEncoding"] == "hex"


def test_credentials_derive_from_the_seed():
    def first_merchant(seed):
        client = create_app(Store(), Settings(seed=seed)).test_client()
        return client.post("/sandbox/merchants", json={"name": "S", "email": "s@s.co"}).json

    assert first_merchant(1) == first_merchant(1)
    assert first_merchant(1)["apiKey"] != first_merchant(2)["apiKey"]


@pytest.mark.parametrize("body, message", [
    ({"email": "a@b.co"}, "name is required"),
    ({"name": "S"}, "email is required"),
    ({"name": "S", "email": "nope"}, "email must be a valid e-mail address"),
    ({"name": "S", "email": "a@b.co", "webhookUrl": "ftp://x.example"}, "webhookUrl"),
    ({"name": "S", "email": "a@b.co", "autoApproveSeconds": -1}, "autoApproveSeconds"),
    ({"name": "S", "email": "a@b.co", "hmacAlgorithm": "md5"}, "hmacAlgorithm"),
])
def test_create_validation(client, body, message):
    response = client.post("/sandbox/merchants", json=body)
    assert response.status_code == 400
    assert response.json["error"].startswith(message)


def test_admin_token_guards_merchant_creation():
    client = create_app(Store(), Settings(admin_token="s3cret")).test_client()
    body = {"name": "S", "email": "s@s.co"}
    assert client.post("/sandbox/merchants", json=body).status_code == 401
    assert client.post("/sandbox/merchants", json=body, headers={"X-Sandbox-Admin-Token": "wrong"}).status_code == 401
    assert client.post("/sandbox/merchants", json=body, headers={"X-Sandbox-Admin-Token": "s3cret"}).status_code == 201


def test_me_reads_and_patch_changes_settings(client, merchant):
    headers = {"API-KEY": merchant["apiKey"]}
    me = client.get("/sandbox/merchants/me", headers=headers).json
    assert merchant["webhookSecret"].startswith("whsec_") and "webhookSecret" not in me  # shown once
    assert me == {key: value for key, value in merchant.items() if key != "webhookSecret"}
    patched = client.patch("/sandbox/merchants/me", headers=headers,
                           json={"autoApproveSeconds": None, "siteUrl": "https://x.example", "apiKey": "stolen"}).json
    assert patched["autoApproveSeconds"] is None and patched["siteUrl"] == "https://x.example"
    assert patched["apiKey"] == merchant["apiKey"] and patched["paymentWebhooks"] is False
    assert client.get("/sandbox/merchants/me", headers=headers).json == patched
    assert client.patch("/sandbox/merchants/me", headers=headers, json={"email": "bad"}).status_code == 400
    assert client.get("/sandbox/merchants/me").status_code == 401


def test_health(client):
    assert client.get("/sandbox/health").json == {"status": "ok", "version": "0.1.0", "seed": 7}
