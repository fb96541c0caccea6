"""The `gateway-sandbox` command (also `python -m sandbox`)."""

import json
import logging
import os
import sys
from pathlib import Path

import click
import marshmallow as ma
import yaml

from sandbox.store import Store, StoreCorrupted, StoreLocked, open_store

DEFAULT_DATA = os.path.join(".sandbox", "sandbox.json")
CONTRACTS = {"V2": "openapi.yaml", "SANDBOX": "sandbox-openapi.yaml"}


# A worker that gunicorn starts while the one it replaces is still leaving waits this long.
WORKER_LOCK_WAIT_SECONDS = 30


def _open(data: str | None, memory: bool, lock_timeout: float = 0) -> Store:
    try:
        return open_store(None if memory else data or DEFAULT_DATA, lock_timeout=lock_timeout)
    except (StoreCorrupted, StoreLocked) as error:
        raise click.ClickException(str(error)) from None


def _settings(store: Store, seed: int | None, admin_token: str | None = None):
    """The seed the store was created with (recorded on first use); another one is refused."""
    from sandbox.app import Settings
    from sandbox.services.settings import SeedMismatch, resolve_seed

    try:
        return Settings(seed=resolve_seed(store, seed), admin_token=admin_token)
    except SeedMismatch as error:
        raise click.ClickException(str(error)) from None


def _app(store: Store, settings):
    """The app over `store`, with its demo merchant; (app, demo merchant, created now)."""
    from sandbox.app import create_app
    from sandbox.services.merchants import ensure_demo_merchant

    app = create_app(store, settings)
    demo, created = ensure_demo_merchant(app.extensions["sandbox"])
    return app, demo, created


