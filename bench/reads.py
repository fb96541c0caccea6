"""Read latency against the number of stored payments.

p50 of GET /v2/payment with a filter, with a search, GET /v2/payment/{id} and GET
/v2/merchants/wallets/info, in process, at 100 and at 50,000 payments of one
merchant (a tenth of them paid, so with transactions; five to a client). The target: p50 at 50,000
within 3x of p50 at 100 (indexes, not scans of every payment).

Usage: python bench/reads.py [--small 100] [--large 50000] [--samples 300]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import p50, print_header, print_scaling  # noqa: E402
from sandbox.app import Settings, create_app  # noqa: E402
from sandbox.services import payments, transactions  # noqa: E402
from sandbox.services.merchants import create_merchant  # noqa: E402
from sandbox.store import Store  # noqa: E402

PAYMENTS_PER_CLIENT = 5  # so a client's wallet info is the same size at any scale
TARGET_RATIO = 3.0


def filled(count: int):
    """An app whose merchant has `count` payments; every tenth is paid in full."""
    app = create_app(Store(), Settings(seed=1))
    ctx = app.extensions["sandbox"]
    merchant = create_merchant(ctx, {"name": "Bench", "email": "b@bench.example"})
    made = []
    for number in range(count):
        payment = payments.create_payment(ctx, merchant, {
            "amount": "25", "assetShort": "USDT", "assetNetwork": "tron", "clientId": f"client-{number // PAYMENTS_PER_CLIENT}",
            "invoice": f"ORDER-{number:06d}"})
        if number % 10 == 0:
            transactions.record_deposit(ctx, merchant, {"assetNetwork": "tron", "assetShort": "USDT",
                                                        "addressTo": payment["addressTo"], "amount": "25",
                                                        "confirmations": 19})
        made.append(payment)
    return app, merchant, made


def measure(count: int, samples: int) -> dict[str, float]:
    app, merchant, made = filled(count)
    client = app.test_client()
    headers = {"API-KEY": merchant["apiKey"]}
    middle = made[len(made) // 2]
    queries = {
        "list, statuses filter": "/v2/payment?statuses=COMPLETED&limit=20",
        "list, two statuses": "/v2/payment?statuses=NEW,COMPLETED&limit=20",
        "list, method and status": "/v2/payment?method=USDT_tron&statuses=COMPLETED&limit=20",
        "list, search": f"/v2/payment?search={middle['invoice'][-5:]}",
        "get payment": f"/v2/payment/{middle['id']}",
        "wallet info": f"/v2/merchants/wallets/info?clientId={middle['clientId']}&limit=20",
    }
    result = {}
    for name, path in queries.items():
        for _ in range(10):
            assert client.get(path, headers=headers).status_code == 200
        timings = []
        for _ in range(samples):
            started = time.perf_counter()
            client.get(path, headers=headers)
            timings.append(time.perf_counter() - started)
        result[name] = p50(timings) * 1000
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=50_000)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    print_header("read benchmark")
    small, large = measure(args.small, args.samples), measure(args.large, args.samples)
    print()
    sys.exit(0 if print_scaling("request", "payments", args.small, small, args.large, large, TARGET_RATIO) else 1)


if __name__ == "__main__":
    main()
