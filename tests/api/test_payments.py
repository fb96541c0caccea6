"""POST /sandbox/payments, GET /v2/payment/{id} and GET /v2/payment."""

import uuid
from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from sandbox.chains import chain_for
from sandbox.services.urls import checkout_key

TRON_USDT = {"assetShort": "USDT", "assetNetwork": "tron"}


def create(shop, **body):
    response = shop.control("POST", "/sandbox/payments", {"amount": "10", **TRON_USDT, **body})
    assert response.status_code == 201, response.json
    return response.json["data"]


def get(shop, payment_id):
    return shop.client.get(f"/v2/payment/{payment_id}", headers={"API-KEY": shop.merchant["apiKey"]})


# -- creation -------------------------------------------------------------------------


def test_a_new_payment_is_open_and_new_in_the_get_payment_shape(shop, merchant):
    created = create(shop, invoice="ORDER-1", customer={"id": 7, "name": "Jane", "email": "jane@example.com"})
    assert uuid.UUID(created["id"])
    assert created["status"] == "OPEN" and created["displayStatus"] == "NEW"
    assert created["amount"] == "10" and created["totalReceivedAmount"] == "0"
    assert chain_for("tron").is_valid_address(created["addressTo"])
    assert created["destTag"] is None
    assert created["confirmsNeeded"] == 19 and created["timeout"] == 3600
    key = checkout_key(shop.merchant, created["id"])
    assert created["checkoutUrl"] == f"http://localhost/checkout/{created['id']}/{key}"
    assert created["paymentRedirectUrl"] == f"http://localhost/pay/{created['id']}/{key}"
    assert created["customer"] == {"id": 7, "name": "Jane", "email": "jane@example.com"}
    assert created["merchant"]["id"] == merchant["id"]
    assert created["transactions"] == [] and created["fixedFee"] == "0.3"
    assert get(shop, created["id"]).json == {"data": created}


def test_client_id_pays_into_the_bound_deposit_address(shop):
    bound = shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDC",
                                                       "clientId": "client-9"}).json["addresses"][0]["address"]
    assert create(shop, clientId="client-9")["addressTo"] == bound
    assert create(shop)["addressTo"] != bound


def test_ton_payments_carry_the_memo(shop):
    payment = create(shop, assetNetwork="ton", clientId="memo-client")
    assert payment["destTag"] == "memo-client"
    assert create(shop, assetNetwork="ton")["destTag"].isdigit()


def test_options_and_defaults(shop, client, merchant):
    payment = create(shop, assetNetwork="ethereum", timeout=600, confirmsNeeded=3, fixedFee="0.5", amount="1.123456")
    assert (payment["timeout"], payment["confirmsNeeded"], payment["fixedFee"]) == (600, 3, "0.5")
    assert create(shop, assetShort="BTC", assetNetwork="bitcoin", amount="0.01")["confirmsNeeded"] == 2
    client.patch("/sandbox/merchants/me", json={"fixedFeeUsd": "3", "prices": {"TRX": "0.5"}},
                 headers={"API-KEY": merchant["apiKey"]})
    assert create(shop, assetShort="TRX")["fixedFee"] == "6"  # 3 USD at 0.5 USD a TRX


def test_ids_are_deterministic_per_merchant(shop):
    first, second = create(shop), create(shop)
    assert first["id"] != second["id"]


@pytest.mark.parametrize("body, message", [
    ({"amount": "0"}, "amount must be greater than 0"),
    ({"amount": "1.1234567"}, "amount has more decimal places than USDT on tron supports (6)"),
    ({"amount": 5}, "amount must be a string"),
    ({"assetNetwork": "mars"}, "assetNetwork mars is not supported"),
    ({"assetShort": "DOGE"}, "assetShort DOGE is not supported on tron"),
    ({"timeout": 0}, "timeout"),
    ({"confirmsNeeded": -1}, "confirmsNeeded"),
    ({"fixedFee": "x"}, "fixedFee must be a decimal string"),
    ({"customer": {"id": 1, "name": "A", "email": "bad"}}, "customer.email must be a valid e-mail address"),
])
def test_create_validation(shop, body, message):
    response = shop.control("POST", "/sandbox/payments", {"amount": "10", **TRON_USDT, **body})
    assert response.status_code == 400
    assert response.json["error"].startswith(message)