@click.group()
@click.version_option(package_name="gateway-sandbox")
def main():
    """Sandbox of the merchant crypto payment gateway API (v2)."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--data", type=click.Path(dir_okay=False), help=f"Data file [default: {DEFAULT_DATA}]")
@click.option("--memory", is_flag=True, help="Keep everything in memory; nothing is written.")
@click.option("--seed", type=click.IntRange(0), help="Seed of every generated value [default: 0, or the data file's]")
@click.option("--admin-token", envvar="SANDBOX_ADMIN_TOKEN", help="Required to create merchants (env SANDBOX_ADMIN_TOKEN)")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 64))
@click.option("--quiet", is_flag=True, help="No access log.")
@click.option("--public-url", help="How clients reach the sandbox, for links in webhooks [default: http://HOST:PORT]")
@click.option("--webhook-timeout", default=10.0, show_default=True, type=click.FloatRange(0.1, 120),
              help="Seconds a webhook receiver has to answer")
@click.option("--scenario", "scenario_file", type=click.Path(exists=True, dir_okay=False),
              help="Run this scenario into the store first (once per data file) and show its merchants")
def serve(host, port, data, memory, seed, admin_token, threads, quiet, public_url, webhook_timeout, scenario_file):
    """Serve the sandbox (gunicorn, one process, several threads)."""
    from sandbox.scenarios.format import ScenarioError
    from sandbox.scenarios.preload import preload
    from sandbox.server import SandboxServer

    if data and memory:
        raise click.UsageError("--data and --memory exclude each other")
    scenario = _load_scenarios([scenario_file])[0] if scenario_file else None
    # Check the data file, settle the seed and show the demo merchant here; the
    # server's worker then opens the store for itself.
    store = _open(data, memory)
    try:
        settings = _settings(store, seed, admin_token)
        reachable_host = "localhost" if host in ("0.0.0.0", "::", "") else host  # bound to all interfaces
        settings.public_url = public_url or f"http://{reachable_host}:{port}"
        settings.webhook_timeout = webhook_timeout
        app, demo, created = _app(store, settings)
        if scenario:
            click.echo(f"Preloading the scenario {scenario.name!r} ({scenario.path})")
        try:
            preloaded = preload(app, scenario, admin_token, click.echo) if scenario else []
        except ScenarioError as error:
            raise click.ClickException(f"preloading the scenario failed: {error}") from None
    finally:
        store.close()
    base = f"http://{host}:{port}"
    where = "memory" if memory else os.path.abspath(data or DEFAULT_DATA)
    click.echo(f"gateway-sandbox on {base}  (seed {settings.seed}, data {where})")
    click.echo(f"  API docs:     {base}/docs   (control API: {base}/sandbox/docs)")
    _show_merchant(f"{'Created the demo merchant' if created else 'Merchant'} #{demo['id']} ({demo['name']})", demo)
    for merchant in preloaded:
        _show_merchant(f"Scenario merchant {merchant['role']!r} #{merchant['id']} ({merchant['name']})", merchant)
    click.echo("Ctrl-C stops the server.")
    sys.stdout.flush()

    def worker_app():
        # A memory store starts empty again in the worker; the seed gives it the same
        # demo merchant, and the scenario the same merchants, keys and ids.
        app = _app(_open(data, memory, WORKER_LOCK_WAIT_SECONDS), settings)[0]
        if scenario:
            preload(app, scenario, admin_token)
        return app

    SandboxServer(worker_app, host=host, port=port, threads=threads, quiet=quiet).run()


def _show_merchant(title: str, merchant: dict) -> None:
    click.echo(f"  {title}:")
    click.echo(f"    API-KEY:    {merchant['apiKey']}")
    click.echo(f"    HMAC secret {merchant['hmacSecret']}")
    click.echo(f"    webhooks    {merchant['webhookSecret']}  (signs webhooks; rotate: POST /sandbox/webhooks/secret)")


@main.group()
def merchant():
    """Merchants in a data file (stop the server that uses the file first)."""


@merchant.command("create")
@click.option("--name", required=True)
@click.option("--email", required=True)
@click.option("--site-url", default="")
@click.option("--logo-url", default="")
@click.option("--webhook-url")
@click.option("--auto-approve-seconds", type=click.IntRange(0))
@click.option("--data", type=click.Path(dir_okay=False), help=f"Data file [default: {DEFAULT_DATA}]")
@click.option("--seed", type=click.IntRange(0))
def merchant_create(name, email, site_url, logo_url, webhook_url, auto_approve_seconds, data, seed):
    """Create a merchant and print its settings and credentials as JSON."""
    from sandbox.api.errors import first_message
    from sandbox.control.merchants import CreatedMerchantSchema, MerchantCreateSchema
    from sandbox.services.merchants import create_merchant

    try:
        settings = MerchantCreateSchema().load({
            "name": name, "email": email, "siteUrl": site_url, "logoUrl": logo_url, "webhookUrl": webhook_url,
            "autoApproveSeconds": auto_approve_seconds})
    except ma.ValidationError as error:
        raise click.BadParameter(first_message(error.messages)) from None
    from sandbox.app import create_app

    store = _open(data, False)
    try:
        created = create_merchant(create_app(store, _settings(store, seed)).extensions["sandbox"], settings)
    finally:
        store.close()
    click.echo(json.dumps(CreatedMerchantSchema().dump(created), indent=2))


@main.group()
def scenario():
    """Scenario files: set up, drive and check a sandbox."""


@scenario.command("run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--base-url", help="Run against this sandbox over HTTP [default: a fresh one in process per scenario]")
@click.option("--admin-token", envvar="SANDBOX_ADMIN_TOKEN", help="For a sandbox served with one (merchant creation)")
@click.option("--seed", type=click.IntRange(0), help="Seed of the in-process sandboxes [default: each file's, or 0]")
@click.option("--junit", type=click.Path(dir_okay=False), help="Write a JUnit XML report here")
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on standard error [default: when it is a terminal]")
def scenario_run(paths, base_url, admin_token, seed, junit, progress):
    """Run scenario files (directories: every .yaml, .yml and .json in them)."""
    from tqdm import tqdm

    from sandbox.scenarios.junit import report
    from sandbox.scenarios.runner import run

    if junit and not Path(junit).resolve().parent.is_dir():
        raise click.BadParameter(f"{Path(junit).parent} is not a directory", param_hint="--junit")
    if base_url and not base_url.startswith(("http://", "https://")):
        raise click.BadParameter("must start with http:// or https://", param_hint="--base-url")
    scenarios = _load_scenarios(paths)
    steps = sum(len(loaded.data["steps"]) for loaded in scenarios)
    results = []
    with tqdm(total=steps, unit="step", file=sys.stderr, leave=False, dynamic_ncols=True,
              disable=None if progress is None else not progress) as bar:
        def echo(line: str) -> None:
            bar.write(line, file=sys.stdout)

        for number, loaded in enumerate(scenarios, start=1):
            echo(f"[{number}/{len(scenarios)}] {loaded.name}  ({loaded.path})")
            result = run(loaded, _scenario_client(loaded, base_url, admin_token, seed), echo, bar.update)
            bar.update(len(loaded.data["steps"]) - len(result.steps))  # those a failure skipped
            results.append(result)
    passed = sum(result.passed for result in results)
    click.echo(f"\n{passed} passed, {len(results) - passed} failed")
    if junit:
        try:
            Path(junit).write_text(report(results), encoding="utf-8")
        except OSError as error:
            raise click.ClickException(f"cannot write the JUnit report {junit}: {error.strerror or error}") from None
    if passed != len(results):
        sys.exit(1)


def _load_scenarios(paths) -> list:
    """Every scenario file named (directories: their .yaml, .yml and .json files), all
    valid, or a message naming the first broken one: nothing runs then."""
    from sandbox.scenarios import format as scenario_format

    files = [str(f) for path in paths for f in
             (sorted(p for p in Path(path).rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
              if Path(path).is_dir() else [Path(path)])]
    try:
        scenarios = [scenario_format.load(file) for file in files]
    except scenario_format.ScenarioError as error:
        raise click.ClickException(str(error)) from None
    if not scenarios:
        raise click.ClickException("no scenario files found")
    return scenarios


def _scenario_client(loaded, base_url, admin_token, seed):
    """The client a scenario runs with: over HTTP, or in a sandbox of its own."""
    from sandbox.app import Settings, create_app
    from sandbox.client import GatewayClient

    if base_url:
        return GatewayClient(base_url, admin_token=admin_token)
    chosen = seed if seed is not None else loaded.data.get("seed", 0)
    return GatewayClient.in_process(create_app(Store(), Settings(seed=chosen)))


@main.group()
def state():
    """The whole store as one JSON file, to keep, share or load elsewhere (a data file in
    use by a running sandbox is refused: stop it first)."""


@state.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--data", type=click.Path(dir_okay=False, exists=True), help=f"Data file [default: {DEFAULT_DATA}]")
def state_export(file, data):
    """Write every record of the data file to FILE (`-`: standard output)."""
    from sandbox.store.portable import export_state

    store = _open(data or _existing(DEFAULT_DATA), False)
    try:
        text = json.dumps(export_state(store), ensure_ascii=False, indent=1)
    finally:
        store.close()
    try:
        with click.open_file(file, "w", encoding="utf-8", atomic=file != "-") as out:
            out.write(text + "\n")
    except OSError as error:
        raise click.ClickException(f"cannot write {file}: {error.strerror or error}") from None
    if file != "-":
        click.echo(f"exported {sum(len(v) for v in json.loads(text)['tables'].values())} records to {file}")


@state.command("import")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, allow_dash=True))
@click.option("--data", type=click.Path(dir_okay=False), help=f"Data file [default: {DEFAULT_DATA}]")
@click.option("--replace", is_flag=True, help="Overwrite a data file that already holds records")
def state_import(file, data, replace):
    """Load FILE (as `state export` writes it) into the data file, all or nothing."""
    from sandbox.store.portable import InvalidState, import_state

    try:
        with click.open_file(file, encoding="utf-8") as source:
            document = json.load(source)
    except (ValueError, OSError, RecursionError) as error:
        raise click.ClickException(f"{file}: not a state export: {error or 'nested too deeply'}") from None
    store = _open(data, False)
    try:
        count = import_state(store, document, replace=replace, check=_servable)
    except InvalidState as error:
        raise click.ClickException(f"{file}: {error}; nothing was imported") from None
    finally:
        store.close()
    click.echo(f"imported {count} records into {os.path.abspath(data or DEFAULT_DATA)}")


# What every merchant of an imported store must be able to answer.
SERVABLE_PATHS = ("/sandbox/merchants/me", "/sandbox/clock", "/sandbox/events", "/sandbox/webhooks/deliveries",
                  "/sandbox/snapshots", "/v2/payment", "/v2/withdrawal")


def _servable(scratch: Store) -> None:
    """Refuse records the sandbox could store but not serve (a wrong type inside a
    record): every merchant's main reads must answer, over the imported records."""
    from sandbox.app import Settings, create_app
    from sandbox.store.portable import InvalidState

    seed = (scratch.get("meta", "seed") or {}).get("value", 0)
    client = create_app(scratch, Settings(seed=seed if isinstance(seed, int) else 0)).test_client()
    logging.disable(logging.CRITICAL)  # the failures are the answer here, not something to log
    try:
        for number, merchant in enumerate(scratch.all("merchants")):
            for path in SERVABLE_PATHS:
                answer = client.get(path, headers={"API-KEY": str(merchant.get("apiKey"))})
                if answer.status_code >= 500 or answer.status_code == 401:
                    raise InvalidState(f"merchant #{merchant.get('id')} (tables/merchants/{number}): the sandbox "
                                       f"cannot serve it (GET {path} answers {answer.status_code})")
    finally:
        logging.disable(logging.NOTSET)


