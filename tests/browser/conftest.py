"""Browser tests: a served sandbox, Debian's Chromium driven by Playwright, and a
screenshot of every page under test-artifacts/screenshots (CI keeps them)."""

import os
import pathlib
import re

import pytest
from playwright.sync_api import Page, sync_playwright

from sandbox.client import GatewayClient
from tests.system.serving import Served

CHROMIUM = os.environ.get("SANDBOX_CHROMIUM", "/usr/bin/chromium")
# As root, with no display and a closed network: no sandbox, no GPU, no calls home.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = pathlib.Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"


@pytest.fixture(scope="module")
def served():
    with Served("--memory") as server:
        yield server


@pytest.fixture(scope="module")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (.ci/run does), "
                    f"or point SANDBOX_CHROMIUM at a Chromium binary")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, served) -> Page:
    context = browser.new_context(base_url=served.base_url, viewport={"width": 1366, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def admin(served) -> GatewayClient:
    return GatewayClient(served.base_url)


@pytest.fixture
def shop(admin) -> GatewayClient:
    """A merchant of its own per test, with manual approval: the tests' data never mix."""
    created = admin.create_merchant(name="Browser Shop", email="shop@example.com")
    assert created.status == 201, created.text
    return admin.as_merchant(created.json)


def sign_in(page: Page, client: GatewayClient) -> None:
    page.goto("/dashboard/sign-in")
    page.get_by_label("API key").fill(client.api_key)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/dashboard$"))


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def withdrawal(shop: GatewayClient, **overrides) -> dict:
    body = {"amount": "25", "asset": {"short": "USDT", "network": "tron"}, "addressTo": TRON_TO, "destTag": None,
            "invoice": "INV-1001", "customer": {"id": 7, "name": "Jane Doe", "email": "jane@example.com"},
            **overrides}
    created = shop.create_withdrawal(body)
    assert created.status == 200, created.text
    return created.json


def payment(shop: GatewayClient, **overrides) -> dict:
    created = shop.create_payment(**{"amount": "100", "assetShort": "USDT", "assetNetwork": "tron", **overrides})
    assert created.status == 201, created.text
    return created.json["data"]


def open_tab(page: Page, label: str) -> None:
    """Follow a link of the dashboard's navigation bar."""
    page.locator(".topbar nav").get_by_role("link", name=label, exact=True).click()
