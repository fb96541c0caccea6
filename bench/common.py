"""Helpers shared by the bench scripts: a filled store, timing, a loopback load generator."""

import http.client
import json
import os
import platform
import statistics
import threading
import time
from datetime import date

from sandbox.domain.signing import sign

WITHDRAWAL = {"amount": "12.5", "asset": {"short": "USDT", "network": "tron"}, "destTag": None,
              "addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "invoice": "BENCH",
              "customer": {"id": 1, "name": "Bench", "email": "bench@example.com"}}
DEPOSIT = {"assetNetwork": "tron", "assetShort": "USDT", "number": 1}


def signed(merchant: dict, body: dict) -> tuple[bytes, dict]:
    raw = json.dumps(body).encode()
    return raw, {"API-KEY": merchant["apiKey"], "X-HMAC": sign(merchant["hmacSecret"], raw),
                 "Content-Type": "application/json"}


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def p50(samples: list[float]) -> float:
    return statistics.median(samples)


def load(host: str, port: int, requests: list[tuple[str, str, bytes | None, dict]], *, seconds: float,
         connections: int) -> dict:
    """Send the requests round-robin over keep-alive connections for `seconds`; stops by itself."""
    latencies: list[float] = []
    errors = [0]
    deadline = time.monotonic() + seconds
    lock = threading.Lock()

    def worker(offset: int):
        connection = http.client.HTTPConnection(host, port, timeout=10)
        mine, index = [], offset
        while time.monotonic() < deadline:
            method, path, body, headers = requests[index % len(requests)]
            index += 1
            started = time.perf_counter()
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            mine.append(time.perf_counter() - started)
            if response.status >= 400:
                with lock:
                    errors[0] += 1
        connection.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(connections)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    return {"requests": len(latencies), "errors": errors[0], "rps": len(latencies) / elapsed,
            "p50_ms": p50(latencies) * 1000, "p99_ms": percentile(latencies, 0.99) * 1000}


def print_header(title: str) -> None:
    print(f"# gateway-sandbox {title}, {date.today()}, {os.cpu_count()} cores, "
          f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")


def print_scaling(label: str, unit: str, small_size: int, small: dict, large_size: int, large: dict,
                  target: float) -> bool:
    """A markdown table of p50 at two sizes and their ratio; whether every ratio meets `target`."""
    print(f"| {label} | p50 at {small_size:,} {unit} | p50 at {large_size:,} {unit} | ratio |")
    print("|---|---|---|---|")
    worst = 0.0
    for name in small:
        ratio = large[name] / small[name]
        worst = max(worst, ratio)
        print(f"| {name} | {small[name]:.3f} ms | {large[name]:.3f} ms | {ratio:.2f} |")
    print(f"\nworst ratio {worst:.2f} (target <= {target:g}): {'OK' if worst <= target else 'MISSED'}")
    return worst <= target
