"""contracts/*.yaml are generated from the code and committed; they must not drift."""

import subprocess
import sys
from pathlib import Path

import yaml

from sandbox.cli import contract_texts

ROOT = Path(__file__).resolve().parents[2]


def test_committed_contracts_match_the_code():
    for name, text in contract_texts().items():
        assert (ROOT / "contracts" / name).read_text() == text, f"run `gateway-sandbox openapi` to update {name}"


def test_openapi_check_fails_on_drift(tmp_path):
    command = [sys.executable, "-m", "sandbox", "openapi", "--out-dir", str(tmp_path)]
    assert subprocess.run(command, capture_output=True).returncode == 0
    assert subprocess.run([*command, "--check"], capture_output=True).returncode == 0
    (tmp_path / "openapi.yaml").write_text("openapi: 3.0.3\n")
    result = subprocess.run([*command, "--check"], capture_output=True, text=True)
    assert result.returncode == 1 and "openapi.yaml" in result.stderr


def test_the_gateway_contract_has_only_v2_paths_and_the_control_one_only_sandbox_paths():
    gateway = yaml.safe_load(contract_texts()["openapi.yaml"])
    control = yaml.safe_load(contract_texts()["sandbox-openapi.yaml"])
    assert gateway["paths"] and all(path.startswith("/v2/") for path in gateway["paths"])
    assert control["paths"] and all(path.startswith("/sandbox/") for path in control["paths"])


def test_the_contract_describes_the_spec_quirks():
    spec = yaml.safe_load(contract_texts()["openapi.yaml"])
    schemas = spec["components"]["schemas"]
    withdrawal = schemas["Withdrawal"]
    assert withdrawal["properties"]["destTag"]["nullable"] is True
    assert withdrawal["properties"]["timeToApprove"]["nullable"] is True
    assert withdrawal["properties"]["merchant"]["$ref"].endswith("/Merchant")
    assert schemas["Merchant"]["properties"]["id"]["type"] == "integer"
    assert set(withdrawal["required"]) == set(withdrawal["properties"])
    assert schemas["DepositAddress"]["properties"]["dest_tag"]["nullable"] is True
    request = schemas["WithdrawalRequest"]
    assert set(request["required"]) == {"amount", "asset", "addressTo", "customer", "destTag", "invoice"}
    assert request["properties"]["amount"]["pattern"] == r"^[0-9]{1,30}(\.[0-9]{1,8})?$"
    fee_errors = spec["paths"]["/v2/network-fee"]["get"]["responses"]["400"]
    assert fee_errors["content"]["application/json"]["schema"]["$ref"].endswith("/CodedError")
    assert set(schemas["CodedError"]["required"]) == {"code", "num", "message"}
    create = spec["paths"]["/v2/withdrawal"]["post"]
    assert create["security"] == [{"ApiKey": []}]
    assert {"in": "header", "name": "X-HMAC", "required": True} == {
        key: value for key, value in create["parameters"][0].items() if key in ("in", "name", "required")}
