"""schemathesis over every /v2 operation of the committed contract, in process, with all
checks, a valid API key and a correct X-HMAC for every generated body."""

import os
import tomllib
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings

from contracts import hooks
from sandbox.app import Settings, create_app
from sandbox.store import Store
from tests.conftest import MerchantClient, make_merchant

ROOT = Path(__file__).resolve().parents[2]
MAX_EXAMPLES = int(os.environ.get("CONTRACT_MAX_EXAMPLES", "25"))

app = create_app(Store(), Settings(seed=3, check_responses=True))
_client = app.test_client()
MERCHANT = make_merchant(_client, name="Contract Shop", autoApproveSeconds=60)
hooks.configure(MERCHANT["hmacSecret"])


def _seed_data() -> None:
    """Rows for the read endpoints to find: addresses, payments in every state, deposits, withdrawals."""
    shop = MerchantClient(_client, MERCHANT)
    for network in ("tron", "ethereum", "ton"):
        shop.post("/v2/deposit-addresses/create", {"assetNetwork": network, "assetShort": "USDT", "clientId": "c-1"})
    for number, (paid, risk) in enumerate([(None, None), ("4", None), ("10", None), ("12", None), ("10", 90)]):
        payment = shop.control("POST", "/sandbox/payments", {
            "amount": "10", "assetShort": "USDT", "assetNetwork": "tron", "clientId": f"c-{number % 2}",
            "invoice": f"P-{number}", "customer": {"id": number, "name": "Client", "email": "client@example.com"},
        }).json["data"]
        if paid:
            shop.deposit("tron", "USDT", payment["addressTo"], paid, **({"riskScore": risk} if risk else {}))
    for number in range(5):
        shop.post("/v2/withdrawal", {
            "amount": f"{number + 1}.5", "asset": {"short": "USDT", "network": "tron"}, "destTag": None,
            "addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "invoice": f"INV-{number}",
            "customer": {"id": number, "name": "Client", "email": "client@example.com"}})


_seed_data()
os.environ["GATEWAY_API_KEY"] = MERCHANT["apiKey"]
settings_file = tomllib.loads((ROOT / "contracts" / "schemathesis.toml").read_text())
config = schemathesis.Config.from_dict({**settings_file, "seed": 20261121,
                                        "generation": {"max-examples": MAX_EXAMPLES}})
schema = schemathesis.openapi.from_path(ROOT / "contracts" / "openapi.yaml", config=config)
schema.app = app


@schema.parametrize()
@settings(suppress_health_check=list(HealthCheck), deadline=None)
def test_v2_conforms_to_the_contract(case):
    case.call_and_validate()


control_settings = tomllib.loads((ROOT / "contracts" / "sandbox-schemathesis.toml").read_text())
control_config = schemathesis.Config.from_dict({
    **settings_file, "operations": settings_file["operations"] + control_settings["operations"],
    "seed": 20261121, "generation": {"max-examples": MAX_EXAMPLES}})
control_schema = schemathesis.openapi.from_path(ROOT / "contracts" / "sandbox-openapi.yaml", config=control_config)
control_schema.app = app


@control_schema.parametrize()
@settings(suppress_health_check=list(HealthCheck), deadline=None)
def test_control_api_conforms_to_its_contract(case):
    case.call_and_validate()
