"""`gateway-sandbox contract test` over real HTTP: green against the sandbox served by
gunicorn, red — with the right check named — against deliberately broken variants."""

import subprocess
import sys
from pathlib import Path

import pytest
import xmlschema

from sandbox.app import Settings, create_app
from sandbox.client import GatewayClient
from sandbox.store import Store
from tests.contract.broken import VARIANTS, served
from tests.system.serving import Served

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
JUNIT_SCHEMA = xmlschema.XMLSchema(str(ROOT / "tests" / "junit.xsd"))


def contract_test(base_url: str, merchant: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sandbox", "contract", "test", "--base-url", base_url,
                           "--api-key", merchant["apiKey"], "--hmac-secret", merchant["hmacSecret"], "--seed", "7",
                           *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_the_sandbox_served_by_gunicorn_passes_and_a_junit_report_is_written(tmp_path):
    with Served("--memory", "--scenario", "scenarios/payment-statuses.yaml") as server:
        shop = server.merchants[1]  # the scenario's merchant, with payments in every state
        done = contract_test(server.base_url, shop, "--max-examples", "10", "--report", "junit",
                             "--report-dir", str(tmp_path))
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Per operation:" in done.stdout
    for operation in ("POST /v2/withdrawal", "GET /v2/payment/{id}", "GET /v2/network-fee", "Stateful tests"):
        assert f"{operation}" in done.stdout.split("Per operation:")[1]
    JUNIT_SCHEMA.validate(str(tmp_path / "junit.xml"))


@pytest.fixture(scope="module")
def broken_sandbox():
    """A sandbox with two merchants: the one under test, with payments, and another
    whose payment a leaking variant shows."""
    app = create_app(Store(), Settings(seed=11))
    admin = GatewayClient.in_process(app)
    shop_settings, other_settings = (admin.create_merchant(name=name, email=f"{name}@shop.example").json
                                     for name in ("tested", "other"))
    for settings in (shop_settings, other_settings):
        merchant = admin.as_merchant(settings)
        payment = merchant.create_payment(amount="10", assetShort="USDT", assetNetwork="tron", clientId="c").json
        merchant.deposit(assetNetwork="tron", assetShort="USDT", addressTo=payment["data"]["addressTo"], amount="10",
                         confirmations=30)
    leaked = admin.as_merchant(other_settings).list_payments().json["results"][0]
    return app, shop_settings, leaked


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant.__name__ for variant in VARIANTS])
def test_each_broken_variant_fails_with_the_check_that_names_its_fault(broken_sandbox, variant):
    app, merchant, leaked = broken_sandbox
    check, operations = VARIANTS[variant]
    included = [option for operation in operations for option in ("--include", operation)]
    with served(variant(app, merchant, leaked)) as base_url:
        done = contract_test(base_url, merchant, "--max-examples", "10", "--phases", "examples,fuzzing,stateful",
                             *included)
    assert done.returncode == 1, done.stdout[-3000:]
    summary = done.stdout.split("Per operation:")[1]
    assert check in summary, done.stdout[-5000:]
    assert "curl -X" in done.stdout  # a reproducible command for each failure


def test_bad_options_are_clear_messages():
    done = subprocess.run([sys.executable, "-m", "sandbox", "contract", "test", "--base-url", "localhost:1",
                           "--api-key", "k", "--hmac-secret", "s"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and "must start with http://" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "sandbox", "contract", "test", "--base-url", "http://127.0.0.1:1",
                           "--api-key", "k", "--hmac-secret", "s", "--report", "pdf", "--report-dir", "x"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and "pdf: not one of junit, har, vcr" in done.stderr
