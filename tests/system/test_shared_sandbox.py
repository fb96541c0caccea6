"""One shared sandbox for many CI jobs, as the README describes it: an admin token,
a merchant per job, each job's own clock, a reset at the start of a job, and a purge
of merchants nobody uses any more."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from sandbox.client import GatewayClient
from tests.system.serving import Served

pytestmark = pytest.mark.slow
TOKEN = "ci-admin-token"
JOBS = 6


def job(base_url: str, number: int) -> dict:
    """What each CI job does: its own merchant, a fresh start, its own time."""
    admin = GatewayClient(base_url, admin_token=TOKEN)
    created = admin.create_merchant(name=f"CI job {number}", email=f"job{number}@ci.example")
    assert created.status == 201
    shop = GatewayClient(base_url, api_key=created.json["apiKey"], hmac_secret=created.json["hmacSecret"])
    assert shop.request("POST", "/sandbox/merchants/me/reset").status == 200
    payment = shop.create_payment(amount="5", assetShort="USDT", assetNetwork="tron", timeout=600,
                                  invoice=f"job-{number}").json["data"]
    shop.advance_clock(601 + number)  # each job moves only its own clock
    assert shop.get_payment(payment["id"]).json["data"]["status"] == "EXPIRED"
    listed = shop.list_payments().json
    assert [p["invoice"] for p in listed["results"]] == [f"job-{number}"]
    return {"id": created.json["id"], "clock": shop.clock().json["now"], "payment": payment["id"], "shop": shop}


def test_parallel_jobs_share_one_sandbox_without_meeting(tmp_path):
    with Served("--data", str(tmp_path / "shared.json"), "--admin-token", TOKEN) as server:
        assert GatewayClient(server.base_url).create_merchant(name="x", email="x@x.co").status == 401
        with ThreadPoolExecutor(max_workers=JOBS) as pool:
            results = list(pool.map(lambda n: job(server.base_url, n), range(JOBS)))
        assert len({r["id"] for r in results}) == JOBS
        first, second = results[0], results[1]
        assert second["shop"].get_payment(first["payment"]).status == 403  # the spec's answer for another's
        assert first["shop"].clock().json["now"] != server.request("GET", "/sandbox/clock", headers={
            "API-KEY": server.demo_merchant["apiKey"]})[1]["now"]
        # a job that starts again from scratch
        assert first["shop"].request("POST", "/sandbox/merchants/me/reset").status == 200
        assert first["shop"].list_payments().json["total"] == 0
        assert second["shop"].list_payments().json["total"] == 1
        # retention: nobody was idle long enough; a purge keeps everyone
        purge = GatewayClient(server.base_url, admin_token=TOKEN).request(
            "POST", "/sandbox/merchants/purge", {"idleDays": 30})
        assert purge.status == 200 and purge.json == {"purged": []}
