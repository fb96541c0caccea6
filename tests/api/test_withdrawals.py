"""POST /v2/withdrawal and GET /v2/withdrawal: every rule of the spec."""

import uuid
from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from sandbox import catalogue
from tests.conftest import MerchantClient, make_merchant

PATH = "/v2/withdrawal"
TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
ETH_TO = "0xdAC17F958D2ee523a2206206994597C13D831ec7"


def request_body(**overrides) -> dict:
    body = {"amount": "25.5", "asset": {"short": "USDT", "network": "tron"}, "addressTo": TRON_TO,
            "customer": {"id": 42, "name": "Jane Doe", "email": "jane@example.com"}, "destTag": None,
            "invoice": "INV-1001"}
    body.update(overrides)
    return {key: value for key, value in body.items() if value is not ...}


def deposit_address(shop, network="tron", client_id="client-1") -> str:
    body = {"assetNetwork": network, "assetShort": "USDT", "clientId": client_id}
    return shop.post("/v2/deposit-addresses/create", body).json["addresses"][0]["address"]


@freeze_time("2026-11-21T10:00:00.123456Z")
def test_created_withdrawal_is_open_and_empty_until_processed(shop, merchant):
    response = shop.post(PATH, request_body())
    assert response.status_code == 200
    body = response.json
    assert uuid.UUID(body["id"])
    assert body["status"] == "OPEN"
    assert body["txnId"] == "" and body["addressFrom"] == "" and body["receivedAmount"] == "0"
    assert body["amount"] == "25.5"
    assert body["asset"] == {"short": "USDT", "name": "Tether USD", "logoUrl": catalogue.asset("USDT", "tron").logo_url,
                             "network": "tron"}
    assert body["destTag"] == ""
    assert body["customer"] == {"id": 42, "name": "Jane Doe", "email": "jane@example.com"}
    assert body["merchant"] == {"id": merchant["id"], "name": "First Shop", "siteUrl": "", "logoUrl": "",
                                "email": "owner@shop.example"}
    assert isinstance(body["merchant"]["id"], int)
    assert body["invoice"] == "INV-1001"
    assert body["createdAt"] == body["updatedAt"] == "2026-11-21T10:00:00.123456Z"
    assert body["timeToApprove"] == "2026-11-21T10:05:00.123456Z"  # the merchant auto-approves after 300 s
    assert list(body) == ["id", "txnId", "amount", "receivedAmount", "asset", "addressFrom", "addressTo", "destTag",
                          "status", "customer", "merchant", "invoice", "createdAt", "updatedAt", "timeToApprove"]


def test_manual_approval_merchant_gets_null_time_to_approve(client):
    manual = MerchantClient(client, make_merchant(client, name="Manual"))
    assert manual.post(PATH, request_body()).json["timeToApprove"] is None


def test_time_to_approve_follows_the_merchant_setting(shop, merchant):
    shop.client.patch("/sandbox/merchants/me", json={"autoApproveSeconds": 0}, headers={"API-KEY": merchant["apiKey"]})
    body = shop.post(PATH, request_body()).json
    assert body["timeToApprove"] == body["createdAt"]


@pytest.mark.parametrize("short, network, to", [("USDT", "tron", TRON_TO), ("USDT", "ethereum", ETH_TO),
                                                ("USDC", "ethereum", ETH_TO)])
def test_the_three_supported_assets(shop, short, network, to):
    response = shop.post(PATH, request_body(asset={"short": short, "network": network}, addressTo=to))
    assert response.status_code == 200
    assert response.json["asset"]["short"] == short and response.json["asset"]["network"] == network


@pytest.mark.parametrize("short, network", [("USDC", "tron"), ("USDT", "bsc"), ("ETH", "ethereum"), ("TRX", "tron"),
                                            ("USDT", "nowhere")])
def test_other_assets_are_rejected(shop, short, network):
    response = shop.post(PATH, request_body(asset={"short": short, "network": network}))
    assert response.status_code == 400
    assert response.json == {"error": "unsupported asset and network combination"}


