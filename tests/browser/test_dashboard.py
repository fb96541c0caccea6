"""The merchant dashboard in a real browser: sign-in, withdrawals, clock, wallets,
webhooks, settings, and what no merchant may see or do."""

import re

import pytest
from playwright.sync_api import expect

from sandbox.web import SESSION_COOKIE
from tests.browser.conftest import open_tab, payment, screenshot, sign_in, withdrawal
from tests.receiver import Receiver

pytestmark = pytest.mark.slow


def test_sign_in_keeps_the_merchant_in_an_http_only_same_site_cookie(page, shop):
    page.goto("/dashboard/withdrawals")
    expect(page).to_have_url(re.compile(r"/dashboard/sign-in\?next=/dashboard/withdrawals"))
    page.get_by_label("API key").fill("not-a-key")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("belongs to no merchant")
    screenshot(page, "dashboard-sign-in")

    page.get_by_label("API key").fill(shop.api_key)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/dashboard/withdrawals$"))  # back where it was going
    (cookie,) = [c for c in page.context.cookies() if c["name"] == SESSION_COOKIE]
    assert cookie["httpOnly"] is True
    assert cookie["sameSite"] == "Lax"
    assert shop.api_key not in cookie["value"]

    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(re.compile(r"/dashboard/sign-in$"))
    page.goto("/dashboard")
    expect(page).to_have_url(re.compile(r"/dashboard/sign-in"))


def test_approve_a_withdrawal_and_the_api_sees_it_approved(page, shop):
    created = withdrawal(shop)
    sign_in(page, shop)
    screenshot(page, "dashboard-overview")
    open_tab(page, "Withdrawals")
    page.get_by_role("checkbox", name="OPEN").check()
    page.get_by_role("button", name="Filter").click()
    row = page.locator(f'tr[data-id="{created["id"]}"]')
    expect(row).to_contain_text("25 USDT")
    screenshot(page, "dashboard-withdrawals")
    row.get_by_role("button", name="Approve").click()

    expect(page.locator(".flash.ok")).to_have_text("Withdrawal approved.")
    expect(page.locator("#withdrawal-status")).to_have_text("APPROVED")
    (listed,) = shop.list_withdrawals(ids=created["id"]).json["results"]
    assert listed["status"] == "APPROVED"
    expect(page.get_by_role("button", name="Approve")).to_have_count(0)  # only Cancel is left


def test_cancel_a_withdrawal(page, shop):
    created = withdrawal(shop, invoice="to-cancel")
    sign_in(page, shop)
    page.goto(f"/dashboard/withdrawals/{created['id']}")
    page.get_by_role("button", name="Cancel").click()
    expect(page.locator("#withdrawal-status")).to_have_text("CANCELLED")
    (listed,) = shop.list_withdrawals(ids=created["id"]).json["results"]
    assert listed["status"] == "CANCELLED"
    expect(page.get_by_role("button", name="Cancel")).to_have_count(0)


def test_advancing_the_clock_completes_an_approved_withdrawal(page, shop):
    with Receiver() as receiver:
        assert shop.update_settings(webhookUrl=receiver.url).status == 200
        created = withdrawal(shop)
        sign_in(page, shop)
        page.goto(f"/dashboard/withdrawals/{created['id']}")
        page.get_by_role("button", name="Approve").click()
        expect(page.locator("#withdrawal-status")).to_have_text("APPROVED")

        open_tab(page, "Clock")
        before = page.locator("#clock-now").inner_text()
        page.get_by_role("button", name="+1 hour").click()
        expect(page.locator(".flash.ok")).to_contain_text("Clock moved forward")
        assert page.locator("#clock-now").inner_text() > before
        screenshot(page, "dashboard-clock")

        page.goto(f"/dashboard/withdrawals/{created['id']}")
        expect(page.locator("#withdrawal-status")).to_have_text("COMPLETE")
        (listed,) = shop.list_withdrawals(ids=created["id"]).json["results"]
        assert listed["status"] == "COMPLETE" and listed["txnId"]
        # its events, and their webhook deliveries once sent
        shop.dispatch_webhooks()
        page.reload()
        events = page.locator("table.list").first
        expect(events).to_contain_text("APPROVED")
        expect(events).to_contain_text("COMPLETE")
        expect(page.locator("table.deliveries")).to_contain_text("DELIVERED")
        screenshot(page, "dashboard-withdrawal")


