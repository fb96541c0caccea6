"""The dashboard and checkout pages' rules that need no browser: checkout links that
cannot be guessed, sessions that end on sign-out, safe redirects, 4xx for bad form
input, and buttons that never pay the wrong payment. (tests/browser drives the pages.)"""

import re

import pytest

from sandbox.client import GatewayClient
from sandbox.domain.seed import derive_uuid
from tests.conftest import SEED


@pytest.fixture
def gateway(app) -> GatewayClient:
    return GatewayClient.in_process(app)


@pytest.fixture
def shop(gateway) -> GatewayClient:
    return gateway.as_merchant(gateway.create_merchant(name="Shop", email="shop@example.com").json)


def token_of(response) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', response.text).group(1)


def signed_in(app, shop):
    browser = app.test_client()
    token = token_of(browser.get("/dashboard/sign-in"))
    assert browser.post("/dashboard/sign-in", data={"api_key": shop.api_key, "csrf_token": token}).status_code == 302
    return browser, token_of(browser.get("/dashboard/clock"))


def payment(shop, **fields) -> dict:
    return shop.create_payment(**{"amount": "10", "assetShort": "USDT", "assetNetwork": "tron", **fields}).json["data"]


def test_a_checkout_link_needs_its_key_so_payment_ids_from_the_seed_open_nothing(app, shop):
    created = payment(shop, invoice="secret-order")
    assert created["id"] == derive_uuid(SEED, "payment", 1, 0)  # anyone knowing the seed can compute it...
    visitor = app.test_client()
    for path in (f"/checkout/{created['id']}", f"/checkout/{created['id']}/{'0' * 24}",
                 f"/checkout/{created['id']}/{'0' * 24}/status", f"/pay/{created['id']}/x"):
        response = visitor.get(path, follow_redirects=True)
        assert response.status_code == 404 and "secret-order" not in response.text
    page = visitor.get(created["checkoutUrl"].removeprefix("http://localhost"))  # ...but only the link opens it
    assert page.status_code == 200 and "secret-order" in page.text
    forged = visitor.post(f"/checkout/{created['id']}/{'0' * 24}/simulate",
                          data={"kind": "risky", "csrf_token": token_of(page)})
    assert forged.status_code == 404
    assert shop.get_payment(created["id"]).json["data"]["displayStatus"] == "NEW"


def test_simulate_refuses_a_payment_waiting_behind_an_older_one_at_the_same_address(app, shop):
    older = payment(shop, clientId="bob")
    newer = payment(shop, clientId="bob", amount="50")
    assert older["addressTo"] == newer["addressTo"]
    visitor = app.test_client()
    path = newer["checkoutUrl"].removeprefix("http://localhost")
    token = token_of(visitor.get(path))
    page = visitor.post(f"{path}/simulate", data={"kind": "full", "csrf_token": token}, follow_redirects=True)
    assert f"pays the older payment {older['id']} first" in page.text
    assert shop.get_payment(older["id"]).json["data"]["transactions"] == []


def test_an_unknown_simulation_is_a_400(app, shop):
    visitor = app.test_client()
    path = payment(shop)["checkoutUrl"].removeprefix("http://localhost")
    token = token_of(visitor.get(path))
    assert visitor.post(f"{path}/simulate", data={"csrf_token": token}).status_code == 400
    assert visitor.post(f"{path}/simulate", data={"kind": "x" * 5000, "csrf_token": token}).status_code == 400


def test_signing_out_ends_every_copy_of_the_session(app, shop):
    browser, token = signed_in(app, shop)
    copied = app.test_client()
    copied.set_cookie("sandbox_session", browser.get_cookie("sandbox_session").value)
    assert copied.get("/dashboard").status_code == 200
    assert browser.post("/dashboard/sign-out", data={"csrf_token": token}).status_code == 302
    assert copied.get("/dashboard").headers["Location"].startswith("/dashboard/sign-in")
    # signing in again works
    assert signed_in(app, shop)[0].get("/dashboard").status_code == 200


@pytest.mark.parametrize("target", ["//evil.example/dashboard", "https://evil.example/dashboard",
                                    "/dashboard\r\nSet-Cookie: x=1", "/dashboard\\..\\x", "/elsewhere"])
def test_sign_in_goes_only_to_dashboard_paths(app, shop, target):
    browser = app.test_client()
    token = token_of(browser.get("/dashboard/sign-in"))
    response = browser.post("/dashboard/sign-in", query_string={"next": target},
                            data={"api_key": shop.api_key, "csrf_token": token})
    assert response.status_code == 302 and response.headers["Location"] == "/dashboard"


def test_pager_links_keep_only_the_filters(app, shop):
    for _ in range(2):
        payment(shop)
    browser, _ = signed_in(app, shop)
    page = browser.get("/dashboard/payments", query_string={"limit": 1, "_anchor": "x", "_scheme": "javascript",
                                                            "endpoint": "x", "statuses": "NEW"})
    assert page.status_code == 200
    (older,) = re.findall(r'<a href="(/dashboard/payments\?[^"]*)">Older', page.text)
    assert set(older.split("?")[1].replace("&amp;", "&").split("&")) >= {"statuses=NEW", "limit=1", "page=2"}
    assert "_scheme" not in page.text and "javascript" not in page.text and "_anchor" not in page.text


@pytest.mark.parametrize("seconds", ["nan", "inf", "1e400", "-5", "", "abc"])
def test_bad_clock_input_is_a_400_and_moves_nothing(app, shop, seconds):
    browser, token = signed_in(app, shop)
    before = shop.clock().json["now"]
    response = browser.post("/dashboard/clock/advance", data={"seconds": seconds, "csrf_token": token})
    assert response.status_code == 400 and 'role="alert"' in response.text
    assert browser.post("/dashboard/clock/freeze", data={"frozen": "maybe", "csrf_token": token}).status_code == 400
    assert shop.clock().json["now"] >= before and shop.clock().json["frozen"] is False


def test_unknown_pages_of_another_merchant_give_the_same_404(app, gateway, shop):
    other = gateway.as_merchant(gateway.create_merchant(name="Other", email="o@example.com").json)
    theirs = payment(other, invoice="theirs")
    browser, _ = signed_in(app, shop)
    for path in (f"/dashboard/payments/{theirs['id']}", "/dashboard/payments/not-a-uuid",
                 "/dashboard/withdrawals/whatever"):
        response = browser.get(path)
        assert response.status_code == 404 and "theirs" not in response.text