# -- get payment ----------------------------------------------------------------------


def test_get_payment_errors_have_the_spec_bodies(shop, other_shop, client):
    payment = create(shop)
    assert client.get(f"/v2/payment/{payment['id']}").json == {"error": "unauthorized"}
    assert client.get(f"/v2/payment/{payment['id']}").status_code == 401
    forbidden = get(other_shop, payment["id"])
    assert forbidden.status_code == 403 and forbidden.json == {"error": "forbidden"}
    for unknown in (str(uuid.uuid4()), "not-a-uuid", payment["id"].upper() + "0"):
        response = get(shop, unknown)
        assert response.status_code == 400 and response.json == {"error": "payment not found"}


def test_get_payment_has_full_transactions(shop, merchant):
    payment = create(shop)
    deposit = shop.deposit("tron", "USDT", payment["addressTo"], "4", riskScore=12)
    body = get(shop, payment["id"]).json["data"]
    assert isinstance(body["merchant"]["id"], int)
    (transaction,) = body["transactions"]
    assert transaction == {
        "paymentId": payment["id"], "txnId": deposit["txnId"], "receivedAmount": "4",
        "addressFrom": deposit["addressFrom"], "addressTo": payment["addressTo"], "destTag": None,
        "asset": payment["asset"], "fixedFee": "0.3", "percentFee": "0.04", "riskScore": 12, "isDanger": False,
        "createdAt": deposit["createdAt"]}
    assert body["status"] == "OPEN" and body["displayStatus"] == "OPEN" and body["totalReceivedAmount"] == "4"


# -- list payments --------------------------------------------------------------------


@pytest.fixture
def book(shop):
    """Six payments a minute apart, in every display status but EXPIRED."""
    made = {}
    start = datetime.now(timezone.utc).replace(tzinfo=None, microsecond=0) - timedelta(minutes=10)  # all still NEW
    plan = [("new", "10", None, None), ("open", "10", "4", None), ("done", "10", "10", None),
            ("over", "10", "12", None), ("danger", "10", "10", 80), ("eth", "5", None, None)]
    for number, (label, amount, paid, risk) in enumerate(plan):
        with freeze_time(start + timedelta(minutes=number)):
            network = "ethereum" if label == "eth" else "tron"
            payment = create(shop, amount=amount, assetNetwork=network, invoice=f"INV-{label}",
                             clientId=f"client-{label}")
            if paid:
                deposit = shop.deposit(network, "USDT", payment["addressTo"], paid,
                                       **({"riskScore": risk} if risk else {}))
                payment["deposit"] = deposit
            made[label] = payment
    return made


def listed(shop, **query):
    response = shop.get("/v2/payment", **query)
    assert response.status_code == 200, response.json
    return response.json


def labels(body) -> list[str]:
    return [p["invoice"].removeprefix("INV-") for p in body["results"]]


def test_list_shape_and_default_order(shop, book, merchant):
    body = listed(shop)
    assert (body["page"], body["limit"], body["total"]) == (1, 20, 6)
    assert labels(body) == ["eth", "danger", "over", "done", "open", "new"]
    item = next(p for p in body["results"] if p["invoice"] == "INV-open")
    assert "fixedFee" not in item
    assert item["merchant"]["id"] == str(merchant["id"])
    (transaction,) = item["transactions"]
    assert set(transaction) == {"paymentId", "txnId", "receivedAmount", "addressFrom", "addressTo", "destTag",
                                "asset", "date"}
    assert transaction["date"] == book["open"]["deposit"]["createdAt"]


