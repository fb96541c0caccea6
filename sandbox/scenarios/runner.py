"""Running scenarios: each against a sandbox of its own (in process) or with merchants
of its own (over HTTP), step by step, through the public client."""

import http.client
import json
import re
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Callable

from sandbox.client import GatewayClient, Response
from sandbox.scenarios.format import Scenario, ScenarioError

_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\}")
_MISSING = object()
_PREVIOUS = " previous answer"  # never a valid `as` name

# action -> (HTTP method, path, where the step's value goes, signed); a path may take the value itself
ACTIONS: dict[str, tuple[str, Callable[[object], str], str, bool]] = {
    "deposit_addresses": ("POST", lambda v: "/v2/deposit-addresses/create", "body", True),
    "withdrawal": ("POST", lambda v: "/v2/withdrawal", "body", True),
    "network_fee": ("GET", lambda v: "/v2/network-fee", "query", False),
    "list_payments": ("GET", lambda v: "/v2/payment", "query", False),
    "list_withdrawals": ("GET", lambda v: "/v2/withdrawal", "query", False),
    "wallet_info": ("GET", lambda v: "/v2/merchants/wallets/info", "query", False),
    "get_payment": ("GET", lambda v: f"/v2/payment/{_segment(v)}", "none", False),
    "payment": ("POST", lambda v: "/sandbox/payments", "body", False),
    "deposit": ("POST", lambda v: "/sandbox/transactions", "body", False),
    "settings": ("PATCH", lambda v: "/sandbox/merchants/me", "body", False),
    "set_clock": ("PUT", lambda v: "/sandbox/clock", "body", False),
    "advance": ("POST", lambda v: "/sandbox/clock/advance", "seconds", False),
    "approve": ("POST", lambda v: f"/sandbox/withdrawals/{_segment(v)}/approve", "none", False),
    "cancel": ("POST", lambda v: f"/sandbox/withdrawals/{_segment(v)}/cancel", "none", False),
    "events": ("GET", lambda v: "/sandbox/events", "query", False),
    "deliveries": ("GET", lambda v: "/sandbox/webhooks/deliveries", "query", False),
    "dispatch_webhooks": ("POST", lambda v: "/sandbox/webhooks/dispatch", "none", False),
    "snapshot": ("POST", lambda v: "/sandbox/snapshots", "none", False),
    "restore": ("POST", lambda v: f"/sandbox/snapshots/{_segment(v)}/restore", "none", False),
    "fault": ("POST", lambda v: "/sandbox/faults", "body", False),
    "clear_faults": ("DELETE", lambda v: "/sandbox/faults", "none", False),
}


def _segment(value) -> str:
    """A step's value as one path segment."""
    return urllib.parse.quote(str(value), safe="")


@dataclass
class StepResult:
    number: int
    action: str
    where: str
    passed: bool
    problems: list[str] = field(default_factory=list)


@dataclass
class ScenarioResult:
    scenario: Scenario
    steps: list[StepResult] = field(default_factory=list)
    error: str | None = None  # what stopped the run before its end
    seconds: float = 0.0
    merchants: dict[str, dict] = field(default_factory=dict)  # name -> settings and credentials, as created

    @property
    def passed(self) -> bool:
        return self.error is None and all(step.passed for step in self.steps)


def run(scenario: Scenario, client: GatewayClient, report: Callable[[str], None] = print,
        stepped: Callable[[], None] = lambda: None) -> ScenarioResult:
    """Create the scenario's merchants, then run its steps (calling `stepped` after
    each); stop at the first failure (later steps usually build on earlier ones)."""
    result = ScenarioResult(scenario)
    started = time.monotonic()
    try:
        merchants = _create_merchants(scenario, client, result.merchants)
        names: dict[str, object] = {}
        for number, step in enumerate(scenario.data["steps"], start=1):
            outcome = _run_step(scenario, number, step, merchants, names)
            result.steps.append(outcome)
            stepped()
            report(_line(outcome))
            for problem in outcome.problems:
                report(f"        {problem}")
            if not outcome.passed:
                break
    except ScenarioError as error:
        result.error = str(error)
        report(f"  error {error}")
    except (OSError, http.client.HTTPException, ValueError) as error:  # URLError and timeouts are OSErrors
        result.error = f"cannot reach the sandbox: {getattr(error, 'reason', None) or error!r}"
        report(f"  error {result.error}")
    result.seconds = time.monotonic() - started
    return result


def _line(outcome: StepResult) -> str:
    mark = "ok  " if outcome.passed else "FAIL"
    return f"  {mark} {outcome.number:>3}  {outcome.action:<18} {outcome.where}"


def _create_merchants(scenario: Scenario, client: GatewayClient, created: dict) -> dict[str, GatewayClient]:
    """Each merchant of the scenario, new, so runs against a shared sandbox never collide
    (recorded in `created`); their clocks frozen unless a merchant says `frozen: false`."""
    merchants = {}
    for name, settings in (scenario.data.get("merchants") or {"shop": {}}).items():
        settings = dict(settings)
        frozen = settings.pop("frozen", True)
        body = {"name": _printable(f"{scenario.name} / {name}")[:255] or "scenario",
                "email": f"{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-') or 'shop'}@scenario.example",
                **settings}
        answer = client.create_merchant(**body)
        if answer.status != 201:
            raise ScenarioError(f"{scenario.where('merchants', name)}: creating merchant {name!r} failed: "
                                f"{answer.status} {answer.text[:200]}")
        created[name] = answer.json
        merchants[name] = client.as_merchant(answer.json)
        if frozen:
            merchants[name].set_clock(frozen=True)
    return merchants