def _existing(path: str) -> str:
    if not os.path.exists(path):
        raise click.ClickException(f"no data file at {path} (give one with --data)")
    return path


@main.group()
def webhooks():
    """Webhooks on your machine."""


@webhooks.command("listen")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=9000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--secret", envvar="SANDBOX_WEBHOOK_SECRET", help="The merchant's webhookSecret: check every signature")
@click.option("--algorithm", type=click.Choice(["sha256", "sha512"]), default="sha256", show_default=True)
@click.option("--encoding", type=click.Choice(["hex", "base64"]), default="hex", show_default=True)
@click.option("--forward-to", help="Also POST each webhook (same body and X- headers) to this URL")
def webhooks_listen(host, port, secret, algorithm, encoding, forward_to):
    """Receive webhooks: check each signature, print each event, optionally forward it.

    Point the merchant at it: PATCH /sandbox/merchants/me {"webhookUrl": "http://127.0.0.1:9000/"}."""
    from sandbox.listener import serve as listen

    listen(host, port, secret, algorithm, encoding, forward_to)


@main.group()
def contract():
    """Check a gateway server (this sandbox, a staging gateway, another mock) against the /v2 contract."""


@contract.command("test")
@click.option("--base-url", required=True, help="The server's base URL (the part before /v2)")
@click.option("--api-key", envvar="GATEWAY_API_KEY", required=True, help="A merchant's API key (env GATEWAY_API_KEY)")
@click.option("--hmac-secret", envvar="GATEWAY_HMAC_SECRET", required=True,
              help="The merchant's HMAC secret (env GATEWAY_HMAC_SECRET)")
