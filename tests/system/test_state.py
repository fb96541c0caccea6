"""`gateway-sandbox state export|import`: the whole store as one JSON file and back."""

import json

import pytest

from sandbox.app import Settings, create_app
from sandbox.client import GatewayClient
from sandbox.store import open_store
from sandbox.store.portable import InvalidState, import_state
from sandbox.store.schema import SESSION_SECRET, TABLES
from tests.system.test_cli import run

pytestmark = pytest.mark.slow


def populated(path: str) -> dict:
    """A data file with a merchant, a payment with a deposit, a withdrawal and a snapshot;
    every record that travels in an export."""
    store = open_store(path)
    try:
        gateway = GatewayClient.in_process(create_app(store, Settings(seed=3)))
        shop = gateway.as_merchant(gateway.create_merchant(name="Shop", email="s@s.co").json)
        payment = shop.create_payment(amount="10", assetShort="USDT", assetNetwork="tron", clientId="c1").json["data"]
        shop.deposit(assetNetwork="tron", assetShort="USDT", addressTo=payment["addressTo"], amount="10",
                     confirmations=50)
        shop.snapshot()
    finally:
        store.close()
    return records(path)


def records(path: str) -> dict:
    """Every record that travels in an export (a store's own session key does not)."""
    store = open_store(path)
    try:
        return {table: [r for r in store.all(table) if not (table == "meta" and r["name"] == SESSION_SECRET)]
                for table in TABLES}
    finally:
        store.close()


def test_export_then_import_gives_the_same_store(tmp_path):
    source, exported, target = str(tmp_path / "a.json"), str(tmp_path / "state.json"), str(tmp_path / "b.json")
    before = populated(source)
    result = run("state", "export", exported, "--data", source)
    assert result.returncode == 0, result.stderr
    document = json.loads((tmp_path / "state.json").read_text())
    assert document["format"] == "gateway-sandbox-state" and document["tables"]["payments"]
    assert SESSION_SECRET not in {record["name"] for record in document["tables"]["meta"]}
    result = run("state", "import", exported, "--data", target)
    assert result.returncode == 0, result.stderr
    assert f"imported {sum(map(len, before.values()))} records" in result.stdout
    assert records(target) == before


def test_import_refuses_a_store_with_data_unless_told_to_replace(tmp_path):
    source, exported = str(tmp_path / "a.json"), str(tmp_path / "state.json")
    before = populated(source)
    run("state", "export", exported, "--data", source)
    refused = run("state", "import", exported, "--data", source)
    assert refused.returncode == 1 and "already holds data (use --replace" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert run("state", "import", exported, "--data", source, "--replace").returncode == 0
    assert records(source) == before


@pytest.mark.parametrize("text, message", [
    ("{not json", "not a state export"),
    ('{"format": "other", "version": 1, "tables": {}}', "format: 'gateway-sandbox-state' was expected"),
    ('{"format": "gateway-sandbox-state", "version": 1, "tables": {"payments": [{"id": "p"}]}}',
     "tables/payments/0: a record without the field"),
])
def test_a_bad_file_is_refused_by_name_and_nothing_is_imported(tmp_path, text, message):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    result = run("state", "import", str(bad), "--data", str(tmp_path / "target.json"))
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_a_half_good_document_changes_nothing():
    store = open_store(None)
    with store.transaction():
        store.put("meta", {"name": "seed", "value": 1})
    good = {"id": "w", "merchantId": 1, "seq": 0}
    with pytest.raises(InvalidState, match="tables/withdrawals/1"):
        import_state(store, {"format": "gateway-sandbox-state", "version": 1,
                             "tables": {"withdrawals": [good, {**good, "id": "v", "seq": "late"}]}}, replace=True)
    assert store.all("withdrawals") == [] and store.all("meta") == [{"name": "seed", "value": 1}]


def test_the_state_schema_names_every_table():
    from sandbox.store.portable import schema

    assert schema()["properties"]["tables"]["propertyNames"]["enum"] == list(TABLES)


@pytest.mark.parametrize("spoil, message", [
    (lambda tables: tables["merchants"][0].update(amlThreshold="abc"), "the sandbox cannot serve it"),
    (lambda tables: tables["clocks"].append({"merchantId": 1, "offsetMicroseconds": "zzz", "frozenAt": None}),
     "the sandbox cannot serve it"),
    (lambda tables: tables["merchants"].append(dict(tables["merchants"][0])), "a second record with the key '1'"),
])
def test_records_the_sandbox_could_not_serve_are_refused(tmp_path, spoil, message):
    source, exported = str(tmp_path / "a.json"), tmp_path / "state.json"
    populated(source)
    run("state", "export", str(exported), "--data", source)
    document = json.loads(exported.read_text())
    spoil(document["tables"])
    exported.write_text(json.dumps(document))
    target = str(tmp_path / "b.json")
    result = run("state", "import", str(exported), "--data", target)
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr
    assert all(not records for records in records(target).values())
