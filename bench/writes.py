"""Write latency against store size, and write throughput under gunicorn.

1. In process, with a durable file store (journal + fsync), the p50 latency of
   POST /v2/withdrawal and POST /v2/deposit-addresses/create at 100 and at 20,000
   stored records; the ratio must stay <= 1.5 (a write must not cost O(n)).
2. `gateway-sandbox serve` (gunicorn, gthread) on 127.0.0.1 with a data file, loaded
   for a few seconds per endpoint by a keep-alive load generator: req/s, p50, p99.

Usage: python bench/writes.py [--small 100] [--large 20000] [--samples 400] [--seconds 5]
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import DEPOSIT, WITHDRAWAL, load, p50, print_header, print_scaling, signed  # noqa: E402
from sandbox.app import Settings, create_app  # noqa: E402
from sandbox.services import deposit_addresses, withdrawals  # noqa: E402
from sandbox.services.merchants import create_merchant  # noqa: E402
from sandbox.store import open_store  # noqa: E402
from tests.system.serving import Served  # noqa: E402

TARGET_RATIO = 1.5
ENDPOINTS = {"create-withdrawal": ("/v2/withdrawal", WITHDRAWAL),
             "create-deposit-address": ("/v2/deposit-addresses/create", DEPOSIT)}


def filled_app(directory: str, records: int):
    """An app over a durable store holding about `records` documents (half withdrawals,
    half deposit addresses, across 10 merchants)."""
    store = open_store(os.path.join(directory, "sandbox.json"))
    app = create_app(store, Settings(seed=1))
    ctx = app.extensions["sandbox"]
    merchants = [create_merchant(ctx, {"name": f"Bench {n}", "email": "b@bench.example"}) for n in range(10)]
    for number in range(records // 2):
        merchant = merchants[number % len(merchants)]
        withdrawals.create_withdrawal(ctx, merchant, WITHDRAWAL)
        deposit_addresses.create_deposit_addresses(ctx, merchant, "tron", "USDT", 1, None)
    return app, store, merchants[0]


def write_latency(records: int, samples: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as directory:
        app, store, merchant = filled_app(directory, records)
        client = app.test_client()
        result = {}
        for name, (path, body) in ENDPOINTS.items():
            raw, headers = signed(merchant, body)
            for _ in range(20):  # warm up
                client.post(path, data=raw, headers=headers)
            timings = []
            for _ in range(samples):
                started = time.perf_counter()
                response = client.post(path, data=raw, headers=headers)
                timings.append(time.perf_counter() - started)
                assert response.status_code == 200, response.json
            result[name] = p50(timings) * 1000
        store.close()
        return result


def throughput(seconds: float) -> dict[str, dict]:
    with tempfile.TemporaryDirectory() as directory:
        with Served("--data", os.path.join(directory, "sandbox.json"), "--seed", "1") as server:
            merchant = server.demo_merchant
            results = {}
            for name, (path, body) in ENDPOINTS.items():
                raw, headers = signed(merchant, body)
                results[name] = load("127.0.0.1", server.port, [("POST", path, raw, headers)], seconds=seconds,
                                     connections=8)
            return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()

    print_header("write benchmark")
    small, large = write_latency(args.small, args.samples), write_latency(args.large, args.samples)
    print("\n## p50 write latency, in process, durable store (journal + fsync)\n")
    within_target = print_scaling("endpoint", "records", args.small, small, args.large, large, TARGET_RATIO)

    print(f"\n## throughput under gunicorn (1 process, 8 threads), 8 keep-alive connections, "
          f"{args.seconds:g} s each\n")
    print("| endpoint | req/s | p50 | p99 | errors |")
    print("|---|---|---|---|---|")
    for name, result in throughput(args.seconds).items():
        print(f"| {name} | {result['rps']:.0f} | {result['p50_ms']:.2f} ms | {result['p99_ms']:.2f} ms | "
              f"{result['errors']} |")
    sys.exit(0 if within_target else 1)


if __name__ == "__main__":
    main()
