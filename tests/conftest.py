"""Shared fixtures: an in-memory sandbox app, merchants, and signed requests."""

import json

import pytest

from sandbox.app import Settings, create_app
from sandbox.domain.signing import sign
from sandbox.store import Store

SEED = 7
CONFIRMED = 1000  # at least any confirmsNeeded


class MerchantClient:
    """Sends /v2 requests as one merchant: API-KEY on every call, X-HMAC over the exact body."""

    def __init__(self, client, merchant: dict):
        self.client = client
        self.merchant = merchant

    def post(self, path: str, body, *, signature: str | None = None, headers: dict | None = None):
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        all_headers = {"API-KEY": self.merchant["apiKey"], "Content-Type": "application/json",
                       "X-HMAC": signature if signature is not None else self.sign(raw), **(headers or {})}
        return self.client.post(path, data=raw, headers=all_headers)

    def get(self, path: str, **params):
        return self.client.get(path, query_string=params, headers={"API-KEY": self.merchant["apiKey"]})

    def control(self, method: str, path: str, body=None):
        """A /sandbox control call as this merchant."""
        return self.client.open(path, method=method, json=body, headers={"API-KEY": self.merchant["apiKey"]})

    def deposit(self, network: str, asset: str, address: str, amount: str, *, confirmed: bool = True,
                **extra) -> dict:
        """Simulate an on-chain deposit into one of this merchant's addresses; unless told
        otherwise, it arrives with all the confirmations it needs."""
        body = {"assetNetwork": network, "assetShort": asset, "addressTo": address, "amount": amount, **extra}
        if confirmed:
            body.setdefault("confirmations", CONFIRMED)
        response = self.control("POST", "/sandbox/transactions", body)
        assert response.status_code == 201, response.json
        return response.json["data"]

    def merchant_events(self) -> list[dict]:
        """The events recorded for this merchant, oldest first (read from the store:
        the webhook issue adds their HTTP endpoint)."""
        ctx = self.client.application.extensions["sandbox"]
        return ctx.store.find("events", "merchant", self.merchant["id"])

    def sign(self, raw: bytes) -> str:
        m = self.merchant
        return sign(m["hmacSecret"], raw, m["hmacAlgorithm"], m["hmacEncoding"])


@pytest.fixture
def app():
    return create_app(Store(), Settings(seed=SEED, check_responses=True))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def ctx(app):
    return app.extensions["sandbox"]


def make_merchant(client, **settings) -> dict:
    body = {"name": "Shop", "email": "owner@shop.example", **settings}
    response = client.post("/sandbox/merchants", json=body)
    assert response.status_code == 201, response.json
    return response.json


@pytest.fixture
def merchant(client):
    return make_merchant(client, name="First Shop", autoApproveSeconds=300)


@pytest.fixture
def shop(client, merchant):
    return MerchantClient(client, merchant)


@pytest.fixture
def other_shop(client):
    return MerchantClient(client, make_merchant(client, name="Second Shop", email="two@shop.example"))