def test_dest_tag_is_echoed_when_given(shop):
    assert shop.post(PATH, request_body(destTag="memo-7")).json["destTag"] == "memo-7"
    assert shop.post(PATH, request_body(destTag="")).json["destTag"] == ""


def test_destination_is_returned_as_sent(shop):
    body = shop.post(PATH, request_body(asset={"short": "USDC", "network": "ethereum"}, addressTo=ETH_TO.lower())).json
    assert body["addressTo"] == ETH_TO.lower()


@pytest.mark.parametrize("amount, message", [
    ("1.123456789", "amount must be a decimal string with at most 8 decimal places"),
    ("abc", "amount must be a decimal string with at most 8 decimal places"),
    ("1e3", "amount must be a decimal string with at most 8 decimal places"),
    ("-5", "amount must be a decimal string with at most 8 decimal places"),
    ("0", "amount must be greater than 0"),
    ("0.0000000", "amount must be greater than 0"),
    ("1.1234567", "amount has more decimal places than USDT on tron supports (6)"),
    (12.5, "amount must be a string"),
    ("9" * 40, "amount must be a decimal string with at most 8 decimal places"),
])
def test_amount_rules(shop, amount, message):
    response = shop.post(PATH, request_body(amount=amount))
    assert response.status_code == 400
    assert response.json["error"] == message


def test_up_to_the_asset_precision_is_accepted(shop):
    assert shop.post(PATH, request_body(amount="1.123456")).json["amount"] == "1.123456"
    assert shop.post(PATH, request_body(amount="10.50")).json["amount"] == "10.5"


