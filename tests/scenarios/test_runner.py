"""The scenario runner: file errors with file and line, references, expectations that
must fail do fail, JUnit output, and the shipped library in process and over HTTP."""

import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
import xmlschema

from sandbox.app import Settings, create_app
from sandbox.client import GatewayClient
from sandbox.scenarios.format import ScenarioError, load
from sandbox.scenarios.junit import report
from sandbox.scenarios.runner import run
from sandbox.store import Store
from tests.system.serving import Served

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = sorted((ROOT / "scenarios").glob("*.yaml"))
JUNIT_SCHEMA = xmlschema.XMLSchema(str(Path(__file__).parents[1] / "junit.xsd"))


def write(tmp_path, text: str) -> str:
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    return str(path)


def run_file(path: str, lines: list | None = None):
    loaded = load(path)
    client = GatewayClient.in_process(create_app(Store(), Settings(seed=loaded.data.get("seed", 0), check_responses=True)))
    return run(loaded, client, (lines if lines is not None else []).append)


@pytest.mark.parametrize("path", LIBRARY, ids=[p.name for p in LIBRARY])
def test_the_library_passes_in_process(path):
    result = run_file(str(path))
    assert result.passed, [step.problems for step in result.steps] or result.error


@pytest.mark.slow
def test_the_library_passes_against_a_served_sandbox(tmp_path):
    with Served("--memory") as server:
        junit = tmp_path / "report.xml"
        done = subprocess.run([sys.executable, "-m", "sandbox", "scenario", "run", "scenarios",
                               "--base-url", server.base_url, "--junit", str(junit)],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(LIBRARY)} passed, 0 failed" in done.stdout
    JUNIT_SCHEMA.validate(str(junit))
    suite = ElementTree.parse(junit).getroot()
    assert suite.get("tests") == str(len(LIBRARY)) and suite.get("failures") == "0"


