"""The sandbox against a peer: Stoplight Prism serving the same contract as a stateless
mock. Both on this machine, one after the other, driven by wrk with the same load;
prints req/s, p50 and p99 for get-payment, list-payments and create-withdrawal side by
side with ratios, and the start-up time to the first 200 of each; then get-payment's
load on a Flask app that answers a constant (bench/floor.py), the most one Python
process serves here, and the same with two processes. Start-up is timed to the first
200 of /sandbox/health for the sandbox and of /v2/withdrawal for Prism (it mocks only
the contract; either answers once the server is up). Bounded in time.

    (cd bench && npm install)     # @stoplight/prism-cli, into bench/node_modules
    python -m bench.prism [--seconds 10] [--connections 16]

Needs wrk (Debian: apt-get install wrk). Results also go to bench/results/prism.json.
"""

import argparse
import json
import os
import pathlib
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import date

from bench.common import WITHDRAWAL, signed
from sandbox.client import GatewayClient

ROOT = pathlib.Path(__file__).resolve().parents[1]
PRISM = ROOT / "bench" / "node_modules" / ".bin" / "prism"
LUA = """
wrk.method = "{method}"
wrk.body = {body}
{headers}
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def first_200(url: str, headers: dict, process: subprocess.Popen, started: float, timeout: float = 60) -> float:
    """Seconds from `started` until `url` first answers 200."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=1) as response:
                if response.status == 200:
                    return time.monotonic() - started
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.02)
    raise TimeoutError(f"{url} gave no 200 in {timeout} s")


def wrk(url: str, method: str, headers: dict, body: bytes | None, seconds: int, connections: int) -> dict:
    """One wrk run: req/s, p50 and p99 in ms, and non-2xx answers."""
    script = LUA.format(method=method, body=json.dumps(body.decode()) if body else "nil",
                        headers="\n".join(f'wrk.headers["{k}"] = {json.dumps(v)}' for k, v in headers.items()))
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
        handle.write(script + 'done = function(s, l, r) io.write(string.format("NON2XX %d\\n", s.errors.status)) end\n')
    try:
        output = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--latency",
                                 "-s", handle.name, url], capture_output=True, text=True, timeout=seconds + 30).stdout
    finally:
        os.unlink(handle.name)
    latency = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", output, re.M))
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
            "p50_ms": to_ms(latency["50"]), "p99_ms": to_ms(latency["99"]),
            "non_2xx": int(re.search(r"NON2XX (\d+)", output).group(1))}


def to_ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(\w+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]


def start_sandbox(data: str) -> tuple[subprocess.Popen, int, float]:
    port = free_port()
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "sandbox", "serve", "--host", "127.0.0.1", "--port", str(port),
                                "--data", data, "--quiet"], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    return process, port, started


def prepare_sandbox(base: str) -> tuple[dict, str]:
    """A merchant whose limits let the load through, with payments to read."""
    gateway = GatewayClient(base)
    created = gateway.create_merchant(name="Bench", email="bench@example.com", rateLimits={
        op: {"requests": 1_000_000, "seconds": 1} for op in ("listPayments", "listWithdrawals", "estimateNetworkFee")})
    merchant = created.json
    shop = gateway.as_merchant(merchant)
    payment_ids = [shop.create_payment(amount="10", assetShort="USDT", assetNetwork="tron", invoice=f"B-{n}")
                   .json["data"]["id"] for n in range(200)]
    return merchant, payment_ids[0]


def floor(payment: bytes, seconds: int, connections: int, workers: int = 1) -> dict:
    """get-payment's load on bench/floor.py: what `workers` Python processes serve at best."""
    with tempfile.NamedTemporaryFile("wb", suffix=".json") as body:
        body.write(payment)
        body.flush()
        port = free_port()
        started = time.monotonic()
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-k", "gthread", "--threads", "8", "-w", str(workers),
                                    "-b", f"127.0.0.1:{port}", "bench.floor:app"], cwd=ROOT,
                                   env={**os.environ, "FLOOR_BODY": body.name}, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            url = f"http://127.0.0.1:{port}/v2/payment/floor"
            first_200(url, {}, process, started)
            return wrk(url, "GET", {}, None, seconds, connections)
        finally:
            stop(process)