@click.option("--hmac-algorithm", type=click.Choice(["sha256", "sha512"]), default="sha256", show_default=True)
@click.option("--hmac-encoding", type=click.Choice(["hex", "base64"]), default="hex", show_default=True)
@click.option("--contract", "contract_file", type=click.Path(exists=True, dir_okay=False),
              help="OpenAPI contract [default: the /v2 contract of this version, contracts/openapi.yaml]")
@click.option("--max-examples", default=20, show_default=True, type=click.IntRange(1),
              help="Test cases per operation and phase")
@click.option("--seed", type=int, help="Seed of the generated data, to reproduce a run")
@click.option("--checks", default="all", show_default=True,
              help="Comma-separated schemathesis checks and the gateway's (see contracts/README.md)")
@click.option("--report", "reports", multiple=True, metavar="junit|har|vcr",
              help="Write these reports to --report-dir (comma-separated or repeated)")
@click.option("--report-dir", type=click.Path(file_okay=False), help="Where reports go [default: not kept]")
@click.option("--include", multiple=True, metavar="OPERATION", help='Only this operation, e.g. "GET /v2/payment"')
@click.option("--exclude", multiple=True, metavar="OPERATION", help="Leave this operation out")
@click.option("--rate-limit", metavar="N/s", help="At most this many requests, e.g. 10/s or 100/m")
@click.option("--phases", help="Comma-separated: examples, coverage, fuzzing, stateful [default: all]")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="Concurrent requests")
def contract_test(base_url, api_key, hmac_secret, hmac_algorithm, hmac_encoding, contract_file, max_examples, seed,
                  checks, reports, report_dir, include, exclude, rate_limit, phases, workers):
    """Generate requests from the contract, send them signed, and check every answer:
    the schema, the status codes, auth, and the gateway's own rules. Exit 0 only when
    no check fails; each failure comes with a curl command that reproduces it."""
    try:
        from contracts import harness
    except ImportError as error:
        raise click.ClickException(f"the contract harness needs schemathesis ({error}): "
                                   "pip install 'gateway-sandbox[contract]'") from None
    reports = tuple(sorted({fmt.strip() for value in reports for fmt in value.split(",") if fmt.strip()}))
    unknown = set(reports) - set(harness.REPORT_FORMATS)
    if unknown:
        raise click.BadParameter(f"{', '.join(sorted(unknown))}: not one of {', '.join(harness.REPORT_FORMATS)}",
                                 param_hint="--report")
    if reports and not report_dir:
        raise click.UsageError("--report needs --report-dir")
    if not base_url.startswith(("http://", "https://")):
        raise click.BadParameter("must start with http:// or https://", param_hint="--base-url")
    sys.exit(harness.run(harness.Options(
        base_url=base_url, api_key=api_key, hmac_secret=hmac_secret, hmac_algorithm=hmac_algorithm,
        hmac_encoding=hmac_encoding, contract=contract_file, max_examples=max_examples, seed=seed, checks=checks,
        reports=reports, report_dir=report_dir, include=include, exclude=exclude, rate_limit=rate_limit,
        phases=phases, workers=workers), click.echo))