def test_freeze_and_release_the_clock(page, shop):
    sign_in(page, shop)
    page.goto("/dashboard/clock")
    page.get_by_role("button", name="Freeze the clock").click()
    expect(page.locator(".clock-chip")).to_contain_text("frozen")
    assert shop.clock().json["frozen"] is True
    page.get_by_role("button", name="Let it run").click()
    expect(page.locator(".clock-chip")).not_to_contain_text("frozen")
    assert shop.clock().json["frozen"] is False


def test_a_blocked_wallet_stands_out(page, shop):
    risky = payment(shop, clientId="client-42", invoice="risky")
    clean = payment(shop, clientId="client-42", assetShort="TRX", amount="50", invoice="clean")
    shop.deposit(assetNetwork="tron", assetShort="USDT", addressTo=risky["addressTo"], amount="100", riskScore=99)
    shop.deposit(assetNetwork="tron", assetShort="TRX", addressTo=clean["addressTo"], amount="50", riskScore=3,
                 confirmations=1000)
    sign_in(page, shop)
    open_tab(page, "Wallets")
    page.get_by_label("Client id").fill("client-42")
    page.get_by_role("button", name="Search").click()
    blocked = page.locator('.wallet[data-status="BLOCKED"]')
    expect(blocked).to_have_count(1)
    expect(blocked).to_contain_text("USDT")
    expect(blocked).to_contain_text("Blocked by the AML check")
    assert blocked.evaluate("e => getComputedStyle(e).borderTopColor") != \
        page.locator('.wallet[data-status="ACTIVE"]').evaluate("e => getComputedStyle(e).borderTopColor")
    expect(page.locator('.wallet[data-status="ACTIVE"]')).to_contain_text("50 TRX")
    screenshot(page, "dashboard-wallets")

    page.get_by_label("Client id").fill("nobody")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("alert")).to_have_text("No wallets for this clientId.")


def test_payments_list_filters_as_the_api_and_shows_transactions_aml_and_fees(page, shop):
    paid = payment(shop, amount="10", invoice="paid-1")
    payment(shop, amount="20", invoice="open-1")
    shop.deposit(assetNetwork="tron", assetShort="USDT", addressTo=paid["addressTo"], amount="10", riskScore=12,
                 confirmations=1000)
    sign_in(page, shop)
    open_tab(page, "Payments")
    page.get_by_role("checkbox", name="COMPLETED").check()
    page.get_by_role("button", name="Filter").click()
    rows = page.locator("#payments tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("paid-1")
    api = shop.list_payments(statuses="COMPLETED").json
    assert [p["invoice"] for p in api["results"]] == ["paid-1"]
    screenshot(page, "dashboard-payments")

    page.goto("/dashboard/payments?method=nonsense")  # the API's own validation, shown on the page
    expect(page.get_by_role("alert")).to_contain_text("method must look like USDT_tron")

    page.goto(f"/dashboard/payments/{paid['id']}")
    deposit = page.locator("#transactions tbody tr").first
    expect(deposit).to_contain_text("10 USDT")
    expect(deposit).to_contain_text("risk 12")
    expect(deposit).to_contain_text("percent 0.1 USDT")
    screenshot(page, "dashboard-payment")


def test_webhook_log_redeliver_and_test(page, shop):
    with Receiver() as receiver:
        sign_in(page, shop)
        open_tab(page, "Settings")
        page.get_by_label("Webhook URL").fill(receiver.url)
        page.get_by_label("Auto-approve withdrawals after (seconds)").fill("0")
        page.get_by_label("AML threshold (0–100)").fill("80")
        page.get_by_role("button", name="Save").click()
        expect(page.locator(".flash.ok")).to_have_text("Settings saved.")
        settings = shop.request("GET", "/sandbox/merchants/me").json
        assert (settings["webhookUrl"], settings["autoApproveSeconds"], settings["amlThreshold"]) == \
            (receiver.url, 0, 80)
        screenshot(page, "dashboard-settings")

        open_tab(page, "Webhooks")
        page.get_by_role("button", name="Send a test webhook").click()
        expect(page.locator(".flash.ok")).to_have_text("Test webhook delivered.")
        assert [event["type"] for event in receiver.events()] == ["webhook.test"]
        expect(page.locator("table.deliveries tbody tr")).to_have_count(1)
        page.locator("table.deliveries").get_by_role("button", name="Redeliver").click()
        expect(page.locator(".flash.ok")).to_contain_text("Queued again")
        shop.dispatch_webhooks()
        page.reload()
        expect(page.locator("table.deliveries tbody tr")).to_have_count(2)
        assert [event["type"] for event in receiver.events()] == ["webhook.test"] * 2
        page.locator("details summary").first.click()
        screenshot(page, "dashboard-webhooks")


def test_settings_refuse_bad_values_and_keep_the_form(page, shop):
    sign_in(page, shop)
    page.goto("/dashboard/settings")
    page.get_by_label("AML threshold (0–100)").fill("101")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("alert")).to_contain_text("amlThreshold")
    expect(page.get_by_label("AML threshold (0–100)")).to_have_value("101")
    assert shop.request("GET", "/sandbox/merchants/me").json["amlThreshold"] == 75


