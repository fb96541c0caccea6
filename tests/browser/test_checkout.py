"""The checkout page at a payment's checkoutUrl, in a real browser: what it shows,
the QR code, the simulate buttons, and the status changing while the page is open."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import payment, screenshot

pytestmark = pytest.mark.slow


def test_checkout_shows_what_to_pay_with_a_qr_code_and_time_left(page, shop):
    created = payment(shop, amount="12.5", invoice="ORDER-77")
    page.goto(created["checkoutUrl"])
    expect(page.locator("h1")).to_have_text("12.5 USDT")
    expect(page.locator(".network")).to_contain_text("tron")
    expect(page.locator("#address")).to_have_text(created["addressTo"])
    expect(page.locator("#display-status")).to_have_text("NEW")
    assert page.locator("img.qr").evaluate("img => img.complete && img.naturalWidth > 0")
    expect(page.locator("#time-left")).to_have_text(re.compile(r"^(59m|1h 00m)"))
    screenshot(page, "checkout-new")


def test_a_ton_checkout_shows_its_memo(page, shop):
    created = payment(shop, assetShort="TON", assetNetwork="ton", amount="3")
    assert created["destTag"]
    page.goto(created["checkoutUrl"])
    expect(page.locator("#dest-tag")).to_have_text(created["destTag"])


def test_partial_then_full_payment_changes_the_status_live(page, shop):
    created = payment(shop, amount="100")
    page.goto(created["checkoutUrl"])
    page.get_by_role("button", name="Simulate partial payment").click()
    expect(page.locator(".flash.ok")).to_contain_text("is on chain")
    expect(page.locator("#confirming")).to_have_text("50")
    expect(page.locator("#display-status")).to_have_text("OPEN")
    page.evaluate("window.__stillTheSamePage = true")

    shop.advance_clock(120)  # tron's 20 confirmations are 60 s: the deposit now counts
    expect(page.locator("#received")).to_have_text("50")  # redrawn by the page itself
    page.get_by_role("button", name="Simulate full payment").click()
    expect(page.locator("#confirming")).to_have_text("50")
    page.evaluate("window.__stillTheSamePage = true")
    screenshot(page, "checkout-confirming")

    shop.advance_clock(120)
    expect(page.locator("#display-status")).to_have_text("COMPLETED")
    expect(page.locator("#received")).to_have_text("100")
    expect(page.locator("#simulate")).to_be_hidden()
    expect(page.locator("#time-left")).to_have_text("none needed: paid")
    assert page.evaluate("window.__stillTheSamePage") is True  # no reload: the page polled
    assert shop.get_payment(created["id"]).json["data"]["displayStatus"] == "COMPLETED"
    screenshot(page, "checkout-completed")


def test_risky_payment_is_flagged_and_the_wallet_blocked(page, shop):
    created = payment(shop, amount="40", clientId="risky-client")
    page.goto(created["checkoutUrl"])
    page.get_by_role("button", name="Simulate risky payment").click()
    expect(page.locator("#display-status")).to_have_text("AML_CHECK_DANGER")
    (transaction,) = shop.get_payment(created["id"]).json["data"]["transactions"]
    assert transaction["isDanger"] is True and transaction["riskScore"] >= 75
    (wallet,) = shop.wallet_info("risky-client").json["wallets"]
    assert wallet["status"] == "BLOCKED"
    screenshot(page, "checkout-risky")


def test_an_expired_payment_offers_no_buttons(page, shop):
    created = payment(shop, amount="5", timeout=60)
    page.goto(created["checkoutUrl"])
    expect(page.locator("#simulate")).to_be_visible()
    shop.advance_clock(61)
    expect(page.locator("#display-status")).to_have_text("EXPIRED")
    expect(page.locator("#simulate")).to_be_hidden()
    expect(page.locator("#time-left")).to_have_text("none: expired")


def test_unknown_payment_wrong_key_and_pay_redirect(page, shop):
    created = payment(shop)
    key = created["checkoutUrl"].rsplit("/", 1)[1]
    for path in (f"/checkout/00000000-0000-4000-8000-000000000000/{key}", f"/checkout/{created['id']}/{'0' * 24}"):
        response = page.goto(path)
        assert response.status == 404
        expect(page.locator("main")).to_contain_text("This payment does not exist.")
    page.goto(created["paymentRedirectUrl"])
    assert page.url == created["checkoutUrl"]
