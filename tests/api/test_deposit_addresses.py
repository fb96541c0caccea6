"""POST /v2/deposit-addresses/create: every rule of the spec."""

import threading
import time

import pytest

from sandbox import catalogue
from sandbox.chains import chain_for
from tests.conftest import MerchantClient

PATH = "/v2/deposit-addresses/create"


def create(shop, **body):
    return shop.post(PATH, body)


def test_generates_number_valid_addresses(shop):
    response = create(shop, assetNetwork="tron", assetShort="USDT", number=3)
    assert response.status_code == 200
    body = response.json
    assert body["success"] is True
    assert len(body["addresses"]) == 3
    assert len({a["address"] for a in body["addresses"]}) == 3
    for entry in body["addresses"]:
        assert set(entry) == {"symbol", "address", "dest_tag"}
        assert entry["symbol"] == "USDT" and entry["dest_tag"] is None
        assert chain_for("tron").is_valid_address(entry["address"])


def test_network_is_lowercased_and_ticker_uppercased(shop):
    body = create(shop, assetNetwork="EtHeReUm", assetShort="usdc", number=1).json
    assert body["addresses"][0]["symbol"] == "USDC"
    assert chain_for("ethereum").is_valid_address(body["addresses"][0]["address"])


@pytest.mark.parametrize("network", sorted(catalogue.networks()))
def test_every_network_gives_valid_addresses(shop, network):
    asset = catalogue.network(network).native_asset
    address = create(shop, assetNetwork=network, assetShort=asset, number=1).json["addresses"][0]["address"]
    assert chain_for(network).is_valid_address(address)


def test_calls_without_client_id_always_give_new_addresses(shop):
    first = create(shop, assetNetwork="tron", assetShort="USDT", number=2).json["addresses"]
    second = create(shop, assetNetwork="tron", assetShort="USDT", number=2).json["addresses"]
    assert not {a["address"] for a in first} & {a["address"] for a in second}


def test_client_id_binds_one_address_per_network_across_assets(shop):
    usdt = create(shop, assetNetwork="tron", assetShort="USDT", clientId="client-1").json["addresses"]
    again = create(shop, assetNetwork="tron", assetShort="USDT", clientId="client-1").json["addresses"]
    usdc = create(shop, assetNetwork="tron", assetShort="USDC", clientId="client-1").json["addresses"]
    eth = create(shop, assetNetwork="ethereum", assetShort="USDT", clientId="client-1").json["addresses"]
    other = create(shop, assetNetwork="tron", assetShort="USDT", clientId="client-2").json["addresses"]
    assert len(usdt) == 1
    assert usdt == again
    assert usdc[0]["address"] == usdt[0]["address"] and usdc[0]["symbol"] == "USDC"
    assert eth[0]["address"] != usdt[0]["address"]
    assert other[0]["address"] != usdt[0]["address"]


def test_with_client_id_number_is_ignored(shop):
    for number in (5, 0, 1000, "many", None):
        body = create(shop, assetNetwork="tron", assetShort="USDT", clientId="c", number=number).json
        assert len(body["addresses"]) == 1


def test_binding_is_scoped_to_the_merchant(shop, other_shop):
    mine = create(shop, assetNetwork="tron", assetShort="USDT", clientId="same").json["addresses"][0]
    theirs = create(other_shop, assetNetwork="tron", assetShort="USDT", clientId="same").json["addresses"][0]
    assert mine["address"] != theirs["address"]


def test_ton_always_has_a_memo_equal_to_the_client_id_when_sent(shop):
    bound = create(shop, assetNetwork="ton", assetShort="USDT", clientId="client-42").json["addresses"][0]
    assert bound["dest_tag"] == "client-42"
    fresh = create(shop, assetNetwork="ton", assetShort="TON", number=2).json["addresses"]
    assert all(entry["dest_tag"] and entry["dest_tag"].isdigit() for entry in fresh)
    assert fresh[0]["dest_tag"] != fresh[1]["dest_tag"]


@pytest.mark.parametrize("body, message", [
    ({"assetShort": "USDT", "number": 1}, "assetNetwork is required"),
    ({"assetNetwork": "", "assetShort": "USDT", "number": 1}, "assetNetwork is required"),
    ({}, "assetNetwork is required"),
    ({"assetNetwork": "tron", "number": 1}, "assetShort is required"),
    ({"assetNetwork": "tron", "assetShort": "USDT"}, "number must be between 1 and 100"),
    ({"assetNetwork": "tron", "assetShort": "USDT", "number": 0}, "number must be between 1 and 100"),
    ({"assetNetwork": "tron", "assetShort": "USDT", "number": 101}, "number must be between 1 and 100"),
    ({"assetNetwork": "tron", "assetShort": "USDT", "number": "5"}, "number must be between 1 and 100"),
    ({"assetNetwork": "tron", "assetShort": "USDT", "number": 2.5}, "number must be between 1 and 100"),
    ({"assetNetwork": "tron", "assetShort": "USDT", "number": None}, "number must be between 1 and 100"),
    ({"assetNetwork": "dogecoin", "assetShort": "DOGE", "number": 1}, "assetNetwork dogecoin is not supported"),
    ({"assetNetwork": "tron", "assetShort": "BTC", "number": 1}, "assetShort BTC is not supported on tron"),
    ({"assetNetwork": 5, "assetShort": "USDT", "number": 1}, "assetNetwork must be a string"),
    ({"assetNetwork": "tron", "assetShort": "USDT", "number": True}, "number must be between 1 and 100"),
    ({"assetNetwork": "tron", "assetShort": "USDT", "clientId": ""}, "clientId must be 1 to 255 characters"),
])
def test_validation_errors(shop, body, message):
    response = create(shop, **body)
    assert response.status_code == 400
    assert response.json == {"error": message}


def test_concurrent_requests_for_a_new_client_id_bind_one_address(app, merchant, monkeypatch):
    results = []
    start = threading.Barrier(8)
    store = app.extensions["sandbox"].store
    find = store.find

    def slow_find(*args):  # widens the window between "not bound yet" and "bound"
        found = find(*args)
        time.sleep(0.05)
        return found

    monkeypatch.setattr(store, "find", slow_find)

    def request():
        shop = MerchantClient(app.test_client(), merchant)
        start.wait()
        results.append(create(shop, assetNetwork="tron", assetShort="USDT", clientId="racer").json)

    threads = [threading.Thread(target=request) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({r["addresses"][0]["address"] for r in results}) == 1
    ctx = app.extensions["sandbox"]
    assert ctx.store.count("addresses", "client", (merchant["id"], "tron", "racer")) == 1