def test_statuses_filter_on_display_status(shop, book):
    assert labels(listed(shop, statuses="COMPLETED")) == ["done"]
    assert labels(listed(shop, statuses="OVERPAID,AML_CHECK_DANGER")) == ["danger", "over"]
    assert labels(listed(shop, statuses="NEW")) == ["eth", "new"]
    assert listed(shop, statuses="EXPIRED")["total"] == 0


def test_method_filter(shop, book):
    assert labels(listed(shop, method="USDT_ethereum")) == ["eth"]
    assert listed(shop, method="usdt_TRON")["total"] == 5
    assert listed(shop, method="DOGE_mars")["total"] == 0


def test_search_matches_parts_of_addresses_client_ids_txn_ids_and_invoices_and_whole_ids(shop, book):
    assert labels(listed(shop, search="inv-ove")) == ["over"]
    assert labels(listed(shop, search="client-don")) == ["done"]
    assert labels(listed(shop, search=book["danger"]["addressTo"][3:15])) == ["danger"]
    assert labels(listed(shop, search=book["open"]["deposit"]["txnId"][10:30])) == ["open"]
    assert labels(listed(shop, search=book["done"]["deposit"]["addressFrom"][2:20])) == ["done"]
    assert labels(listed(shop, search=book["new"]["id"])) == ["new"]
    assert listed(shop, search=book["new"]["id"][:8])["total"] == 0  # id: exact match only
    assert labels(listed(shop, search="ov")) == ["over"]  # two letters still match


def test_id_txn_and_invoice_filters(shop, book):
    assert labels(listed(shop, ids=f"{book['new']['id']},{book['eth']['id']}")) == ["eth", "new"]
    assert labels(listed(shop, txnIds=book["over"]["deposit"]["txnId"])) == ["over"]
    assert labels(listed(shop, invoices="INV-done,INV-new")) == ["done", "new"]
    assert labels(listed(shop, invoices="INV-done", statuses="NEW")) == []


@pytest.mark.parametrize("field, order, expected", [
    ("created_at", "asc", ["new", "open", "done", "over", "danger", "eth"]),
    ("amount", "asc", ["eth", "new", "open", "done", "over", "danger"]),
    ("total_received_amount", "desc", ["over", "danger", "done", "open", "eth", "new"]),
    ("display_status", "asc", ["danger", "done", "new", "eth", "open", "over"]),  # ties: oldest first
])
def test_sorting(shop, book, field, order, expected):
    assert labels(listed(shop, sortField=field, sortOrder=order)) == expected


def test_pagination_edges(shop, book):
    assert labels(listed(shop, limit=4, page=2)) == ["open", "new"]
    last = listed(shop, limit=3, page=2)
    assert labels(last) == ["done", "open", "new"] and last["page"] == 2 and last["total"] == 6
    past = listed(shop, limit=3, page=5)
    assert past["results"] == [] and past["total"] == 6


@pytest.mark.parametrize("query, message", [
    ({"statuses": "PAID"}, "statuses"), ({"method": "USDT-tron"}, "method must look like USDT_tron"),
    ({"sortField": "color"}, "sortField"), ({"sortOrder": "up"}, "sortOrder"), ({"page": 0}, "page"),
    ({"limit": 101}, "limit"), ({"search": ""}, "search"),
])
def test_invalid_list_queries(shop, query, message):
    response = shop.get("/v2/payment", **query)
    assert response.status_code == 400 and response.json["error"].startswith(message)


def test_another_merchant_sees_none_of_it(other_shop, book):
    theirs = create(other_shop, invoice="INV-theirs")  # so that a missing merchant filter would show
    assert [p["id"] for p in listed(other_shop)["results"]] == [theirs["id"]]
    assert listed(other_shop, ids=f"{theirs['id']},{book['new']['id']}")["total"] == 1
    assert labels(listed(other_shop, search="INV")) == ["theirs"]
    assert listed(other_shop, search=book["new"]["id"])["total"] == 0
    assert listed(other_shop, ids=book["new"]["id"])["total"] == 0
    assert listed(other_shop, txnIds=book["done"]["deposit"]["txnId"])["total"] == 0
