"""`gateway-sandbox proxy`: forwards unchanged, logs and counts contract violations, over real HTTP."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from contracts.harness import shipped
from contracts.proxy import VIOLATIONS_HEADER, Validator, make_app
from sandbox.app import Settings, create_app
from sandbox.client import GatewayClient
from sandbox.store import Store
from tests.contract.broken import served, string_merchant_id
from tests.system.serving import Served, free_port, wait_healthy

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def test_the_proxy_command_forwards_to_a_served_sandbox_and_counts_violations():
    with Served("--memory") as sandbox:
        merchant = sandbox.merchants[0]
        port = free_port()
        process = subprocess.Popen([sys.executable, "-m", "sandbox", "proxy", "--upstream", sandbox.base_url,
                                    "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, cwd=ROOT)
        try:
            wait_healthy(f"http://127.0.0.1:{port}", process)
            shop = GatewayClient(f"http://127.0.0.1:{port}", api_key=merchant["apiKey"],
                                 hmac_secret=merchant["hmacSecret"])
            created = shop.create_deposit_addresses("tron", "USDT", client_id="c-1")
            direct = GatewayClient(sandbox.base_url, api_key=merchant["apiKey"], hmac_secret=merchant["hmacSecret"])
            assert created.status == 200 and created.headers[VIOLATIONS_HEADER] == "0"
            assert created.json == direct.create_deposit_addresses("tron", "USDT", client_id="c-1").json  # unchanged
            too_big = shop.list_withdrawals(limit=500)
            assert too_big.status == 400 and too_big.headers[VIOLATIONS_HEADER] == "1"
        finally:
            process.terminate()
            output = process.communicate(timeout=10)[0]
    assert "contract violation: GET /v2/withdrawal: request query.limit: maximum: 500 is greater than" in output
    assert "Traceback" not in output


def test_a_broken_upstream_is_caught_with_operation_path_and_rule():
    app = create_app(Store(), Settings(seed=2))
    admin = GatewayClient.in_process(app)
    merchant = admin.create_merchant(name="Shop", email="s@shop.example").json
    payment = admin.as_merchant(merchant).create_payment(amount="5", assetShort="USDT", assetNetwork="tron").json
    logged = []
    with served(string_merchant_id(app, merchant, {})) as upstream:
        with served(make_app(upstream, Validator(shipped("openapi.yaml")), logged.append)) as proxy:
            answer = GatewayClient(proxy, api_key=merchant["apiKey"]).get_payment(payment["data"]["id"])
    assert answer.status == 200 and answer.headers[VIOLATIONS_HEADER] == "1"
    assert answer.json["data"]["merchant"]["id"] == str(merchant["id"])  # passed on as the upstream sent it
    assert [str(v) for v in logged] == [
        f"GET /v2/payment/{{id}}: response /data/merchant/id: type: '{merchant['id']}' is not of type 'integer'"]


def test_an_unreachable_upstream_is_a_502():
    with served(make_app(f"http://127.0.0.1:{free_port()}", Validator(shipped("openapi.yaml")), [].append)) as proxy:
        started = time.monotonic()
        answer = GatewayClient(proxy).list_payments()
    assert answer.status == 502 and "upstream unreachable" in answer.json["error"]
    assert time.monotonic() - started < 10