@pytest.mark.parametrize("overrides, message", [
    ({"customer": {"id": 1, "name": "A", "email": "not-an-email"}}, "customer.email must be a valid e-mail address"),
    ({"customer": {"id": 1, "name": "A", "email": "a@b"}}, "customer.email must be a valid e-mail address"),
    ({"customer": {"id": "1", "name": "A", "email": "a@b.co"}}, "customer.id must be an integer"),
    ({"customer": {"name": "A", "email": "a@b.co"}}, "customer.id is required"),
    ({"customer": ...}, "customer is required"),
    ({"addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T"}, "addressTo is not a valid tron address"),
    ({"addressTo": ETH_TO}, "addressTo is not a valid tron address"),
    ({"invoice": ...}, "invoice is required"),
    ({"destTag": ...}, "destTag is required"),
    ({"amount": ...}, "amount is required"),
    ({"asset": {"short": "USDT"}}, "asset.network is required"),
    ({"asset": "USDT"}, "asset must be a JSON object"),
    ({"addressFrom": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"}, "addressFrom and clientId must be sent together"),
    ({"clientId": "client-1"}, "addressFrom and clientId must be sent together"),
    ({"transferAll": True}, "transferAll requires withdraw-direct mode (addressFrom and clientId)"),
])
def test_validation_errors(shop, overrides, message):
    response = shop.post(PATH, request_body(**overrides))
    assert response.status_code == 400
    assert response.json == {"error": message}


def test_direct_mode_from_the_clients_own_address(shop):
    source = deposit_address(shop)
    response = shop.post(PATH, request_body(addressFrom=source, clientId="client-1"))
    assert response.status_code == 200
    assert response.json["addressFrom"] == ""  # filled when processed


def test_direct_mode_ownership_mismatches_are_403(shop, other_shop):
    mine = deposit_address(shop, client_id="client-1")
    unbound = shop.post("/v2/deposit-addresses/create",
                        {"assetNetwork": "tron", "assetShort": "USDT", "number": 1}).json["addresses"][0]["address"]
    theirs = deposit_address(other_shop, client_id="client-1")
    for address_from, client_id in [(mine, "client-2"), (unbound, "client-1"), (theirs, "client-1"),
                                    (TRON_TO, "client-1")]:
        response = shop.post(PATH, request_body(addressFrom=address_from, clientId=client_id))
        assert response.status_code == 403, (address_from, client_id)
        assert response.json == {"error": "addressFrom does not belong to this merchant and clientId"}


def test_transfer_all_takes_the_source_balance_and_ignores_amount(shop):
    source = deposit_address(shop)
    shop.deposit("tron", "USDT", source, "100")
    shop.deposit("tron", "USDT", source, "23.45")
    body = shop.post(PATH, request_body(addressFrom=source, clientId="client-1", transferAll=True,
                                        amount="not even a number")).json
    assert body["amount"] == "123.45" and body["status"] == "OPEN"


# -- listing --------------------------------------------------------------------------


@pytest.fixture
def five(shop):
    """Five withdrawals, a minute apart: invoices INV-0..INV-4. Made a year ahead of the
    wall clock, so the auto-approval after 300 s is not due when the tests read them."""
    created = []
    start = datetime.now(timezone.utc) + timedelta(days=365)
    for number in range(5):
        with freeze_time(start + timedelta(minutes=number)):
            created.append(shop.post(PATH, request_body(invoice=f"INV-{number}")).json)
    return created


def test_list_is_newest_first_with_0_based_page_and_total(shop, five):
    body = shop.get(PATH).json
    assert body["page"] == 0 and body["limit"] == 20 and body["total"] == 5
    assert [w["invoice"] for w in body["results"]] == ["INV-4", "INV-3", "INV-2", "INV-1", "INV-0"]
    assert body["results"][0] == five[4]


def test_pagination(shop, five):
    second = shop.get(PATH, page=2, limit=2).json
    assert second["page"] == 1 and second["limit"] == 2 and second["total"] == 5
    assert [w["invoice"] for w in second["results"]] == ["INV-2", "INV-1"]
    assert [w["invoice"] for w in shop.get(PATH, page=3, limit=2).json["results"]] == ["INV-0"]
    past = shop.get(PATH, page=9, limit=2).json
    assert past["results"] == [] and past["total"] == 5


def test_filters_accept_repeated_and_comma_separated_values(shop, five):
    ids = [five[0]["id"], five[3]["id"]]
    by_comma = shop.client.get(f"{PATH}?ids={','.join(ids)}", headers={"API-KEY": shop.merchant["apiKey"]}).json
    by_repeat = shop.client.get(f"{PATH}?ids={ids[0]}&ids={ids[1]}", headers={"API-KEY": shop.merchant["apiKey"]}).json
    assert by_comma == by_repeat
    assert by_comma["total"] == 2
    assert {w["id"] for w in by_comma["results"]} == set(ids)
    assert shop.get(PATH, invoices="INV-1,INV-2,NOPE").json["total"] == 2
    assert shop.get(PATH, statuses="OPEN").json["total"] == 5
    assert shop.get(PATH, statuses="APPROVED,COMPLETE").json["total"] == 0
    assert shop.get(PATH, txnIds="abc").json["total"] == 0
    assert shop.get(PATH, invoices="INV-1", statuses="OPEN", ids=five[1]["id"]).json["total"] == 1
    assert shop.get(PATH, invoices="INV-1", ids=five[2]["id"]).json["total"] == 0


@pytest.mark.parametrize("query, message", [
    ({"page": 0}, "page"), ({"page": "x"}, "page must be an integer"), ({"limit": 0}, "limit"),
    ({"limit": 101}, "limit"), ({"statuses": "OPEN,DONE"}, "statuses"), ({"page": "1e400"}, "page"),
])
def test_invalid_query_values_are_400(shop, query, message):
    response = shop.get(PATH, **query)
    assert response.status_code == 400
    assert response.json["error"].startswith(message)


def test_merchants_see_only_their_own_withdrawals(shop, other_shop, five):
    assert other_shop.get(PATH).json["total"] == 0
    assert other_shop.get(PATH, ids=five[0]["id"]).json["results"] == []
    assert other_shop.get(PATH, invoices="INV-1").json["total"] == 0