def _printable(text: str) -> str:
    return "".join(character if character.isprintable() else " " for character in text).strip()


def _run_step(scenario: Scenario, number: int, step: dict, merchants: dict, names: dict) -> StepResult:
    """One step; a step with only `expect` checks the answer of the step before it."""
    index = number - 1
    action = next((key for key in step if key in ACTIONS or key == "request"), "expect")
    where = scenario.where("steps", index)
    merchant_name = step.get("merchant", next(iter(merchants)))
    if merchant_name not in merchants:
        raise ScenarioError(f"{where}: no merchant named {merchant_name!r}")
    if action == "expect":
        if _PREVIOUS not in names:
            raise ScenarioError(f"{where}: an expect step needs a step before it to check")
        answer = names[_PREVIOUS]
    else:
        answer = _call(merchants[merchant_name], action, _resolve(step[action], names, scenario,
                                                                  ("steps", index, action)))
    names[_PREVIOUS] = answer
    body = answer.json
    if step.get("as"):
        names[step["as"]] = body["data"] if isinstance(body, dict) and set(body) == {"data"} else body
    problems = _check(answer, _resolve(step.get("expect") or {}, names, scenario, ("steps", index, "expect")))
    return StepResult(number, action + (f" ({step['as']})" if step.get("as") else ""), where, not problems, problems)


def _call(client: GatewayClient, action: str, value) -> Response:
    if action == "request":
        return client.request(value["method"], value["path"], value.get("body"), query=value.get("query"),
                              signed=value.get("signed", value["method"] == "POST"))
    method, path, place, signed = ACTIONS[action]
    if place == "body":
        return client.request(method, path(value), value, signed=signed)
    if place == "query":
        return client.request(method, path(value), query=value)
    if place == "seconds":
        return client.request(method, path(value), {"seconds": value})
    return client.request(method, path(value))


def _check(answer: Response, expect: dict) -> list[str]:
    """What differs from the expectations; a step without an expected status must succeed."""
    problems = []
    wanted_status = expect.get("status")
    if wanted_status is None and answer.status >= 400:
        problems.append(f"status: expected success, got {answer.status} {answer.text[:300]}")
    elif wanted_status is not None and answer.status != wanted_status:
        problems.append(f"status: expected {wanted_status}, got {answer.status} {answer.text[:300]}")
    for path, expected in (expect.get("body") or {}).items():
        actual = _lookup(answer.json, path)
        if actual is _MISSING:
            problems.append(f"{path}: expected {expected!r}, but there is no such field")
        elif not _same(actual, expected):
            problems.append(f"{path}: expected {expected!r}, got {actual!r}")
    for path, pattern in (expect.get("match") or {}).items():
        actual = _lookup(answer.json, path)
        if actual is _MISSING:
            problems.append(f"{path}: expected to match {pattern!r}, but there is no such field")
        elif not re.fullmatch(str(pattern), actual if isinstance(actual, str) else json.dumps(actual)):
            problems.append(f"{path}: expected to match {pattern!r}, got {actual!r}")
    for path, expected in (expect.get("count") or {}).items():
        actual = _lookup(answer.json, path)
        if actual is _MISSING:
            problems.append(f"{path}: expected {expected} items, but there is no such field")
        elif not isinstance(actual, (list, dict)):
            problems.append(f"{path}: expected {expected} items, got {actual!r}")
        elif len(actual) != expected:
            problems.append(f"{path}: expected {expected} items, got {len(actual)}")
    return problems


def _same(actual, expected) -> bool:
    """JSON equality: true is not 1, 0 is not false; 1 and 1.0 are the same number."""
    if isinstance(actual, bool) or isinstance(expected, bool):
        return type(actual) is type(expected) and actual == expected
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(_same(actual[k], expected[k]) for k in actual)
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(_same(a, e) for a, e in zip(actual, expected))
    return actual == expected


def _lookup(value, path: str):
    for part in path.split(".") if path else []:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.lstrip("-").isdigit() and -len(value) <= int(part) < len(value):
            value = value[int(part)]
        else:
            return _MISSING
    return value


def _resolve(value, names: dict, scenario: Scenario, path: tuple):
    """`${name.path}` references replaced by what they point at: a string that is only
    a reference takes the value's own type."""
    if isinstance(value, dict):
        return {key: _resolve(item, names, scenario, (*path, key)) for key, item in value.items()}
    if isinstance(value, list):
        return [_resolve(item, names, scenario, (*path, n)) for n, item in enumerate(value)]
    if not isinstance(value, str) or "${" not in value:
        return value

    def look(match: re.Match):
        name, dotted = match.group(1), match.group(2).lstrip(".")
        if name not in names:
            raise ScenarioError(f"{scenario.where(*path)}: ${{{name}}} names no earlier step (known: "
                                f"{', '.join(names) or 'none'})")
        found = _lookup(names[name], dotted)
        if found is _MISSING:
            raise ScenarioError(f"{scenario.where(*path)}: {match.group(0)}: {name} has no {dotted!r}")
        return found

    whole = _REFERENCE.fullmatch(value)
    if whole:
        return look(whole)
    return _REFERENCE.sub(lambda match: str(look(match)), value)
