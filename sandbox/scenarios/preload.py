"""`gateway-sandbox serve --scenario FILE`: a scenario run once into the store before
serving, so that a merchant's integration starts against known data.

The store remembers which scenario it holds (a `meta` record), so a data file is not
preloaded twice: later starts only show the merchants again. A memory store starts
empty in every process, and the seed makes each run of the scenario give the same
merchants, keys and ids.
"""

from sandbox.client import GatewayClient
from sandbox.scenarios.format import Scenario, ScenarioError
from sandbox.scenarios.runner import run
from sandbox.store.portable import export_state, import_state


def preload(app, scenario: Scenario, admin_token: str | None = None, report=lambda line: None) -> list[dict]:
    """The scenario's merchants (each with its scenario `role` name), the scenario run
    into `app`'s store unless it already holds it; a ScenarioError when a step fails,
    and then the store is as it was. The server's seed applies, not the file's."""
    store = app.extensions["sandbox"].store
    marker = f"scenario:{scenario.name}"
    if store.get("meta", marker) is None:
        before = export_state(store)
        result = run(scenario, GatewayClient.in_process(app, admin_token=admin_token), report)
        if not result.passed:
            import_state(store, before, replace=True)  # a failed set-up leaves nothing behind
            failed = next((step for step in result.steps if not step.passed), None)
            raise ScenarioError(result.error or f"{failed.where}: step {failed.number} failed: "
                                                f"{'; '.join(failed.problems)}")
        with store.transaction():
            store.put("meta", {"name": marker, "merchants": {name: m["id"] for name, m in result.merchants.items()}})
    return [{"role": name, **store.get("merchants", str(merchant_id))}
            for name, merchant_id in store.get("meta", marker)["merchants"].items()]
