"""`gateway-sandbox` as a user runs it: serve, merchant create, openapi, and their errors."""

import json
import subprocess
import sys

import pytest
from tinydb import TinyDB

from tests.system.serving import Served

pytestmark = pytest.mark.slow
CLI = [sys.executable, "-m", "sandbox"]


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60, **kwargs)


def test_serve_creates_and_prints_the_demo_merchant_and_persists(tmp_path):
    data = str(tmp_path / "data" / "sandbox.json")
    with Served("--data", data, "--seed", "5") as server:
        assert "/docs" in server.banner and "Created the demo merchant #1" in server.banner
        merchant = server.demo_merchant
        assert server.request("GET", "/sandbox/health")[1] == {"status": "ok", "version": "0.1.0", "seed": 5}
        status, body = server.signed_post(merchant, "/v2/deposit-addresses/create",
                                          {"assetNetwork": "tron", "assetShort": "USDT", "clientId": "c1"})
        assert status == 200
        address = body["addresses"][0]["address"]
    with TinyDB(data, access_mode="r", encoding="utf-8") as db:  # folded into the snapshot on shutdown
        assert [a["address"] for a in db.table("addresses").all()] == [address]
    with Served("--data", data) as again:  # the seed comes from the data file
        assert "Merchant #1 (Demo Shop)" in again.banner and again.demo_merchant == merchant
        status, body = again.signed_post(merchant, "/v2/deposit-addresses/create",
                                         {"assetNetwork": "tron", "assetShort": "USDT", "clientId": "c1"})
        assert body["addresses"][0]["address"] == address


def test_docs_ui_and_specs_are_served():
    with Served("--memory") as server:
        import urllib.request

        for path in ("/docs", "/sandbox/docs"):
            with urllib.request.urlopen(server.base_url + path) as response:
                assert b"swagger" in response.read().lower()
        assert "/v2/withdrawal" in server.request("GET", "/openapi.json")[1]["paths"]
        assert "/sandbox/merchants" in server.request("GET", "/sandbox/openapi.json")[1]["paths"]


def test_a_data_file_refuses_another_seed(tmp_path):
    data = str(tmp_path / "sandbox.json")
    assert run("merchant", "create", "--name", "S", "--email", "s@s.co", "--data", data, "--seed", "3").returncode == 0
    result = run("serve", "--data", data, "--seed", "4", "--port", "1")
    assert result.returncode != 0
    assert "created with seed 3" in result.stderr and "Traceback" not in result.stderr


def test_a_data_file_in_use_is_refused_with_a_clear_message(tmp_path):
    data = str(tmp_path / "sandbox.json")
    with Served("--data", data):
        result = run("merchant", "create", "--name", "S", "--email", "s@s.co", "--data", data)
    assert result.returncode != 0
    assert "in use by another process" in result.stderr and "Traceback" not in result.stderr


def test_merchant_create_prints_credentials_that_the_server_accepts(tmp_path):
    data = str(tmp_path / "sandbox.json")
    result = run("merchant", "create", "--name", "Cli Shop", "--email", "cli@shop.example",
                 "--auto-approve-seconds", "60", "--data", data)
    assert result.returncode == 0, result.stderr
    created = json.loads(result.stdout)
    assert created["id"] == 1 and created["autoApproveSeconds"] == 60
    with Served("--data", data) as server:
        assert server.request("GET", "/sandbox/merchants/me", headers={"API-KEY": created["apiKey"]})[0] == 200


def test_merchant_create_rejects_bad_input_without_a_traceback(tmp_path):
    result = run("merchant", "create", "--name", "S", "--email", "nope", "--data", str(tmp_path / "d.json"))
    assert result.returncode == 2
    assert "email must be a valid e-mail address" in result.stderr and "Traceback" not in result.stderr


def test_serve_rejects_data_with_memory():
    result = run("serve", "--data", "x.json", "--memory")
    assert result.returncode == 2 and "exclude each other" in result.stderr


def test_admin_token_from_the_environment():
    with Served("--memory", env={"SANDBOX_ADMIN_TOKEN": "tok"}) as server:
        body = {"name": "S", "email": "s@s.co"}
        assert server.request("POST", "/sandbox/merchants", body)[0] == 401
        assert server.request("POST", "/sandbox/merchants", body, {"X-Sandbox-Admin-Token": "tok"})[0] == 201


def test_a_corrupt_data_file_is_reported_not_overwritten(tmp_path):
    data = tmp_path / "sandbox.json"
    data.write_text("{not json")
    result = run("serve", "--data", str(data), "--port", "1")
    assert result.returncode != 0 and "not a readable TinyDB file" in result.stderr
    assert data.read_text() == "{not json"