def run_endpoints(base: str, merchant: dict, payment_id: str, seconds: int, connections: int) -> dict:
    raw, write_headers = signed(merchant, WITHDRAWAL)
    read_headers = {"API-KEY": merchant["apiKey"]}
    return {
        "get-payment": wrk(f"{base}/v2/payment/{payment_id}", "GET", read_headers, None, seconds, connections),
        "list-payments": wrk(f"{base}/v2/payment?limit=20", "GET", read_headers, None, seconds, connections),
        "create-withdrawal": wrk(f"{base}/v2/withdrawal", "POST", write_headers, raw, seconds, connections),
    }


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, 15)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="Per endpoint and server")
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    if not PRISM.exists() or not shutil.which("wrk"):
        print("needs bench/node_modules/.bin/prism (cd bench && npm install) and wrk (apt-get install wrk)",
              file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory() as scratch:
        process, port, started = start_sandbox(os.path.join(scratch, "sandbox.json"))
        try:
            base = f"http://127.0.0.1:{port}"
            startup_sandbox = first_200(f"{base}/sandbox/health", {}, process, started)
            merchant, payment_id = prepare_sandbox(base)
            sandbox = run_endpoints(base, merchant, payment_id, args.seconds, args.connections)
            with urllib.request.urlopen(urllib.request.Request(f"{base}/v2/payment/{payment_id}",
                                                               headers={"API-KEY": merchant["apiKey"]})) as answer:
                payment = answer.read()
        finally:
            stop(process)
    ceiling = floor(payment, args.seconds, args.connections)
    two_processes = floor(payment, args.seconds, args.connections, workers=2)

    port = free_port()
    started = time.monotonic()
    process = subprocess.Popen([str(PRISM), "mock", str(ROOT / "contracts" / "openapi.yaml"), "-h", "127.0.0.1",
                                "-p", str(port)], cwd=ROOT / "bench", stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        startup_prism = first_200(f"{base}/v2/withdrawal", {"API-KEY": merchant["apiKey"]}, process, started)
        prism = run_endpoints(base, merchant, payment_id, args.seconds, args.connections)
    finally:
        stop(process)

    machine = f"{os.cpu_count()} cores ({platform.machine()}), Python {platform.python_version()}"
    print(f"sandbox (gunicorn, durable data file) vs Prism mock, {date.today()}, {machine}; "
          f"wrk -t2 -c{args.connections} -d{args.seconds}s on 127.0.0.1\n")
    print("| endpoint | sandbox req/s | Prism req/s | ratio | sandbox p50 / p99 ms | Prism p50 / p99 ms |")
    print("|---|---|---|---|---|---|")
    for name in sandbox:
        ours, theirs = sandbox[name], prism[name]
        print(f"| {name} | {ours['rps']:.0f} | {theirs['rps']:.0f} | {ours['rps'] / theirs['rps']:.2f} | "
              f"{ours['p50_ms']:.2f} / {ours['p99_ms']:.2f} | {theirs['p50_ms']:.2f} / {theirs['p99_ms']:.2f} |")
    print(f"| start-up to first 200 | {startup_sandbox:.2f} s | {startup_prism:.2f} s | "
          f"{startup_prism / startup_sandbox:.2f} (Prism / sandbox) | | |")
    print(f"\nThe ceiling of one Python process (bench/floor.py: Flask under the same gunicorn answering a "
          f"constant payment, get-payment's load): {ceiling['rps']:.0f} req/s, "
          f"{ceiling['rps'] / prism['get-payment']['rps']:.2f} of Prism, "
          f"p50 / p99 {ceiling['p50_ms']:.2f} / {ceiling['p99_ms']:.2f} ms; with two gunicorn workers "
          f"{two_processes['rps']:.0f} req/s, {two_processes['rps'] / ceiling['rps']:.2f} × one")
    errors = {f"{server}:{name}": result["non_2xx"] for server, results in (("sandbox", sandbox), ("prism", prism))
              for name, result in results.items() if result["non_2xx"]}
    if errors:
        print(f"\nnon-2xx answers: {errors}")
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "prism.json").write_text(json.dumps({"date": str(date.today()), "machine": machine,
                                                    "sandbox": sandbox, "prism": prism, "floor": ceiling, "floor_two_workers": two_processes,
                                                    "startup_s": {"sandbox": startup_sandbox, "prism": startup_prism}},
                                                   indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
