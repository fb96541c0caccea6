"""`gateway-sandbox contract test`: does a server conform to the /v2 contract?

schemathesis does the generating and checking (its CLI, run as a child process so
that its reports, replays and reproducible curl commands are all there); this module
gives it the gateway's auth (API-KEY, and X-HMAC over the exact bytes sent, through
contracts/hooks.py), the contract with its OpenAPI links for the stateful phase, the
gateway's domain checks (contracts/checks.py) and a per-operation summary.
"""

import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

DEFAULT_MAX_EXAMPLES = 20
REPORT_FORMATS = ("junit", "har", "vcr")


@dataclass
class Options:
    base_url: str
    api_key: str
    hmac_secret: str
    hmac_algorithm: str = "sha256"
    hmac_encoding: str = "hex"
    contract: str | None = None  # default: the contract this version ships
    max_examples: int = DEFAULT_MAX_EXAMPLES
    seed: int | None = None
    checks: str = "all"
    reports: tuple[str, ...] = ()
    report_dir: str | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    rate_limit: str | None = None
    phases: str | None = None
    workers: int = 1
    extra: list[str] = field(default_factory=list)  # more schemathesis options, as given


HERE = Path(__file__).resolve().parent


def shipped(name: str) -> str:
    """A file of the contracts package (the /v2 contract, the schemathesis settings)."""
    return str(HERE / name)


def command(options: Options, report_dir: str) -> tuple[list[str], dict[str, str]]:
    """The schemathesis command line and environment for `options`."""
    formats = sorted({"junit", *options.reports})
    argv = [sys.executable, "-m", "schemathesis.cli", "--config-file", shipped("schemathesis.toml"), "run",
            options.contract or shipped("openapi.yaml"), "--url", options.base_url.rstrip("/"),
            "--max-examples", str(options.max_examples), "--checks", options.checks,
            "--report", ",".join(formats), "--report-dir", report_dir,
            "--report-junit-path", str(Path(report_dir) / "junit.xml"), "--workers", str(options.workers)]
    if options.seed is not None:
        argv += ["--seed", str(options.seed)]
    for name in options.include:
        argv += ["--include-name", name]
    for name in options.exclude:
        argv += ["--exclude-name", name]
    if options.rate_limit:
        argv += ["--rate-limit", options.rate_limit]
    if options.phases:
        argv += ["--phases", options.phases]
    argv += options.extra
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "contracts.hooks", "GATEWAY_API_KEY": options.api_key,
           "GATEWAY_HMAC_SECRET": options.hmac_secret, "GATEWAY_HMAC_ALGORITHM": options.hmac_algorithm,
           "GATEWAY_HMAC_ENCODING": options.hmac_encoding,
           # these very hooks, whatever the working directory holds
           "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE.parent), os.environ.get("PYTHONPATH")]))}
    return argv, env


def run(options: Options, echo=print) -> int:
    """Run schemathesis (its output streams through), then print a per-operation
    summary; schemathesis' exit code (0 only when no check failed)."""
    with tempfile.TemporaryDirectory(prefix="gateway-contract-") as scratch:
        report_dir = options.report_dir or scratch
        Path(report_dir).mkdir(parents=True, exist_ok=True)
        argv, env = command(options, report_dir)
        code = subprocess.run(argv, env=env).returncode
        junit = Path(report_dir) / "junit.xml"
        if junit.exists():
            echo(summary(junit.read_text(encoding="utf-8")))
        if options.report_dir:
            echo(f"Reports in {report_dir}: " + ", ".join(sorted(p.name for p in Path(report_dir).iterdir())))
    return code


def summary(junit_text: str) -> str:
    """One line per operation: how it went and which checks failed."""
    rows = []
    for case in ElementTree.fromstring(junit_text).iter("testcase"):
        problems = [element for element in case if element.tag in ("failure", "error")]
        failed = sorted({name for element in problems for name in failed_checks(element.text or "")})
        status = "FAILED" if problems else ("skipped" if case.find("skipped") is not None else "passed")
        rows.append((case.get("name", "?"), status, ", ".join(failed)))
    width = max((len(name) for name, _, _ in rows), default=9)
    lines = ["", "Per operation:", f"  {'operation':<{width}}  result  failed checks"]
    lines += [f"  {name:<{width}}  {status:<6}  {failed}".rstrip() for name, status, failed in rows]
    return "\n".join(lines)


_FAILURE_TITLE = re.compile(r"^- (?:(ST\d+) )?(.+?)\s*$", re.MULTILINE)
_CUSTOM = re.compile(r"Custom check failed: `([^`]+)`")


def failed_checks(text: str) -> list[str]:
    """The failures a JUnit failure text lists: a custom check by its name, a built-in
    one by its code and title (e.g. `ST301 Response violates schema`)."""
    found = []
    for code, title in _FAILURE_TITLE.findall(text):
        custom = _CUSTOM.search(title)
        found.append(custom.group(1) if custom else f"{code} {title}".strip())
    return found