@pytest.mark.slow
def test_the_cli_runs_the_library_in_process_with_a_progress_bar_when_asked():
    done = subprocess.run([sys.executable, "-m", "sandbox", "scenario", "run", "scenarios/", "--progress"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(LIBRARY)} passed, 0 failed" in done.stdout
    steps = sum(len(load(str(path)).data["steps"]) for path in LIBRARY)
    assert f"{steps}/{steps}" in done.stderr  # the bar, on standard error, reached the end
    assert "step" not in done.stdout.split("\n")[0]  # and never mixed into the step lines


@pytest.mark.parametrize("text, where, what", [
    ("name: x\nsteps:\n  - advance: -1\n", 3, "less than the minimum"),
    ("name: x\nsteps:\n  - payment: {}\n  - fly: true\n", 4, "fly"),
    ("name: x\nsteps: []\n", 2, "should be non-empty"),
    ("steps:\n  - advance: 1\n", 1, "'name' is a required property"),
    ("name: x\nsteps: [\n", 3, "not valid YAML"),
    ("name: x\nname: y\nsteps:\n  - advance: 1\n", 2, "'name' appears twice"),
    ("name: x\nsteps:\n  - advance: 1\n  - note: nothing to do\n", 4, "a step needs exactly one action, found none"),
    ("name: x\nsteps:\n  - advance: 1\n    cancel: w\n", 3, "found advance, cancel"),
])
def test_a_malformed_file_names_file_line_and_rule(tmp_path, text, where, what):
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as failure:
        load(path)
    assert str(failure.value).startswith(f"{path}:{where}:") and what in str(failure.value)


def test_a_wrong_expectation_fails_with_a_diff_naming_file_and_line(tmp_path):
    path = write(tmp_path, """name: wrong
steps:
  - payment: {amount: "10", assetShort: USDT, assetNetwork: tron}
    as: p
  - get_payment: "${p.id}"
    expect:
      body: {data.displayStatus: COMPLETED}
  - advance: 1
""")
    lines = []
    result = run_file(path, lines)
    assert not result.passed and len(result.steps) == 2  # stops at the failure
    assert f"  FAIL   2  get_payment        {path}:5" in lines
    assert "data.displayStatus: expected 'COMPLETED', got 'NEW'" in " ".join(lines)


def test_an_unexpected_error_answer_fails_the_step(tmp_path):
    result = run_file(write(tmp_path, "name: x\nsteps:\n  - get_payment: nope\n"))
    assert not result.passed and "expected success, got 400" in result.steps[0].problems[0]


def test_an_unknown_reference_is_a_clear_error(tmp_path):
    result = run_file(write(tmp_path, "name: x\nsteps:\n  - get_payment: ${nobody.id}\n"))
    assert result.error == f"{tmp_path / 'scenario.yaml'}:3: ${{nobody}} names no earlier step (known: none)"


def test_counts_and_list_paths(tmp_path):
    result = run_file(write(tmp_path, """name: counts
steps:
  - deposit_addresses: {assetNetwork: tron, assetShort: USDT, number: 2}
    expect: {count: {addresses: 2}, body: {addresses.-1.symbol: USDT, success: true}}
  - deposit_addresses: {assetNetwork: tron, assetShort: USDT, number: 2}
    expect: {count: {addresses: 3}}
"""))
    assert [step.passed for step in result.steps] == [True, False]
    assert result.steps[1].problems == ["addresses: expected 3 items, got 2"]


def test_junit_report_shape(tmp_path):
    good = run_file(str(LIBRARY[0]))
    bad = run_file(write(tmp_path, "name: bad\nsteps:\n  - get_payment: nope\n"))
    text = report([good, bad])
    JUNIT_SCHEMA.validate(text)
    root = ElementTree.fromstring(text)
    (suite,) = root.findall("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "0")
    cases = suite.findall("testcase")
    assert cases[0].find("failure") is None and "step 1 get_payment" in cases[1].find("failure").get("message")


def test_the_cli_refuses_a_broken_file_before_running_anything(tmp_path):
    broken = write(tmp_path, "name: x\nsteps:\n  - advance: -1\n")
    done = subprocess.run([sys.executable, "-m", "sandbox", "scenario", "run", str(LIBRARY[0]), broken],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and f"{broken}:3" in done.stderr and "[1/" not in done.stdout
    assert "Traceback" not in done.stderr


def test_an_unreachable_base_url_is_a_clear_message():
    done = subprocess.run([sys.executable, "-m", "sandbox", "scenario", "run", str(LIBRARY[0]),
                           "--base-url", "http://127.0.0.1:9"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "cannot reach the sandbox" in done.stdout and "Traceback" not in done.stderr


def test_junit_of_a_run_stopped_by_an_error_is_valid(tmp_path):
    stopped = run_file(write(tmp_path, "name: x\nsteps:\n  - get_payment: ${nobody.id}\n"))
    text = report([stopped])
    JUNIT_SCHEMA.validate(text)
    assert ElementTree.fromstring(text).find("testsuite/testcase/error").get("message").endswith("(known: none)")


def test_snapshot_and_restore_steps(tmp_path):
    result = run_file(write(tmp_path, """name: snapshots
steps:
  - snapshot: {}
    as: empty
  - payment: {amount: "10", assetShort: USDT, assetNetwork: tron}
  - list_payments: {}
    expect: {body: {total: 1}}
  - restore: "${empty.id}"
    expect: {body: {records: "${empty.records}"}}
  - list_payments: {}
    expect: {body: {total: 0}}
"""))
    assert result.passed, [step.problems for step in result.steps]


def test_the_step_schema_offers_exactly_the_runners_actions():
    from sandbox.scenarios.format import schema
    from sandbox.scenarios.runner import ACTIONS

    step = schema()["$defs"]["step"]
    offered = {one["required"][0] for one in step["oneOf"]}
    assert offered == {*ACTIONS, "request", "expect"}  # expect alone checks the step before
    assert offered <= set(step["properties"])


def test_the_merchant_schema_offers_exactly_the_merchant_settings():
    from sandbox.control.merchants import MerchantCreateSchema
    from sandbox.scenarios.format import schema

    assert set(schema()["$defs"]["merchant"]["properties"]) == {*MerchantCreateSchema().fields, "frozen"}


def test_a_misspelt_merchant_setting_is_refused_at_load(tmp_path):
    path = write(tmp_path, "name: x\nmerchants:\n  shop:\n    feePercnt: '2'\nsteps:\n  - advance: 1\n")
    with pytest.raises(ScenarioError, match="feePercnt"):
        load(path)


def test_merchant_settings_of_a_scenario_reach_the_sandbox(tmp_path):
    result = run_file(write(tmp_path, """name: settings
merchants:
  shop: {feePercent: "2.5", fixedFeeUsd: "0", amlThreshold: 40, prices: {TRX: "0.5"}, autoApproveSeconds: 60}
steps:
  - request: {method: GET, path: /sandbox/merchants/me}
    expect: {body: {feePercent: "2.5", amlThreshold: 40, prices.TRX: "0.5", autoApproveSeconds: 60}}
  - payment: {amount: "100", assetShort: USDT, assetNetwork: tron}
    as: p
  - deposit: {assetNetwork: tron, assetShort: USDT, addressTo: "${p.addressTo}", amount: "100", riskScore: 50,
              confirmations: 30}
  - get_payment: "${p.id}"
    expect: {body: {data.displayStatus: AML_CHECK_DANGER, data.transactions.0.percentFee: "2.5", data.transactions.0.fixedFee: "0"}}
"""))
    assert result.passed, [step.problems for step in result.steps]


@pytest.mark.slow
def test_serve_preloads_a_scenario_and_shows_its_merchants(tmp_path):
    data = str(tmp_path / "sandbox.json")
    scenario = str(ROOT / "scenarios" / "payment-statuses.yaml")
    payments = sum("payment" in step for step in load(scenario).data["steps"])
    with Served("--data", data, "--scenario", scenario) as server:
        assert "Scenario merchant 'shop' #2" in server.banner and "ok     1  payment" in server.banner
        shop = server.merchants[1]
        status, body = server.request("GET", "/v2/payment?limit=100", headers={"API-KEY": shop["apiKey"]})
        assert status == 200 and body["total"] == payments
    with Served("--data", data, "--scenario", scenario) as again:  # once per data file
        assert again.merchants == server.merchants and "ok     1" not in again.banner
        status, body = again.request("GET", "/sandbox/merchants/me", headers={"API-KEY": shop["apiKey"]})
        assert status == 200 and body["id"] == 2
    with Served("--memory", "--scenario", scenario) as memory:  # the worker's own store has the same data
        shop = memory.merchants[1]
        status, body = memory.request("GET", "/v2/payment?limit=100", headers={"API-KEY": shop["apiKey"]})
        assert status == 200 and body["total"] == payments


def test_serve_refuses_a_scenario_that_fails_and_leaves_the_data_file_as_it_was(tmp_path):
    failing = write(tmp_path, "name: x\nsteps:\n  - payment: {amount: '1', assetShort: USDT, assetNetwork: tron}\n"
                              "  - get_payment: nope\n")
    data = str(tmp_path / "sandbox.json")
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "sandbox", "serve", "--data", data, "--port", "1",
                               "--scenario", failing], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and "preloading the scenario failed" in done.stderr
        assert f"{failing}:4: step 2 failed" in done.stderr and "Traceback" not in done.stderr
    from sandbox.store import open_store

    store = open_store(data)
    try:
        assert [m["id"] for m in store.all("merchants")] == [1] and store.all("payments") == []
    finally:
        store.close()


def test_expectations_compare_as_json_and_an_expect_step_checks_the_step_before(tmp_path):
    result = run_file(write(tmp_path, """name: strict
steps:
  - request: {method: GET, path: /sandbox/clock}
  - expect: {body: {frozen: true}, match: {frozen: "true"}}
  - expect: {body: {frozen: 1}}
"""))
    assert [step.passed for step in result.steps] == [True, True, False]
    assert result.steps[2].problems == ["frozen: expected 1, got True"]


def test_a_path_with_a_space_behaves_the_same_in_process_and_over_http(tmp_path):
    path = write(tmp_path, "name: x\nsteps:\n  - request: {method: GET, path: /v2/payment dd}\n"
                           "    expect: {status: 404}\n")
    assert run_file(path).passed
    with Served("--memory") as server:
        assert run(load(path), GatewayClient(server.base_url), [].append).passed


def test_junit_survives_control_characters_in_names(tmp_path):
    result = run_file(write(tmp_path, 'name: "bell \\a here"\nmerchants:\n  "a b": {}\nsteps:\n  - advance: 1\n'))
    assert result.passed, result.error or [step.problems for step in result.steps]
    JUNIT_SCHEMA.validate(report([result]))