@main.command()
@click.option("--upstream", required=True, help="The gateway to forward to (staging, or a served sandbox)")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8080, show_default=True, type=click.IntRange(1, 65535))
@click.option("--contract", "contract_file", type=click.Path(exists=True, dir_okay=False),
              help="OpenAPI contract [default: the /v2 contract of this version]")
def proxy(upstream, host, port, contract_file):
    """Forward every request unchanged to --upstream and check each request and answer
    against the contract: violations are logged (operation, side and JSON path, rule)
    and counted in an X-Contract-Violations header on the answer."""
    try:
        from contracts import harness
        from contracts import proxy as validating_proxy
    except ImportError as error:
        raise click.ClickException(f"the proxy needs the contract extras ({error}): "
                                   "pip install 'gateway-sandbox[contract]'") from None
    if not upstream.startswith(("http://", "https://")):
        raise click.BadParameter("must start with http:// or https://", param_hint="--upstream")
    click.echo(f"Contract proxy on http://{host}:{port} -> {upstream}  (violations are logged here)")
    sys.stdout.flush()
    try:
        validating_proxy.serve(upstream, contract_file or harness.shipped("openapi.yaml"), host, port,
                               lambda violation: click.echo(f"contract violation: {violation}"))
    except OSError as error:
        raise click.ClickException(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    except KeyboardInterrupt:
        click.echo("stopped")


@main.command()
@click.option("--out-dir", default="contracts", show_default=True, type=click.Path(file_okay=False))
@click.option("--check", is_flag=True, help="Exit 1 when the committed contracts differ from the code.")
def openapi(out_dir, check):
    """Write the OpenAPI contracts (/v2 and /sandbox) generated from the code."""
    stale = []
    for name, text in contract_texts().items():
        path = Path(out_dir) / name
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            click.echo(f"wrote {path}")
    if stale:
        raise click.ClickException(f"out of date: {', '.join(stale)} (run `gateway-sandbox openapi`)")


def contract_texts() -> dict[str, str]:
    """The YAML of each contract, as `gateway-sandbox openapi` writes it."""
    from sandbox.app import create_app

    apis = create_app(Store()).extensions["flask-smorest"]["apis"]
    return {filename: yaml.safe_dump(apis[prefix + "_"]["ext_obj"].spec.to_dict(), sort_keys=False,
                                     allow_unicode=True)
            for prefix, filename in CONTRACTS.items()}