def test_another_merchants_records_are_not_found_by_url(page, shop, admin):
    other = admin.as_merchant(admin.create_merchant(name="Other Shop", email="other@example.com").json)
    theirs = withdrawal(other, invoice="secret-invoice")
    their_payment = payment(other, invoice="secret-payment")
    sign_in(page, shop)
    for path in (f"/dashboard/withdrawals/{theirs['id']}", f"/dashboard/payments/{their_payment['id']}"):
        response = page.goto(path)
        assert response.status == 404
        expect(page.locator("main")).not_to_contain_text("secret")
    page.goto(f"/dashboard/withdrawals?ids={theirs['id']}")
    expect(page.locator("#withdrawals tbody")).to_contain_text("No withdrawals match")
    page.goto("/dashboard/payments?invoices=secret-payment")
    expect(page.locator("#payments tbody")).to_contain_text("No payments match")

    # a forged form post for their withdrawal, with this session's valid CSRF token
    token = page.locator('input[name="csrf_token"]').first.input_value()
    result = page.request.post(f"/dashboard/withdrawals/{theirs['id']}/approve", form={"csrf_token": token})
    assert result.status == 404  # it lands on their withdrawal's page, which is not found either
    assert "withdrawal not found" in result.text()
    (listed,) = other.list_withdrawals(ids=theirs["id"]).json["results"]
    assert listed["status"] == "OPEN"


def test_form_posts_without_the_csrf_token_are_refused(page, shop):
    created = withdrawal(shop)
    sign_in(page, shop)
    result = page.request.post(f"/dashboard/withdrawals/{created['id']}/approve", form={})
    assert result.status == 400
    assert "security token" in result.text()
    result = page.request.post(f"/dashboard/withdrawals/{created['id']}/approve", form={"csrf_token": "forged"})
    assert result.status == 400
    (listed,) = shop.list_withdrawals(ids=created["id"]).json["results"]
    assert listed["status"] == "OPEN"


def test_an_invoice_with_markup_shows_as_text(page, shop):
    hostile = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'
    created = payment(shop, invoice=hostile)
    withdrawal(shop, invoice=hostile, customer={"id": 1, "name": "<b>bold</b>", "email": "x@example.com"})
    sign_in(page, shop)
    for path in ("/dashboard", "/dashboard/payments", f"/dashboard/payments/{created['id']}",
                 "/dashboard/withdrawals", created["checkoutUrl"]):
        page.goto(path)
        expect(page.locator("body")).to_contain_text("window.__xss")  # shown as text...
        assert page.evaluate("window.__xss") is None  # ...never run
        assert page.locator("main b").count() == 0
